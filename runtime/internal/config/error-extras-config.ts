/**
 * What Encore adds to error answers on request (runtimes/core/src/api/error.rs):
 * `internal_message` with ENCORE_API_INCLUDE_INTERNAL_MESSAGE, `stack` with
 * ENCORE_API_INCLUDE_ERROR_STACK. `encore run` sets the first for local development.
 */
export interface ErrorExtras {
  readonly internalMessage: boolean;
  readonly stack: boolean;
}

export const noErrorExtras: ErrorExtras = Object.freeze({ internalMessage: false, stack: false });

/** Encore's reading of these variables: set, not empty and not "0". */
export function parseErrorExtras(env: Readonly<Record<string, string | undefined>>): ErrorExtras {
  const on = (raw: string | undefined) => raw !== undefined && raw !== "" && raw !== "0";
  return Object.freeze({
    internalMessage: on(env.ENCORE_API_INCLUDE_INTERNAL_MESSAGE),
    stack: on(env.ENCORE_API_INCLUDE_ERROR_STACK),
  });
}
