// How the app's parts are linked, for the catalog and the flow diagram: what the parser
// found (app metadata v6), with the declaring service counted as a user of what it declares.
import type { BucketMeta, DatabaseMeta } from "../meta/types.ts";

/** Services that use the database or bucket: the declaring one, and those the parser found using it. */
export function resourceUsers(resource: DatabaseMeta | BucketMeta): readonly string[] {
  return [...new Set([resource.service, ...resource.usedBy])];
}
