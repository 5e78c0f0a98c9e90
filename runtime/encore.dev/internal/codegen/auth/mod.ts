// What the generated ~encore/auth calls, at the import path Encore's generator uses.
import { currentAuthData } from "../../../../internal/reqtrack/mod.ts";

/** The auth data of the request being handled, or null when it has none (or outside any request). */
export function getAuthData<T>(): T | null {
  return currentAuthData() as T | null;
}
