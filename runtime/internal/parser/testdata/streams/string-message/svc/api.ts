import { api } from "encore.dev/api";

export const lines = api.streamOut<string>({ expose: true }, async (stream) => {
  await stream.send("hello");
});
