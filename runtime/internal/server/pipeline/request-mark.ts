import type { RouteOptions } from "fastify";
import type { ConstraintStrategy, Handler, HTTPVersion } from "find-my-way";
import type { IncomingMessage } from "node:http";

/**
 * A mark set on a request before Fastify routes it, and the router constraint that lets
 * only marked requests reach the routes registered under it (`{ [name]: "yes" }`).
 * Fallback routes and the development dashboard's internal routes are two such marks.
 */
export interface RequestMark {
  readonly name: string;
  readonly strategy: ConstraintStrategy<HTTPVersion.V1, string>;
  set(req: IncomingMessage): void;
  has(req: IncomingMessage): boolean;
  /** Whether a route is registered under this mark's constraint. */
  guards(route: Pick<RouteOptions, "constraints">): boolean;
}

/**
 * @param onlyMarkedRoutes true: a marked request matches only routes under the mark
 *   (find-my-way's mustMatchWhenDerived); false: it still matches every other route too.
 */
export function requestMark(name: string, description: string, onlyMarkedRoutes: boolean): RequestMark {
  const mark = Symbol(description);
  type Marked = IncomingMessage & { [mark]?: true };
  const has = (req: IncomingMessage) => (req as Marked)[mark] === true;
  return {
    name,
    has,
    set: (req) => void ((req as Marked)[mark] = true),
    guards: (route) => (route.constraints as Record<string, unknown> | undefined)?.[name] !== undefined,
    strategy: {
      name,
      mustMatchWhenDerived: onlyMarkedRoutes,
      storage() {
        const stores = new Map<string, Handler<HTTPVersion.V1>>();
        return {
          get: (value) => stores.get(value) ?? null,
          set: (value, store) => void stores.set(value, store),
        };
      },
      // find-my-way's type says the value is always derived; undefined is how a request opts out.
      deriveConstraint: (req) => (has(req) ? "yes" : (undefined as unknown as string)),
    },
  };
}
