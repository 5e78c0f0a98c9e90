import { CacheCluster, expireInMinutes, StringKeyspace, StructKeyspace } from "encore.dev/storage/cache";

/** The app's cache cluster: sessions and profiles live here, evicting the least recently used. */
export const cluster = new CacheCluster("main", { evictionPolicy: "allkeys-lru" });

export interface ProfileKey {
  org: string;
  id: string;
}

export interface Profile {
  name: string;
  email: string;
}

/** Profiles, cached for ten minutes after each write. */
export const profiles = new StructKeyspace<ProfileKey, Profile>(cluster, {
  keyPattern: "profile/:org/:id",
  defaultExpiry: expireInMinutes(10),
});

/** A free-text note per user, grown with append. */
export const notes = new StringKeyspace<string>(cluster, { keyPattern: "note/:key" });
