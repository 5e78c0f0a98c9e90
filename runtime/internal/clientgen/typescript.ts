import type { AppMeta } from "../meta/types.ts";
import { endpointMethod, paramsSchema, record, sentByClient } from "./endpoint-method.ts";
import { docBlock, identifier } from "./names.ts";
import { selectServices, type ClientFilters, type SelectedService } from "./select.ts";
import { clientOptionsCode, headerCode, supportCode } from "./support-code.ts";
import { TypeWriter } from "./type-text.ts";

/** How the service clients are written: in TypeScript namespaces, or (for the JavaScript client) as plain classes. */
export type ServiceStyle = "namespace" | "class";

/**
 * The TypeScript client, in the shape of Encore's: `export default class Client` with a
 * member per service, one `export namespace` per service with its named types and its
 * ServiceClient, other namespaces for types declared outside services, then the shared
 * BaseClient, APIError and ErrCode.
 */
export function typescriptClient(meta: AppMeta, appSlug: string, filters: ClientFilters, style: ServiceStyle = "namespace"): string {
  const selected = selectServices(meta, filters);
  const types = new TypeWriter();

  // Methods first: writing them collects the named types the namespaces declare.
  const methods = new Map(
    selected.map(({ service, endpoints }) => [service.name, endpoints.map((e) => endpointMethod(e, types, service.name))] as const),
  );
  // An auth handler that reads only cookies gives the client no auth option, as in Encore's: the browser sends them.
  const authFields = meta.auth ? meta.auth.params.fields.filter(sentByClient) : [];
  const authParams = meta.auth && authFields.length > 0 ? meta.auth.params : null;
  const authType = authParams ? types.type(paramsSchema(authParams, authFields), "", 1) : null;
  const authEncode = authParams ? authEncoding(authParams) : "";

  const parts = [headerCode(appSlug), clientClass(selected), clientOptionsCode(authType)];
  const declared = declarations(types);
  const serviceNames = new Set(meta.services.map((s) => s.name));
  for (const service of meta.services) {
    const entry = selected.find((s) => s.service.name === service.name);
    const decls = declared.get(service.name) ?? [];
    if (!entry && decls.length === 0) continue;
    const serviceClient = entry ? serviceClientClass(entry, methods.get(service.name) ?? [], style) : "";
    parts.push(namespaceCode(service.name, service.doc, decls, serviceClient, style));
  }
  for (const [ns, decls] of [...declared].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (!serviceNames.has(ns)) parts.push(namespaceCode(ns, null, decls, "", style));
  }
  const usesMakeRecord = authEncode !== "" || [...methods.values()].some((list) => list.some((m) => m.usesMakeRecord));
  const streams = selected.some(({ endpoints }) => endpoints.some((e) => e.kind === "stream"));
  parts.push(supportCode({ appSlug, auth: authType ? { type: authType, encode: authEncode } : null, usesMakeRecord, streams }));
  return parts.join("\n");
}

/** Every declaration collected, written; writing one can reference more, so until none is new. */
function declarations(types: TypeWriter): Map<string, string[]> {
  const written = new Map<string, string>();
  for (;;) {
    const pending = [...types.namespaces().values()].flat().filter((d) => !written.has(`${d.ref.namespace}\0${d.ref.name}`));
    if (pending.length === 0) break;
    for (const decl of pending) written.set(`${decl.ref.namespace}\0${decl.ref.name}`, types.declaration(decl));
  }
  const result = new Map<string, string[]>();
  for (const [ns, decls] of types.namespaces()) {
    result.set(ns, decls.map((d) => written.get(`${d.ref.namespace}\0${d.ref.name}`) ?? ""));
  }
  return result;
}

function clientClass(selected: readonly SelectedService[]): string {
  const members = selected.map(({ service }) => `    public readonly ${identifier(service.name)}: ${identifier(service.name)}.ServiceClient\n`);
  const inits = selected.map(({ service }) => `        this.${identifier(service.name)} = new ${identifier(service.name)}.ServiceClient(base)\n`);
  return `
/**
 * Client is an API client for the app's public and authenticated endpoints.
 */
export default class Client {
${members.join("")}    private readonly options: ClientOptions
    private readonly target: string

    /**
     * Creates a Client for calling the public and authenticated APIs of your Encore application.
     *
     * @param target  The target which the client should be configured to use. See Local and Environment for options.
     * @param options Options for the client
     */
    constructor(target: BaseURL, options?: ClientOptions) {
        this.target = target
        this.options = options ?? {}
        const base = new BaseClient(this.target, this.options)
${inits.join("")}    }

    /**
     * Creates a new client with the given client options set.
     *
     * @param options Client options to set. They are merged with existing options.
     **/
    public with(options: ClientOptions): Client {
        return new Client(this.target, {
            ...this.options,
            ...options,
        })
    }
}
`;
}

function serviceClientClass(entry: SelectedService, methods: readonly { name: string; code: string }[], style: ServiceStyle): string {
  const binds = methods.map((m) => `            this.${m.name} = this.${m.name}.bind(this)\n`).join("");
  const className = style === "namespace" ? "ServiceClient" : `${pascal(entry.service.name)}ServiceClient`;
  return `    export class ${className} {
        private baseClient: BaseClient

        constructor(baseClient: BaseClient) {
            this.baseClient = baseClient
${binds}        }
${methods.map((m) => `\n${m.code}`).join("")}    }
`;
}

function namespaceCode(ns: string, doc: string | null, decls: readonly string[], serviceClient: string, style: ServiceStyle): string {
  const body = [...decls, ...(serviceClient ? [serviceClient] : [])].join("\n");
  if (style === "class") {
    // Plain JavaScript has no namespaces: the class, then an object holding it under the same names.
    if (!serviceClient) return "";
    const name = `${pascal(ns)}ServiceClient`;
    const unindented = serviceClient.replace(/^ {4}/gm, "").replace(/^export /, "");
    return `${docBlock(doc, "")}${unindented}\nexport const ${identifier(ns)} = {\n    ServiceClient: ${name},\n}\n`;
  }
  return `${docBlock(doc, "")}export namespace ${identifier(ns)} {\n${body}}\n`;
}

/** The auth handler's parameters put into `data`, the CallParameters getAuthData returns. */
function authEncoding(params: NonNullable<AppMeta["auth"]>["params"]): string {
  const lines: string[] = [];
  const query = params.fields.filter((f) => f.location === "query");
  const headers = params.fields.filter((f) => f.location === "header");
  const indent = (text: string) => text.split("\n").map((line) => `        ${line}`).join("\n");
  if (query.length > 0) lines.push(indent(`data.query = makeRecord<string | string[]>(${record(query, params, "query", "authData")})`));
  if (headers.length > 0) lines.push(indent(`data.headers = makeRecord<string>(${record(headers, params, "header", "authData")})`));
  return lines.join("\n");
}

function pascal(name: string): string {
  const id = identifier(name);
  return id.charAt(0).toUpperCase() + id.slice(1);
}
