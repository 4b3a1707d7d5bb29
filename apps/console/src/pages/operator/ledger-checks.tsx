import type { ReactNode } from 'react';
import type { Page } from '../../api/client';
import { Status } from '../../components/format';
import { ListView } from '../../components/list-view';
import { Loading, ProblemNotice } from '../../components/problem';
import { useApi } from '../../components/use-api';
import type { LedgerCheckRun } from './types';

/**
 * The latest ledger:check run, read first (GET /ledger-checks?limit=1): a deployment without the route (404) or
 * without a run gets a sentence, not an empty table; with a run, the view of it.
 */
export function LatestLedgerCheck({ what, children }: { what: string; children: (last: LedgerCheckRun) => ReactNode }) {
  const loaded = useApi<Page<LedgerCheckRun>>('/ledger-checks', { limit: 1 });
  const last = loaded.data?.data[0];
  if (loaded.error?.status === 404) return <p>This deployment does not report ledger checks yet (GET /ledger-checks is not there).</p>;
  if (loaded.error) return <ProblemNotice problem={loaded.error} />;
  if (!loaded.data) return <Loading what={what} />;
  if (!last)
    return (
      <p>
        Never run — run <code>npm run admin -- ledger:check</code> on a schedule.
      </p>
    );
  return <>{children(last)}</>;
}

/** A run's outcome: OK, or how many violations of which rules. */
export function LedgerRunResult({ run }: { run: LedgerCheckRun }) {
  if (run.violations === 0) return <Status value="OK" />;
  return (
    <>
      <Status value="VIOLATIONS" /> {run.violations} violation{run.violations === 1 ? '' : 's'}
      {run.rules.length > 0 ? ` (${run.rules.join(', ')})` : ''}.
    </>
  );
}

/** The ledger:check runs, newest first: each ok, or its violations and the rules they broke. */
export function LedgerChecksPage() {
  return (
    <>
      <h1>Ledger checks</h1>
      <p>
        <code>npm run admin -- ledger:check</code> folds every ledger account and checks the ledger's invariants (balanced entries and currencies,
        balances equal to postings and events, no overdraft, card transactions equal to their postings). Run it on a schedule; a run with
        violations needs an operator now.
      </p>
      <LatestLedgerCheck what="ledger checks">
        {() => (
          <ListView<LedgerCheckRun>
            path="/ledger-checks"
            noun="runs"
            rowKey={(r) => String(r.runId)}
            columns={[
              { label: 'Finished', field: 'finishedAt' },
              { label: 'Result', cell: (r) => (r.violations === 0 ? <Status value="OK" /> : <Status value="VIOLATIONS" />) },
              { label: 'Accounts checked', field: 'accountsChecked' },
              { label: 'Violations', field: 'violations' },
              { label: 'Rules broken', cell: (r) => (r.rules.length ? r.rules.join(', ') : '—') },
              { label: 'Run', cell: (r) => <code>{String(r.runId)}</code> },
            ]}
          />
        )}
      </LatestLedgerCheck>
    </>
  );
}
