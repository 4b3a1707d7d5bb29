import { useCallback, useEffect, useState } from 'react';
import { DataTable } from '../../components/data-table';
import { api, ApiProblem, Page } from '../../api/client';
import { Amount, Id, Status, Time } from '../../components/format';
import { Loading, ProblemNotice } from '../../components/problem';
import { asProblem } from '../../components/use-api';
import type { CardTransaction } from '@payments/contracts';
export type { CardTransaction };

/** Rows read per request, and requests per scan (the most the API pages, a few pages at a time). */
const PAGE = 100;
const PAGES_PER_SCAN = 3;

/**
 * A card's transactions. GET /transactions has no card filter (type CARD lists every card's), so the console reads
 * pages of CARD transactions, newest first, and keeps the card's; "Look further" reads the next pages.
 */
export function useCardTransactions(cardId: string) {
  const [rows, setRows] = useState<CardTransaction[]>([]);
  const [cursor, setCursor] = useState<string>();
  const [exhausted, setExhausted] = useState(false);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<ApiProblem>();
  const [round, setRound] = useState(0);

  const scan = useCallback(
    async (from: string | undefined, keep: CardTransaction[]) => {
      setLoading(true);
      setError(undefined);
      try {
        let next = from;
        let found = keep;
        let more = true;
        for (let i = 0; i < PAGES_PER_SCAN && more; i++) {
          const page = await api.get<Page<CardTransaction>>('/transactions', { type: 'CARD', limit: PAGE, cursor: next });
          found = [...found, ...page.data.filter((t) => t.cardId === cardId)];
          more = !!page.hasMore && !!page.nextCursor;
          next = page.nextCursor;
        }
        setRows(found);
        setCursor(more ? next : undefined);
        setExhausted(!more);
      } catch (e) {
        setError(asProblem(e));
      } finally {
        setLoading(false);
      }
    },
    [cardId],
  );

  useEffect(() => {
    void scan(undefined, []);
  }, [scan, round]);

  return {
    rows,
    error,
    loading,
    exhausted,
    reload: useCallback(() => setRound((r) => r + 1), []),
    lookFurther: () => void scan(cursor, rows),
  };
}

/** Finds the card transaction a simulated message opened or changed, by the issuer token the simulator answered. */
export async function cardTransactionByToken(token: string, attempts = 12, delayMs = 700): Promise<CardTransaction | undefined> {
  for (let i = 0; i < attempts; i++) {
    const page = await api.get<Page<CardTransaction>>('/transactions', { type: 'CARD', limit: PAGE });
    const found = page.data.find((t) => t.issuerTransactionToken === token);
    if (found) return found;
    await new Promise((r) => setTimeout(r, delayMs));
  }
  return undefined;
}

export function CardTransactionsTable({ list }: { list: ReturnType<typeof useCardTransactions> }) {
  return (
    <>
      <ProblemNotice problem={list.error} />
      {list.loading && list.rows.length === 0 && <Loading what="card transactions" />}
      <p>
        <small>Newest first. A simulated message shows here a moment after the simulator answers.</small>
      </p>
      <DataTable
        rows={list.rows}
        label="Card transactions"
        empty={list.loading ? '' : `No card transactions ${list.exhausted ? 'yet' : 'among the latest ones read'}.`}
        columns={[
          { label: 'Card transaction', cell: (t) => <Id value={t.id} to={`/transactions/${encodeURIComponent(t.id)}`} /> },
          {
            label: 'Status',
            cell: (t) => (
              <>
                <Status value={t.status} />
                {t.closedReason ? <small> {t.closedReason}</small> : null}
              </>
            ),
          },
          { label: 'Direction', field: 'direction' },
          { label: 'Merchant', cell: (t) => t.merchant?.descriptor },
          { label: 'Authorized', cell: (t) => <Amount value={t.authorizedAmount} /> },
          { label: 'Settled', cell: (t) => <Amount value={t.settledAmount} /> },
          { label: 'Refunded', cell: (t) => <Amount value={t.refundedAmount} /> },
          { label: 'Pulls pending', cell: (t) => t.pullSummary?.pendingCount ?? 0 },
          { label: 'Funding account', cell: (t) => <Id value={t.accountId} /> },
          { label: 'Authorized at', cell: (t) => <Time iso={t.authorizedAt} /> },
        ]}
      />
      <nav className="pager" aria-label="Card transactions">
        <span>{list.rows.length} card transactions found</span>
        {!list.exhausted && (
          <button type="button" className="secondary" onClick={list.lookFurther} aria-busy={list.loading} disabled={list.loading}>
            Look further
          </button>
        )}
        <button type="button" className="secondary" onClick={list.reload} aria-busy={list.loading}>
          Refresh
        </button>
      </nav>
    </>
  );
}
