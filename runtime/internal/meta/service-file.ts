/** A service's encore.service.ts, relative to the app root, from the folder its metadata names. */
export function serviceFile(dir: string): string {
  return dir === "." ? "encore.service.ts" : `${dir}/encore.service.ts`;
}
