import { api, type Cookie } from "encore.dev/api";

interface Params {
  session: Cookie<"session">;
}

// A cookie parameter: not read from the Cookie header by this runtime yet.
export const whoami = api({ expose: true, method: "GET", path: "/whoami" }, async (p: Params): Promise<{ id: string }> => ({ id: p.session.value }));
