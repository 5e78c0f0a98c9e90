export { appRoot, runtimeDir } from "./app-root.mjs";
