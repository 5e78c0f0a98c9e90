import { api } from "encore.dev/api";

const hidden = api({ path: "/hidden" }, async (): Promise<void> => {});
void hidden;
