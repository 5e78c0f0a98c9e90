// Plain code in a folder with its own package.json: read like any other folder's.
export const vendored = true;
