import type { Page } from '../../api/client';
import { Status } from '../../components/format';
import { ListView } from '../../components/list-view';
import { Loading, ProblemNotice } from '../../components/problem';
import { useApi } from '../../components/use-api';
import type { LedgerCheckRun } from './types';

export const NEVER_RUN = (
  <>
    Never run — run <code>npm run admin -- ledger:check</code> on a schedule.
  </>
);

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
  // One probe first: a deployment without the route (404) or without a run gets a sentence, not an empty table.
  const probe = useApi<Page<LedgerCheckRun>>('/ledger-checks', { limit: 1 });
  return (
    <>
      <h1>Ledger checks</h1>
      <p>
        <code>npm run admin -- ledger:check</code> folds every ledger account and checks the ledger's invariants (balanced entries and currencies,
        balances equal to postings and events, no overdraft, card transactions equal to their postings). Run it on a schedule; a run with
        violations needs an operator now.
      </p>
      {probe.error?.status === 404 ? (
        <p>This deployment does not report ledger checks yet (GET /ledger-checks is not there).</p>
      ) : probe.error ? (
        <ProblemNotice problem={probe.error} />
      ) : !probe.data ? (
        <Loading what="ledger checks" />
      ) : probe.data.data.length === 0 ? (
        <p>{NEVER_RUN}</p>
      ) : (
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
    </>
  );
}
