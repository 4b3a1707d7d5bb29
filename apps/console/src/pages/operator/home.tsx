import { Link } from 'wouter';
import type { Page } from '../../api/client';
import { Time } from '../../components/format';
import { Loading, ProblemNotice } from '../../components/problem';
import { Loaded, useApi } from '../../components/use-api';
import { LatestLedgerCheck, LedgerRunResult } from './ledger-checks';

/** What waits for operators, each a card linking to its queue, and the latest ledger check. */
export function OperatorHomePage() {
  const kyc = useApi<Page<unknown>>('/kyc-reviews', { limit: 1 });
  const accounts = useApi<Page<unknown>>('/external-account-reviews', { limit: 1 });
  const exceptions = useApi<Page<unknown>>('/rails/exceptions', { status: 'OPEN', limit: 1 });
  return (
    <>
      <h1>Overview</h1>
      <section aria-labelledby="waiting-heading">
        <h2 id="waiting-heading">What waits</h2>
        <div className="cards-row">
          <CountCard title="KYC/KYB reviews pending" loaded={kyc} to="/kyc-reviews" linkText="Open the review queue" />
          <CountCard title="External account reviews pending" loaded={accounts} to="/account-reviews" linkText="Open the account queue" />
          <CountCard title="Open rail exceptions" loaded={exceptions} to="/rails/exceptions?status=OPEN" linkText="Open the exceptions" />
        </div>
      </section>
      <LatestLedgerCheckCard />
    </>
  );
}

function CountCard({ title, loaded, to, linkText }: { title: string; loaded: Loaded<Page<unknown>>; to: string; linkText: string }) {
  const count = loaded.data ? (loaded.data.totalCount ?? loaded.data.data.length) : undefined;
  return (
    <article>
      <header>{title}</header>
      {loaded.error ? (
        <ProblemNotice problem={loaded.error} />
      ) : count === undefined ? (
        <Loading what="the count" />
      ) : (
        <p>
          <strong className="count">{count}</strong>
          {loaded.data?.hasMore && loaded.data.totalCount === undefined ? '+' : ''}
        </p>
      )}
      <footer>
        <Link href={to}>{linkText}</Link>
      </footer>
    </article>
  );
}

function LatestLedgerCheckCard() {
  return (
    <section aria-labelledby="ledger-heading">
      <h2 id="ledger-heading">Latest ledger check</h2>
      <LatestLedgerCheck what="the ledger check">
        {(last) => (
          <article>
            <p>
              <LedgerRunResult run={last} /> Finished <Time iso={last.finishedAt} />, {last.accountsChecked} accounts checked.
            </p>
            <Link href="/ledger-checks">Every run</Link>
          </article>
        )}
      </LatestLedgerCheck>
    </section>
  );
}
