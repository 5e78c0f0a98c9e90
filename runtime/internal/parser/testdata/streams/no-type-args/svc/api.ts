import { api } from "encore.dev/api";

export const feed = api.streamOut({ expose: true }, async (stream) => {
  await stream.close();
});
