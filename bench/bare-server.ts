// Baseline (a): the least a Node HTTP server can do to answer a lookup, with the
// same JSON body size as GET /:code. Every other figure is a ratio to this one.
import { createServer } from "node:http";

const body = JSON.stringify({ url: process.argv[2] ?? "https://example.com/benchmark/target" });
const server = createServer((_req, res) => {
  res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) });
  res.end(body);
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(`listening on http://localhost:${typeof address === "object" && address ? address.port : 0}`);
});
process.once("SIGTERM", () => server.close(() => process.exit(0)));
