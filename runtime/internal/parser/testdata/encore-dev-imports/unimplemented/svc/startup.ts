// Published by encore.dev for Encore's generated entry point, not implemented by this
// runtime; loaded dynamically, which generation must catch as well.
export async function start(): Promise<unknown> {
  return import("encore.dev/internal/codegen/appinit");
}
