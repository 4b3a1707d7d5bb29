/**
 * A list's filters and cursor live in the page's URL, so a filtered page can be bookmarked, shared and reloaded, and
 * the browser's Back returns to the previous page of results.
 */
export interface ListState {
  filters: Record<string, string>;
  cursor?: string;
}

export function readListState(search: string, filterNames: readonly string[]): ListState {
  const params = new URLSearchParams(search);
  const filters: Record<string, string> = {};
  for (const name of filterNames) {
    const value = params.get(name);
    if (value) filters[name] = value;
  }
  const cursor = params.get('cursor') ?? undefined;
  return { filters, ...(cursor ? { cursor } : {}) };
}

/** The query string of a state; a change of filters starts again at the first page (no cursor). */
export function writeListState(state: ListState): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(state.filters).sort(([a], [b]) => a.localeCompare(b))) if (value) params.set(name, value);
  if (state.cursor) params.set('cursor', state.cursor);
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function withFilter(state: ListState, name: string, value: string): ListState {
  const filters = { ...state.filters };
  if (value) filters[name] = value;
  else delete filters[name];
  return { filters };
}
