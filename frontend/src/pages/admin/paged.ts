import { useEffect, useRef, useState } from "preact/hooks";
import { errorMessage } from "../../api";

export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

/**
 * A list read a page at a time: the first page whenever `key` changes, the next on more().
 * Answers arriving out of order (a filter changed quickly) are dropped but for the last.
 */
export function usePaged<T>(fetchPage: (cursor?: string) => Promise<Page<T>>, key: string) {
  const [items, setItems] = useState<T[]>([]);
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const latest = useRef(0);

  const load = async (after?: string) => {
    const request = ++latest.current;
    setLoading(true);
    setError(null);
    try {
      const page = await fetchPage(after);
      if (request !== latest.current) return;
      setItems((shown) => (after ? [...shown, ...page.items] : page.items));
      setCursor(page.nextCursor);
    } catch (err) {
      if (request === latest.current) setError(errorMessage(err));
    } finally {
      if (request === latest.current) setLoading(false);
    }
  };

  useEffect(() => {
    void load();
  }, [key]);

  return { items, setItems, loading, error, hasMore: cursor !== undefined, more: () => load(cursor), reload: () => load() };
}
