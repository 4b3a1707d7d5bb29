import type { ReactNode } from 'react';
import { Loading, ProblemNotice } from './problem';
import type { Loaded } from './use-api';

interface LoadedViewProps<T> {
  loaded: Loaded<T>;
  /** What is shown: what the GET answered, or a fresher answer the page kept (a write's). */
  data?: T;
  /** What is loading, for "Loading …". */
  what: string;
  children: (data: T) => ReactNode;
}

/** What a GET answered: the API's error in its words, "Loading…" until it answered, then the page's view of it. */
export function LoadedView<T>({ loaded, data = loaded.data, what, children }: LoadedViewProps<T>) {
  return (
    <>
      <ProblemNotice problem={loaded.error} />
      {!data && !loaded.error && <Loading what={what} />}
      {data && children(data)}
    </>
  );
}
