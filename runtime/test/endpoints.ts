// Endpoints described by hand for the server's tests: what the parser would produce for
// them is covered by the parser's tests.
import type { EndpointMeta, JSONSchema } from "../internal/meta/types.ts";
import type { Endpoint } from "../internal/registry/endpoints.ts";

/** An object schema with these properties. */
export const obj = (properties: Record<string, JSONSchema>, required: string[] = []): JSONSchema => ({ type: "object", properties, required });

/** An exposed typed GET endpoint of service "svc" at `/<name>` with no request or response, as changed by `partial`. */
export function testEndpoint(name: string, partial: Partial<EndpointMeta>, handler: unknown): Endpoint {
  const meta: EndpointMeta = {
    service: "svc",
    name,
    kind: "typed",
    file: "svc/api.ts",
    line: 1,
    doc: null,
    expose: true,
    auth: false,
    methods: ["GET"],
    path: `/${name}`,
    pathParams: [],
    tags: [],
    sensitive: false,
    request: null,
    response: null,
    ...partial,
  };
  return { meta, handler };
}
