import { useState } from "preact/hooks";
import { asApiError, type ApiError } from "../api.ts";

export interface Action<A extends unknown[], T> {
  readonly running: boolean;
  readonly result: T | null;
  readonly error: ApiError | null;
  run(...args: A): Promise<void>;
}

/** A button's request: whether it runs, what it answered, or the error it failed with. */
export function useAction<A extends unknown[], T>(request: (...args: A) => Promise<T>): Action<A, T> {
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<T | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  return {
    running,
    result,
    error,
    async run(...args: A) {
      setRunning(true);
      setError(null);
      try {
        setResult(await request(...args));
      } catch (err) {
        setResult(null);
        setError(asApiError(err));
      } finally {
        setRunning(false);
      }
    },
  };
}
