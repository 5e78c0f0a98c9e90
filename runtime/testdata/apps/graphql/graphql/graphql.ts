import { ApolloServer, HeaderMap } from "@apollo/server";
import { api } from "encore.dev/api";
import { json } from "node:stream/consumers";
import { resolvers, typeDefs } from "./schema";

// Started before the endpoint serves. Outside tests Apollo also stops itself on SIGTERM
// and SIGINT (stopOnTerminationSignals), then sends the signal to this process again.
export const server = new ApolloServer({ typeDefs, resolvers });
await server.start();

/** GraphQL over HTTP: the request is handed to Apollo as it came, and its answer written back. */
export const graphqlAPI = api.raw(
  { expose: true, path: "/graphql", method: "*" },
  async (req, res) => {
    server.assertStarted("/graphql");

    const headers = new HeaderMap();
    for (const [key, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(", ") : value);
    }
    const url = new URL(req.url ?? "/", "http://localhost");
    const response = await server.executeHTTPGraphQLRequest({
      httpGraphQLRequest: {
        headers,
        method: req.method!.toUpperCase(),
        body: req.method === "POST" ? await json(req) : undefined,
        search: url.search,
      },
      context: async () => ({}),
    });

    for (const [key, value] of response.headers) res.setHeader(key, value);
    res.statusCode = response.status ?? 200;
    if (response.body.kind === "complete") {
      res.end(response.body.string);
      return;
    }
    for await (const chunk of response.body.asyncIterator) res.write(chunk);
    res.end();
  },
);
