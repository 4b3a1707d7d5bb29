import type { ReactNode } from 'react';
import { Value } from './format';
import { ScrollTable } from './scroll-table';

export interface Column<T> {
  label: string;
  /** A field of the row (drawn by its kind: amounts, times, statuses…), or a cell of its own. */
  field?: keyof T & string;
  cell?: (row: T) => ReactNode;
}

interface DataTableProps<T> {
  rows: readonly T[];
  columns: Column<T>[];
  /** Names the scrollable region. */
  label: string;
  /** The table's visible caption, when it has one. */
  caption?: string;
  /** What an empty table says (nothing while its rows are still being read: ''). */
  empty: string;
  rowKey?: (row: T, index: number) => string;
}

/** Rows of a resource as a table: one header per column, each cell drawn by its field's kind or its own function. */
export function DataTable<T extends object>({ rows, columns, label, caption, empty, rowKey }: DataTableProps<T>) {
  return (
    <ScrollTable label={label}>
      <table className="striped">
        {caption && <caption>{caption}</caption>}
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.label} scope="col">
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && empty && (
            <tr>
              <td colSpan={columns.length}>{empty}</td>
            </tr>
          )}
          {rows.map((row, i) => (
            <tr key={rowKey ? rowKey(row, i) : ((row as { id?: string }).id ?? String(i))}>
              {columns.map((c) => (
                <td key={c.label}>{c.cell ? c.cell(row) : c.field ? <Value name={c.field} value={row[c.field]} /> : null}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollTable>
  );
}
