import { Link } from 'wouter';
import { api } from '../../api/client';
import { Id, KeyValues, Status, Time } from '../../components/format';
import { ListView } from '../../components/list-view';
import { useApi } from '../../components/use-api';
import { LoadedView } from '../../components/loaded-view';
import { useRouteParam } from '../../components/route-param';
import { RequestChangesForm } from './kyc-request-changes';
import { ApproveReject, DecideSection, reloadingAfter } from './decide';
import { PLATFORM_FILTER, seg, useOperatorRole } from './shared';
import { DataTable } from '../../components/data-table';
import { CUSTOMER_TYPES } from '../../lib/values';
import { KYC_REVIEW_STATUSES, KycDocument, KycReview, KycReviewStatus, VerificationError } from './types';

const WAITING: readonly KycReviewStatus[] = ['AWAITING_REVIEW', 'AWAITING_SECOND_APPROVAL'];

/** The customer's name as a reviewer reads it: a business's legal name, a person's full name. */
function customerName(review: KycReview): string {
  return review.customer.businessInfo?.legalName ?? review.customer.fullName ?? review.customer.platformCustomerId ?? review.customer.id;
}

/** The queue of production KYC/KYB submissions: what waits for a reviewer unless a status is chosen. */
export function KycReviewsPage() {
  return (
    <>
      <h1>KYC/KYB reviews</h1>
      <p>Production submissions wait here for a reviewer, oldest first. Without a status filter: those awaiting a review or a second approval.</p>
      <ListView<KycReview>
        path="/kyc-reviews"
        noun="reviews"
        rowKey={(r) => r.verificationId}
        filters={[
          { name: 'reviewStatus', label: 'Review status', options: KYC_REVIEW_STATUSES },
          PLATFORM_FILTER,
          { name: 'customerType', label: 'Customer type', options: CUSTOMER_TYPES },
        ]}
        columns={[
          { label: 'Submitted', field: 'submittedAt' },
          { label: 'Verification', cell: (r) => <Id value={r.verificationId} to={`/kyc-reviews/${r.verificationId}`} /> },
          { label: 'Customer', cell: customerName },
          { label: 'Type', field: 'customerType' },
          { label: 'Review status', field: 'reviewStatus' },
          { label: 'Approvals', cell: (r) => `${r.approvals.length} of ${r.approvalsRequired}` },
          { label: 'Attempt', field: 'attempt' },
          { label: 'Platform', cell: (r) => <Id value={r.platformId} /> },
        ]}
      />
    </>
  );
}

/** One submission: who the customer is, what they handed over, the approvals so far, and the reviewer's decision. */
export function KycReviewDetailPage() {
  const verificationId = useRouteParam('verificationId');
  const loaded = useApi<KycReview>(`/kyc-reviews/${seg(verificationId)}`);
  const role = useOperatorRole();
  return (
    <>
      <h1>KYC/KYB review</h1>
      <p>
        <Link href="/kyc-reviews">Back to the queue</Link>
      </p>
      <LoadedView loaded={loaded} what="the review">
        {(review) => (
          <>
            <ReviewSummary review={review} />
            <section aria-labelledby="customer-heading">
              <h2 id="customer-heading">Customer: {customerName(review)}</h2>
              <KeyValues data={review.customer} />
            </section>
            {review.beneficialOwners.length > 0 && (
              <section aria-labelledby="owners-heading">
                <h2 id="owners-heading">Beneficial owners</h2>
                {review.beneficialOwners.map((o) => (
                  <article key={o.id}>
                    <header>
                      <strong>
                        {[o.personalInfo.firstName, o.personalInfo.lastName].filter(Boolean).join(' ') || o.id}
                      </strong>{' '}
                      <Status value={o.kycStatus} />
                    </header>
                    <KeyValues data={{ id: o.id, roles: o.roles.join(', '), ownershipPercentage: `${o.ownershipPercentage}%`, ...o.personalInfo }} />
                  </article>
                ))}
              </section>
            )}
            <Documents review={review} />
            <Approvals review={review} />
            {review.decision && (
              <section aria-labelledby="decision-heading">
                <h2 id="decision-heading">Decision</h2>
                <KeyValues
                  data={{ outcome: review.decision.outcome, decidedBy: review.decision.operatorName, decidedAt: review.decision.decidedAt, reason: review.decision.reason }}
                />
                {review.decision.errors.length > 0 && <ErrorsTable errors={review.decision.errors} caption="What the platform sees" />}
              </section>
            )}
            {WAITING.includes(review.reviewStatus) ? (
              <DecideSection role={role} what="Deciding a review">
                <Decide review={review} onDecided={loaded.reload} />
              </DecideSection>
            ) : review.reviewStatus === 'CHANGES_REQUESTED' ? (
              <p>Changes were requested: the review waits for the platform to submit again (it then comes back to the queue with no approvals).</p>
            ) : null}
          </>
        )}
      </LoadedView>
    </>
  );
}

function ReviewSummary({ review }: { review: KycReview }) {
  return (
    <section aria-labelledby="summary-heading">
      <h2 id="summary-heading">Submission</h2>
      {review.reviewStatus === 'AWAITING_SECOND_APPROVAL' && (
        <p role="status" className="four-eyes">
          <strong>One approval recorded; another reviewer must approve.</strong> ({review.approvals.length} of {review.approvalsRequired} approvals)
        </p>
      )}
      <KeyValues
        data={{
          verificationId: review.verificationId,
          reviewStatus: review.reviewStatus,
          verificationStatus: review.verification.verificationStatus,
          customerType: review.customerType,
          platformId: review.platformId,
          attempt: review.attempt,
          approvals: `${review.approvals.length} of ${review.approvalsRequired}`,
          submittedAt: review.submittedAt,
        }}
      />
      {review.verification.errors.length > 0 && <ErrorsTable errors={review.verification.errors} caption="The verification's errors" />}
    </section>
  );
}

function Documents({ review }: { review: KycReview }) {
  const holder = (d: KycDocument) => (d.documentHolder === review.customer.id ? 'the customer' : d.documentHolder);
  return (
    <section aria-labelledby="documents-heading">
      <h2 id="documents-heading">Documents</h2>
      <DataTable
        rows={review.documents}
        label="Documents (table)"
        empty="No documents were handed over with this submission."
        columns={[
          { label: 'Type', cell: (d) => `${d.documentType}${d.side ? ` (${d.side})` : ''}` },
          { label: 'Holder', cell: holder },
          { label: 'Country', cell: (d) => d.country },
          { label: 'Number', cell: (d) => d.documentNumber ?? '—' },
          {
            label: 'File',
            cell: (d) => (
              <>
                <a href={`/console/api/kyc-reviews/${seg(review.verificationId)}/documents/${seg(d.id)}/file`} download={d.fileName}>
                  Download {d.fileName}
                </a>{' '}
                <small>({d.contentType})</small>
              </>
            ),
          },
          { label: 'Size', cell: (d) => `${Math.ceil(d.sizeBytes / 1024)} KiB` },
          { label: 'Uploaded', cell: (d) => <Time iso={d.createdAt} /> },
        ]}
      />
      <p>
        <small>Downloads need the REVIEWER role; each one is recorded in the audit log.</small>
      </p>
    </section>
  );
}

function Approvals({ review }: { review: KycReview }) {
  return (
    <section aria-labelledby="approvals-heading">
      <h2 id="approvals-heading">
        Approvals ({review.approvals.length} of {review.approvalsRequired})
      </h2>
      {review.approvals.length === 0 ? (
        <p>No approval recorded for this submission.</p>
      ) : (
        <ul className="timeline">
          {review.approvals.map((a) => (
            <li key={`${a.operatorId}-${a.approvedAt}`}>
              <Time iso={a.approvedAt} />: approved by <strong>{a.operatorName}</strong> <code className="id">{a.operatorId}</code>
              {a.reason ? ` — ${a.reason}` : ''}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function ErrorsTable({ errors, caption }: { errors: VerificationError[]; caption: string }) {
  return (
    <DataTable
      rows={errors}
      label={caption}
      caption={caption}
      empty=""
      rowKey={(_, i) => String(i)}
      columns={[
        { label: 'Resource', cell: (e) => <code className="id">{e.resourceId}</code> },
        { label: 'Type', cell: (e) => e.type },
        { label: 'Field', cell: (e) => e.field ?? '—' },
        { label: 'Accepted documents', cell: (e) => e.acceptedDocumentTypes?.join(', ') ?? '—' },
        { label: 'Reason', cell: (e) => e.reason },
      ]}
    />
  );
}

/** Approve, reject or ask for changes; each decision reloads the review. */
function Decide({ review, onDecided }: { review: KycReview; onDecided: () => void }) {
  const base = `/kyc-reviews/${seg(review.verificationId)}`;
  return (
    <>
      <ApproveReject
        base={base}
        approveNote={
          review.approvalsRequired > 1 && review.approvals.length + 1 < review.approvalsRequired
            ? `Records your approval; ${review.approvalsRequired} approvals by different reviewers decide it.`
            : review.approvals.length > 0
              ? 'Your approval decides it: the customer becomes APPROVED. It must come from another reviewer than the first.'
              : 'Your approval decides it: the customer becomes APPROVED.'
        }
        rejectNote="Decides at once: the verification and the customer become REJECTED. Your reason stays with operators (the audit log)."
        rejectConfirm="Reject this submission? The customer becomes REJECTED; this cannot be undone here."
        onDecided={onDecided}
      />
      <article>
        <header>
          <h3>Request changes</h3>
        </header>
        <p>The verification becomes RESOLVE_ERRORS with the changes below; the platform fixes them and submits again.</p>
        <RequestChangesForm review={review} onSubmit={(body) => reloadingAfter(onDecided)(api.post(`${base}/request-changes`, body))} />
      </article>
    </>
  );
}
