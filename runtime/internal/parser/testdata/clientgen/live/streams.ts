import { api, type Header, type Query } from "encore.dev/api";
import { getAuthData } from "~encore/auth";

export interface Line {
  text: string;
}

export interface Said {
  room: string;
  nick: string;
  text: string;
  seq: number;
}

interface ChatHandshake {
  room: string;
  nick: Header<"X-Nick">;
  loud?: Query<boolean>;
}

// Chat answers each line in its room, under the caller's nick; it closes on "bye".
export const chat = api.streamInOut<ChatHandshake, Line, Said>(
  { expose: true, path: "/rooms/:room/chat" },
  async ({ room, nick, loud }, stream) => {
    let seq = 0;
    for await (const line of stream) {
      if (line.text === "bye") break;
      await stream.send({ room, nick, text: loud ? line.text.toUpperCase() : line.text, seq: ++seq });
    }
    await stream.close();
  },
);

// Counts the lines it is sent until "done", and answers with the count.
export const count = api.streamIn<Line, { lines: number }>({ expose: true, path: "/count" }, async (stream) => {
  let lines = 0;
  for await (const line of stream) {
    if (line.text === "done") break;
    lines++;
  }
  return { lines };
});

// Only for authenticated callers: sends their user ID, then closes.
export const greet = api.streamOut<Said>({ expose: true, auth: true, path: "/greet" }, async (stream) => {
  await stream.send({ room: "", nick: getAuthData()?.userID ?? "", text: "hello", seq: 1 });
  await stream.close();
});
