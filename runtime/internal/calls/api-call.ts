import { APIError } from "../errors/api-error.ts";
import { loadEndpoints, type Endpoint, type Handler } from "../registry/endpoints.ts";
import { compileCallValidator } from "../server/request.ts";

const validators = new Map<string, (params: unknown) => unknown>();

/**
 * A call from one service to another, in-process: the same validation as over HTTP,
 * then the handler. Internal (expose: false) endpoints are callable here, and only here.
 * Errors reach the caller as APIError; anything else becomes `internal` with its cause kept.
 */
export async function callEndpoint(service: string, endpoint: string, params: unknown): Promise<unknown> {
  const key = `${service}.${endpoint}`;
  const target = (await loadEndpoints()).get(key);
  if (!target || target.meta.kind !== "typed") throw APIError.notFound(`no endpoint ${key}`);
  const input = target.meta.request ? validatorFor(key, target)(params) : undefined;
  try {
    return await (target.handler as Handler)(input);
  } catch (err) {
    if (err instanceof APIError) throw err;
    throw APIError.internal(`call to ${key} failed`, err as Error);
  }
}

function validatorFor(key: string, target: Endpoint): (params: unknown) => unknown {
  let validate = validators.get(key);
  if (!validate) {
    validate = compileCallValidator(target.meta.request!);
    validators.set(key, validate);
  }
  return validate;
}
