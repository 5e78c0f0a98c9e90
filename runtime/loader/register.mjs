// `node --import tsx --import encore-selfhost/loader/register.mjs app.ts` runs Encore app code
// on this runtime: TypeScript through tsx, encore.dev/* and ~encore/* through hooks.mjs.
import { register } from "node:module";

register("./hooks.mjs", import.meta.url);
