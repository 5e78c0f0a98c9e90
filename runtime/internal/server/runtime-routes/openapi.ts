import type { FastifyInstance } from "fastify";
import { appName } from "../../meta/app-name.ts";
import type { AppMeta } from "../../meta/types.ts";
import { openApiPath } from "../../meta/runtime-routes.ts";
import { toOpenAPI } from "../../parser/openapi.ts";

/**
 * GET /openapi.json, when SERVE_OPENAPI=on: the document `gen client --lang openapi` writes,
 * for tools that read an API from its server (Swagger UI, Postman, client generators).
 * Off by default: an API description is for the people building against it, not for
 * every visitor of a production deployment. Built once here, not per request.
 */
export function registerOpenApi(server: FastifyInstance, meta: AppMeta, appRoot: string): void {
  const body = JSON.stringify(toOpenAPI(meta, appName(meta, appRoot)));
  server.get(openApiPath, async (_req, reply) => reply.type("application/json; charset=utf-8").send(body));
}
