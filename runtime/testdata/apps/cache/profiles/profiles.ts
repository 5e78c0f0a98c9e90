import { api, APIError } from "encore.dev/api";
import { CacheKeyExists, CacheMiss, expireInSeconds, keepTTL } from "encore.dev/storage/cache";
import { notes, profiles, type Profile } from "./cache";

interface ProfileParams {
  org: string;
  id: string;
}

/** Stores a profile, whether or not one was cached. */
export const put = api({ expose: true, method: "PUT", path: "/profiles/:org/:id" }, async ({ org, id, ...profile }: ProfileParams & Profile): Promise<void> => {
  await profiles.set({ org, id }, profile);
});

/** Stores a profile only if none is cached: 409 already_exists otherwise. */
export const create = api(
  { expose: true, method: "POST", path: "/profiles/:org/:id" },
  async ({ org, id, ...profile }: ProfileParams & Profile): Promise<void> => {
    try {
      await profiles.setIfNotExists({ org, id }, profile);
    } catch (err) {
      if (err instanceof CacheKeyExists) throw APIError.alreadyExists(err.message);
      throw err;
    }
  },
);

/** Replaces a cached profile, keeping its time to live: 404 not_found when none is cached. */
export const rename = api(
  { expose: true, method: "PATCH", path: "/profiles/:org/:id" },
  async ({ org, id, name }: ProfileParams & { name: string }): Promise<Profile> => {
    const current = await profiles.get({ org, id });
    if (!current) throw APIError.notFound(`no cached profile ${org}/${id}`);
    try {
      await profiles.replace({ org, id }, { ...current, name }, { expiry: keepTTL });
    } catch (err) {
      if (err instanceof CacheMiss) throw APIError.notFound(err.message);
      throw err;
    }
    return { ...current, name };
  },
);

/** The cached profile: 404 not_found when none is. */
export const get = api({ expose: true, method: "GET", path: "/profiles/:org/:id" }, async ({ org, id }: ProfileParams): Promise<Profile> => {
  const profile = await profiles.get({ org, id });
  if (!profile) throw APIError.notFound(`no cached profile ${org}/${id}`);
  return profile;
});

/** Forgets a cached profile; how many keys went (0 or 1). */
export const forget = api({ expose: true, method: "DELETE", path: "/profiles/:org/:id" }, async ({ org, id }: ProfileParams): Promise<{ deleted: number }> => {
  return { deleted: await profiles.delete({ org, id }) };
});

/** Appends to a user's note, which expires a minute after the last write; the note's length. */
export const note = api({ expose: true, method: "POST", path: "/notes/:user" }, async ({ user, text }: { user: string; text: string }): Promise<{ length: number; note: string }> => {
  const length = await notes.with({ expiry: expireInSeconds(60) }).append(user, text);
  return { length, note: (await notes.get(user)) ?? "" };
});
