import { useId } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { Page, Query } from '../api/client';
import { readListState, withFilter, writeListState } from '../lib/list-state';
import { Column, DataTable } from './data-table';
import { Loading, ProblemNotice } from './problem';
import { useApi } from './use-api';


export type { Column };

export interface Filter {
  name: string;
  label: string;
  /** A choice among values, or free text. */
  options?: readonly string[];
  placeholder?: string;
}

interface ListViewProps<T> {
  /** The API path listed (under the signed-in API). */
  path: string;
  columns: Column<T>[];
  filters?: Filter[];
  /** Query parameters this view always sends (e.g. a customer's id), not shown as filters. */
  fixed?: Query;
  /** What to call the rows in messages ("customers"). */
  noun: string;
  rowKey?: (row: T, index: number) => string;
  pageSize?: number;
  /** Whether this list's URL state is the page's (a detail page's sub-lists keep theirs out of the URL). */
  inUrl?: boolean;
  caption?: string;
  /** False for the API's few lists that take no limit or cursor (they answer everything at once). */
  paged?: boolean;
}

/**
 * A list of the API, one page at a time with its cursors: filters and cursor are in the URL (Back is the previous
 * page); a change of filter starts at the first page. Lists the API answers without paging (a bare array) show whole.
 */
export function ListView<T extends object>({ path, columns, filters = [], fixed, noun, rowKey, pageSize = 20, inUrl = true, caption, paged = true }: ListViewProps<T>) {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const state = readListState(inUrl ? search : '', filters.map((f) => f.name));
  const loaded = useApi<Page<T> | T[]>(path, paged ? { ...fixed, ...state.filters, cursor: state.cursor, limit: pageSize } : { ...fixed, ...state.filters });
  const go = (next: ReturnType<typeof readListState>) => navigate(`${location}${writeListState(next)}`);
  const formId = useId();
  const page: Page<T> | undefined = Array.isArray(loaded.data) ? { data: loaded.data } : loaded.data;
  return (
    <section>
      {filters.length > 0 && inUrl && (
        <form
          className="filters"
          role="search"
          aria-label={`Filter ${noun}`}
          onSubmit={(e) => {
            e.preventDefault();
            const data = new FormData(e.currentTarget);
            let next = { filters: {} } as ReturnType<typeof readListState>;
            for (const f of filters) next = withFilter(next, f.name, String(data.get(f.name) ?? '').trim());
            go(next);
          }}
        >
          {filters.map((f) => (
            <label key={f.name} htmlFor={`${formId}-${f.name}`}>
              {f.label}
              {f.options ? (
                <select id={`${formId}-${f.name}`} name={f.name} defaultValue={state.filters[f.name] ?? ''}>
                  <option value="">any</option>
                  {f.options.map((o) => (
                    <option key={o} value={o}>
                      {o}
                    </option>
                  ))}
                </select>
              ) : (
                <input id={`${formId}-${f.name}`} name={f.name} defaultValue={state.filters[f.name] ?? ''} placeholder={f.placeholder} />
              )}
            </label>
          ))}
          <button type="submit">Apply</button>
          {Object.keys(state.filters).length > 0 && (
            <button type="button" className="secondary" onClick={() => go({ filters: {} })}>
              Clear
            </button>
          )}
        </form>
      )}
      <ProblemNotice problem={loaded.error} />
      {loaded.loading && !page && <Loading what={noun} />}
      {page && (
        <>
          <DataTable
            rows={page.data}
            columns={columns}
            label={caption ?? noun}
            caption={caption}
            rowKey={rowKey}
            empty={`No ${noun}${Object.keys(state.filters).length > 0 ? ' match these filters' : ' yet'}.`}
          />
          <nav className="pager" aria-label={`Pages of ${noun}`}>
            <span>
              {page.totalCount !== undefined ? `${page.totalCount} ${noun}` : `${page.data.length} ${noun}`}
              {state.cursor ? ' (a later page)' : ''}
            </span>
            {state.cursor && inUrl && (
              <button type="button" className="secondary" onClick={() => go({ filters: state.filters })}>
                First page
              </button>
            )}
            {page.hasMore && page.nextCursor && inUrl && (
              <button type="button" onClick={() => go({ filters: state.filters, cursor: page.nextCursor })}>
                Next page
              </button>
            )}
            <button type="button" className="secondary" onClick={loaded.reload} aria-busy={loaded.loading}>
              Refresh
            </button>
          </nav>
        </>
      )}
    </section>
  );
}
