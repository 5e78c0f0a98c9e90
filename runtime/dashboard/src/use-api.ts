import { useCallback, useEffect, useState } from "preact/hooks";
import { api, asApiError, type ApiError } from "./api.ts";
import { useLive } from "./live.ts";

export interface Loaded<T> {
  /** The last answer for this path; kept while a reload runs, so the page does not flicker. */
  readonly data: T | null;
  readonly error: ApiError | null;
  readonly loading: boolean;
  reload(): void;
}

interface Answer<T> {
  readonly path: string;
  readonly data: T | null;
  readonly error: ApiError | null;
}

/** GET `path` (nothing while it is null); again when the path changes, on reload(), and when the app restarts. */
export function useApi<T>(path: string | null): Loaded<T> {
  const { generation } = useLive();
  const [answer, setAnswer] = useState<Answer<T> | null>(null);
  const [loading, setLoading] = useState(path !== null);
  const [tick, setTick] = useState(0);

  useEffect(() => {
    if (path === null) return;
    let current = true;
    setLoading(true);
    api<T>(path).then(
      (data) => {
        if (!current) return;
        setAnswer({ path, data, error: null });
        setLoading(false);
      },
      (err: unknown) => {
        if (!current) return;
        setAnswer((last) => ({ path, data: last?.path === path ? last.data : null, error: asApiError(err) }));
        setLoading(false);
      },
    );
    return () => {
      current = false;
    };
  }, [path, generation, tick]);

  const reload = useCallback(() => setTick((n) => n + 1), []);
  // An answer for another path (the page moved on) is not this one's.
  const mine = answer?.path === path ? answer : null;
  return { data: mine?.data ?? null, error: mine?.error ?? null, loading, reload };
}
