import { api } from "encore.dev/api";

interface Msg {
  text: string;
}

// Two type arguments, but the handler takes a handshake: Encore wants three.
export const chat = api.streamInOut<Msg, Msg>({ expose: true }, async (handshake: { room: string }, stream: never) => {
  void handshake;
  void stream;
});
