import { Link } from 'wouter';
import { api } from '../../api/client';
import { ActionForm } from '../../components/action-form';
import { Id, KeyValues, Time } from '../../components/format';
import { ListView } from '../../components/list-view';
import { useApi } from '../../components/use-api';
import { LoadedView } from '../../components/loaded-view';
import { useRouteParam } from '../../components/route-param';
import { ApproveReject, DecideSection } from './decide';
import { PLATFORM_FILTER, RoleGate, seg, useOperatorRole } from './shared';
import { DataTable } from '../../components/data-table';
import { ACCOUNT_VERIFICATION_METHODS, AccountVerificationMethodList, AccountVerificationMethodView, ExternalAccountReview } from './types';

/** Production external accounts waiting for an operator's decision (or, filtered, for their payout rail). */
export function AccountReviewsPage() {
  return (
    <>
      <h1>External account verification</h1>
      <p>
        Production external accounts whose currency is verified by OPERATOR_APPROVAL wait here, oldest first. Choose PAYOUT_RAIL to see those
        waiting for their rail (they cannot be decided here). <Link href="/verification-methods">Methods per currency</Link>
      </p>
      <ListView<ExternalAccountReview>
        path="/external-account-reviews"
        noun="accounts"
        filters={[
          PLATFORM_FILTER,
          { name: 'currency', label: 'Currency', placeholder: 'USD' },
          { name: 'verificationMethod', label: 'Verified by', options: ACCOUNT_VERIFICATION_METHODS },
        ]}
        columns={[
          { label: 'Created', field: 'createdAt' },
          { label: 'Account', cell: (r) => <Id value={r.id} to={`/account-reviews/${r.id}`} /> },
          { label: 'Currency', field: 'currency' },
          { label: 'Status', field: 'status' },
          { label: 'Verified by', field: 'verificationMethod' },
          { label: 'Name check', field: 'beneficiaryVerificationStatus' },
          { label: 'Customer', cell: (r) => <Id value={r.customerId} /> },
          { label: 'Platform', cell: (r) => <Id value={r.platformId} /> },
        ]}
      />
    </>
  );
}

const DECIDABLE = ['PENDING', 'UNDER_REVIEW'];

/** One account as its platform sees it, with the beneficiary-name check, and the decision: approve or reject. */
export function AccountReviewDetailPage() {
  const accountId = useRouteParam('accountId');
  const base = `/external-account-reviews/${seg(accountId)}`;
  const loaded = useApi<ExternalAccountReview>(base);
  const role = useOperatorRole();
  return (
    <>
      <h1>External account review</h1>
      <p>
        <Link href="/account-reviews">Back to the queue</Link>
      </p>
      <LoadedView loaded={loaded} what="the account">
        {(review) => (
          <>
            <section aria-labelledby="review-heading">
              <h2 id="review-heading">Review</h2>
              <KeyValues data={review as unknown as Record<string, unknown>} omit={['account']} />
            </section>
            <section aria-labelledby="account-heading">
              <h2 id="account-heading">The account as its platform sees it</h2>
              <KeyValues data={review.account} />
            </section>
            {DECIDABLE.includes(review.status) && review.verificationMethod === 'OPERATOR_APPROVAL' ? (
              <DecideSection role={role} what="Deciding an account">
                <ApproveReject
                  base={base}
                  approveNote="The account becomes ACTIVE and can receive payments; the platform gets EXTERNAL_ACCOUNT.STATUS_UPDATED."
                  rejectNote="The account becomes UNVERIFIED and cannot receive payments. The reason goes to the audit log."
                  rejectConfirm="Reject this external account? It becomes UNVERIFIED and cannot receive payments."
                  onDecided={loaded.reload}
                />
              </DecideSection>
            ) : (
              <p>
                {review.verificationMethod === 'PAYOUT_RAIL' && DECIDABLE.includes(review.status)
                  ? 'This account waits for its payout rail to verify it; it cannot be decided here.'
                  : `This account is ${review.status}: nothing waits for a decision.`}
              </p>
            )}
          </>
        )}
      </LoadedView>
    </>
  );
}

/** How new production external accounts are verified, per currency; an ADMIN sets it. */
export function VerificationMethodsPage() {
  const loaded = useApi<AccountVerificationMethodList>('/account-verification-methods');
  const role = useOperatorRole();
  return (
    <>
      <h1>Account verification methods</h1>
      <p>
        OPERATOR_APPROVAL: new production accounts in the currency wait in the <Link href="/account-reviews">operator queue</Link>. PAYOUT_RAIL: the
        rail that pays them out verifies them (an ACH prenote). A change applies to accounts created from now on.
      </p>
      <LoadedView loaded={loaded} what="the methods">
        {(list) => (
          <>
            <p>
              A currency never configured gets <strong>{list.defaultMethod}</strong>.
            </p>
            <DataTable
              rows={list.data}
              label="Verification methods per currency (table)"
              empty=""
              rowKey={(m) => m.currency}
              columns={[
                { label: 'Currency', cell: (m) => m.currency },
                { label: 'Method', cell: (m) => m.method },
                { label: 'Configured', cell: (m) => (m.configured ? 'yes' : 'no (default)') },
                { label: 'Last set', cell: (m) => (m.updatedAt ? <Time iso={m.updatedAt} /> : '—') },
                { label: 'By', cell: (m) => m.updatedBy?.name ?? '—' },
              ]}
            />
            <section aria-labelledby="set-method-heading">
              <h2 id="set-method-heading">Set a currency's method</h2>
              <RoleGate role={role} needed="ADMIN" what="Setting a verification method">
                <ActionForm
                  submitLabel="Set method"
                  fields={[
                    { name: 'currency', label: 'Currency', type: 'select', required: true, options: list.data.map((m) => m.currency) },
                    { name: 'method', label: 'Method', type: 'select', required: true, options: ACCOUNT_VERIFICATION_METHODS },
                  ]}
                  onSubmit={async (v) => {
                    const answer = await api.put<AccountVerificationMethodView>(`/account-verification-methods/${seg(String(v.currency))}`, { method: v.method });
                    loaded.reload();
                    return answer;
                  }}
                  done={(r) => {
                    const m = r as AccountVerificationMethodView;
                    return `${m.currency} accounts created from now on are verified by ${m.method}.`;
                  }}
                />
              </RoleGate>
            </section>
          </>
        )}
      </LoadedView>
    </>
  );
}

