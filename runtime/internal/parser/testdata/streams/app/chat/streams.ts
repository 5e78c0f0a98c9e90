import { api, type Header, type Query, type StreamInOut } from "encore.dev/api";
import { getAuthData } from "~encore/auth";

export interface Note {
  text: string;
  /** When the client wrote it. */
  at?: Date;
}

export interface Echo {
  text: string;
  seq: number;
}

export interface Summary {
  count: number;
  texts: string[];
}

export interface RoomHandshake {
  room: string;
  limit: Query<number>;
  nick: Header<"X-Nick">;
}

export interface Tick {
  room: string;
  n: number;
  nick: string;
}

// Counts what it was sent, and answers with the count when it stops.
export const upload = api.streamIn<Note, Summary>({ expose: true, path: "/upload" }, async (stream) => {
  const texts: string[] = [];
  for await (const note of stream) {
    if (note.text === "stop") break;
    texts.push(note.at ? `${note.text}@${note.at.toISOString()}` : note.text);
  }
  return { count: texts.length, texts };
});

// A handshake and all three type arguments.
export const tally = api.streamIn<{ label: Query<string> }, Note, Summary>(
  { expose: true, path: "/tally" },
  async (handshake, stream) => {
    let count = 0;
    for await (const note of stream) count += note.text.length;
    return { count, texts: [handshake.label] };
  },
);

// Path, query and header parameters in the handshake.
export const ticks = api.streamOut<RoomHandshake, Tick>(
  { expose: true, path: "/rooms/:room/ticks" },
  async ({ room, limit, nick }, stream) => {
    for (let n = 1; n <= limit; n++) await stream.send({ room, n, nick });
    await stream.close();
  },
);

// Answers each message; closes when told to.
export const echo = api.streamInOut<Note, Echo>({ expose: true, path: "/echo" }, async (stream: StreamInOut<Note, Echo>) => {
  let seq = 0;
  for await (const note of stream) {
    if (note.text === "bye") {
      await stream.close();
      break;
    }
    await stream.send({ text: note.text, seq: ++seq });
  }
});

// Only for authenticated callers: greets them by their user ID.
export const whoami = api.streamOut<Echo>({ expose: true, auth: true, path: "/whoami" }, async (stream) => {
  await stream.send({ text: getAuthData()?.userID ?? "nobody", seq: 1 });
  await stream.close();
});

// Not exposed: reachable only from other services, through ~encore/clients.
export const internalEcho = api.streamInOut<{ prefix: Header<"X-Prefix"> }, Note, Echo>(
  { path: "/internal/echo" },
  async ({ prefix }, stream) => {
    let seq = 0;
    for await (const note of stream) await stream.send({ text: `${prefix}${note.text}`, seq: ++seq });
  },
);

// Fails after its first message.
export const explode = api.streamOut<Echo>({ expose: true, path: "/explode" }, async (stream) => {
  await stream.send({ text: "first", seq: 1 });
  throw new Error("boom");
});
