import { LRUCache } from "lru-cache";
import { urlConfig } from "./config";

/**
 * code → original URL, bounded. A code's URL never changes once stored, so entries
 * never go stale; only deletion (the cleanup job) must evict them.
 */
export const urlCache = new LRUCache<string, string>({ max: urlConfig.cacheSize });
