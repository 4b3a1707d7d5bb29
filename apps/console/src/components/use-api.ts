import { useCallback, useEffect, useState } from 'react';
import { api, ApiProblem, Query } from '../api/client';

export interface Loaded<T> {
  data?: T;
  error?: ApiProblem;
  loading: boolean;
  reload: () => void;
}

/** A GET of the API, redone when the path or query changes or on reload(); the last answer wins. */
export function useApi<T>(path: string | undefined, query?: Query): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: ApiProblem; loading: boolean }>({ loading: !!path });
  const [round, setRound] = useState(0);
  const key = JSON.stringify(query ?? {});
  useEffect(() => {
    if (!path) return;
    let current = true;
    setState((s) => ({ ...s, loading: true }));
    api.get<T>(path, JSON.parse(key) as Query).then(
      (data) => current && setState({ data, loading: false }),
      (error: unknown) => current && setState({ error: asProblem(error), loading: false }),
    );
    return () => {
      current = false;
    };
  }, [path, key, round]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  return { ...state, reload };
}

export function asProblem(error: unknown): ApiProblem {
  return error instanceof ApiProblem ? error : new ApiProblem(0, 'CONSOLE_ERROR', error instanceof Error ? error.message : String(error));
}
