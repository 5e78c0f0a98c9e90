import { api } from "encore.dev/api";
import { secret } from "encore.dev/config";
import log from "encore.dev/log";
import { Counter } from "encore.dev/metrics";
import type { MaxLen } from "encore.dev/validate";
import { appMeta } from "encore.dev";

// Modules encore.dev publishes and this runtime implements, in every import form.
export { currentRequest } from "encore.dev";
const token = secret("Token");
const hits = new Counter("hits");

export const hello = api(
  { expose: true, method: "POST", path: "/hello" },
  async (req: { name: string & MaxLen<10> }): Promise<{ app: string; tokenSet: boolean }> => {
    hits.increment();
    log.info("hello", { name: req.name });
    const { SQLDatabase } = await import("encore.dev/storage/sqldb");
    return { app: appMeta().appId + typeof SQLDatabase, tokenSet: token() !== "" };
  },
);
