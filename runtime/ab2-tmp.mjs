import Fastify from "fastify";
const app = Fastify({ logger: false });
const body = JSON.stringify({ url: "https://example.com/benchmark/target" });
app.get("/:code", (req, reply) => { reply.hijack(); reply.raw.writeHead(200, {"content-type":"application/json; charset=utf-8","content-length": body.length}); reply.raw.end(body); });
await app.listen({ port: 4603, host: "127.0.0.1" });
