// The Encore app's top-level folders, from tsconfig.json's "include" (the one list of them):
// a folder with an encore.service.ts is a service, any other is shared code. The lint
// configurations take their rules' folders from here, so a new folder gets its walls by
// being added to tsconfig.json.
const { existsSync, readFileSync } = require("node:fs");
const path = require("node:path");
const ts = require("typescript");

const root = path.join(__dirname, "..");
const tsconfig = path.join(root, "tsconfig.json");
const { config, error } = ts.parseConfigFileTextToJson(tsconfig, readFileSync(tsconfig, "utf8"));
if (error) throw new Error(`tsconfig.json: ${ts.flattenDiagnosticMessageText(error.messageText, "\n")}`);

/** Every app folder; encore.gen holds what `encore-selfhost gen` writes, no app code. */
const appFolders = config.include.filter((folder) => folder !== "encore.gen");
const services = appFolders.filter((folder) => existsSync(path.join(root, folder, "encore.service.ts")));
const shared = appFolders.filter((folder) => !services.includes(folder));

module.exports = { appFolders, services, shared };
