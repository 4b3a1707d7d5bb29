import type { ReactNode } from 'react';

/**
 * A wide table's horizontal scroller: a named region that takes focus, so a keyboard can scroll it (axe's
 * scrollable-region-focusable) and a screen reader can name it.
 */
export function ScrollTable({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
