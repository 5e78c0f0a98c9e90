import { api } from "encore.dev/api";

interface Msg {
  text: string;
}

// StreamOptions has no method: a stream's handshake is always a GET.
export const feed = api.streamOut<Msg>({ expose: true, method: "POST" }, async (stream) => {
  await stream.close();
});
