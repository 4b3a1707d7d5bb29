import { ClaimInvitationRequest, CreateInvitationRequest, SandboxUmaReceiveRequest } from '../invitations';
import { InvitationsRpc } from '../invitations/invitations.rpc';
import { PaymentsRpc } from '../rpc';
import { ApprovePaymentRequest, ListTransactionsQuery, RejectPaymentRequest, SandboxSendRequest, TransferInRequest, TransferOutRequest } from '../transactions';
import { TransactionApprovalsRpc } from '../transactions/transaction-approvals.rpc';
import { operation } from './http-operation';

const OUT =
  'Pays out from an internal account to an ACTIVE external account of the same currency (else 400 CURRENCY_MISMATCH). ' +
  'The amount is held at once: without enough available balance the transaction is created FAILED with failureReason ' +
  'INSUFFICIENT_FUNDS (still 201). The rail then settles it (COMPLETED) or fails it and releases the hold. Production: ' +
  "the rail connector routed for the currency (501 NOT_IMPLEMENTED when none is), and only for a customer whose " +
  'kycStatus (kybStatus) is APPROVED: otherwise 403 USER_NOT_READY and nothing is recorded. Send an Idempotency-Key to retry safely.';
const IN =
  'Pulls funds from a pull-capable (ACH) external account into an internal account of the same currency: PENDING until ' +
  'the pull settles (COMPLETED, credited) or fails. Production: the pull rail connector (501 NOT_IMPLEMENTED when none ' +
  'is), and only into the account of a customer whose kycStatus (kybStatus) is APPROVED: otherwise 403 USER_NOT_READY, nothing recorded.';
const SEND =
  "Sandbox: simulates the arrival of the funds of a realtime-funding quote (`currencyAmount` defaults to the quote's " +
  "totalSendingAmount). Answers the quote's transaction, PROCESSING, which then completes or fails by the destination's " +
  'sandbox suffix. Production credentials get 404.';
const APPROVAL =
  "An incoming UMA payment waits PENDING for the platform's answer to its INCOMING_PAYMENT.PENDING webhook. " +
  'In the sandbox the window is 5 s (× SANDBOX_TIME_SCALE) from its creation; a window that ends unanswered approves it. ' +
  'Any other transaction, or one already approved or rejected, is 409 TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL.';
const INVITE =
  "Invites someone to UMA on behalf of one of the platform's customers, named by `inviterUma` (its UMA address; 400 " +
  'INVALID_UMA_ADDRESS when malformed, 404 USER_NOT_FOUND when no customer of this platform has it). `amountToSend` is ' +
  "in the smallest unit of `currency` (one of the inviter's currencies, default its first; else 400 INVALID_CURRENCY). " +
  '`expiresAt` defaults to 30 days, must be in the future and within 365 days; the invitation turns EXPIRED then. ' +
  'Answers the PENDING invitation with its unguessable `code` and shareable `url`.';
const SHARED =
  "Invitation codes are shared with the invitee's platform: any platform of the same mode (sandbox or production) " +
  'can read and claim by code; the other mode, or an unknown code, is 404 INVITATION_NOT_FOUND.';
const CLAIM =
  `${SHARED} Associates the invitee's UMA address with a PENDING invitation and sends INVITATION_CLAIMED to the ` +
  'platform that created it. 400 INVITATION_ALREADY_CLAIMED, INVITATION_CANCELLED or INVITATION_EXPIRED otherwise; ' +
  '400 SELF_PAYMENT when the invitee is the inviter; 400 INVALID_UMA_ADDRESS for a malformed address.';
const CANCEL =
  'Cancels a PENDING invitation. Only the platform that created it may (another platform of the mode: 403 FORBIDDEN; ' +
  'the other mode: 404). A claimed, cancelled or expired invitation: 400 INVITATION_ALREADY_CLAIMED, ' +
  'INVITATION_CANCELLED or INVITATION_EXPIRED.';
const RECEIVE =
  "Sandbox: a UMA payment from `senderUmaAddress` arrives for one of the platform's customers, named by " +
  '`receiverUmaAddress` (404 UMA_NOT_FOUND when no customer has it) or by `customerId` (404 USER_NOT_FOUND): exactly ' +
  "one of the two. It credits the customer's internal account in `receivingCurrencyCode` (400 INVALID_CURRENCY when " +
  'the customer has none) with `receivingCurrencyAmount` (smallest unit). Answers the INCOMING transaction, PENDING; ' +
  'it settles moments later (COMPLETED), with INCOMING_PAYMENT webhooks. Production credentials get 404.';

const LEDGER =
  'Not in the published API. The double-entry postings the ledger holds for the transaction, whole (`hasMore` is always false): ' +
  "its entries and the reversals of them, by creation, then `entryId`, then `accountId`. `amount.amount` keeps the ledger's sign: " +
  'negative debits `accountId`, positive credits it; the legs of an entry sum to zero. Accounts are named as the ledger names them: ' +
  "`InternalAccount:…` for the customer's or the platform's, `SystemAccount:…` for the ledger's own (clearing, FX, fees, suspense, card network). " +
  '`holds` lists the holds placed for it (PENDING, CAPTURED, RELEASED or EXPIRED, with the amount reserved). A transaction with nothing ' +
  "posted yet answers empty lists; another platform's or mode's transaction, or an unknown one, is 404 TRANSACTION_NOT_FOUND. Needs VIEW.";

/** Transfers, transactions and their approval, invitations and the sandbox payment simulators (payments service). */
export const PAYMENT_OPERATIONS = [
  operation({
    operationId: 'createTransferOut',
    method: 'POST',
    path: '/transfer-out',
    tag: 'Same-Currency Transfers',
    summary: 'Transfer to an external account',
    description: OUT,
    permission: 'TRANSACT',
    service: 'payments',
    rpc: PaymentsRpc.transferOut,
    body: TransferOutRequest,
    status: 201,
    response: 'OutgoingTransaction',
    errors: [404, 501],
    request: ({ body }) => body,
  }),
  operation({
    operationId: 'createTransferIn',
    method: 'POST',
    path: '/transfer-in',
    tag: 'Same-Currency Transfers',
    summary: 'Transfer from an external account',
    description: IN,
    permission: 'TRANSACT',
    service: 'payments',
    rpc: PaymentsRpc.transferIn,
    body: TransferInRequest,
    status: 201,
    response: 'IncomingTransaction',
    errors: [404, 501],
    request: ({ body }) => body,
  }),
  operation({
    operationId: 'listTransactions',
    method: 'GET',
    path: '/transactions',
    tag: 'Transactions',
    summary: 'List transactions',
    description: 'INCOMING, OUTGOING and CARD transactions (type filter). Filters combine; `accountId` (or `accountIdentifier`) matches the source or the destination, for a card transaction its funding account; `startDate` ≤ createdAt ≤ `endDate`; newest first unless `sortOrder=asc`. A card transaction appears a moment after the simulator answers (it comes from the cards service over the bus).',
    permission: 'VIEW',
    service: 'payments',
    rpc: PaymentsRpc.listTransactions,
    query: ListTransactionsQuery,
    status: 200,
    response: { page: 'Transaction' },
    request: ({ query }) => query,
  }),
  operation({
    operationId: 'getTransactionById',
    method: 'GET',
    path: '/transactions/{transactionId}',
    tag: 'Transactions',
    summary: 'Get a transaction',
    permission: 'VIEW',
    service: 'payments',
    rpc: PaymentsRpc.getTransaction,
    status: 200,
    response: 'Transaction',
    request: ({ params }) => ({ transactionId: params.transactionId }),
  }),
  operation({
    operationId: 'listTransactionLedgerPostings',
    method: 'GET',
    path: '/transactions/{transactionId}/ledger-postings',
    tag: 'Transactions',
    summary: "List a transaction's ledger postings",
    description: LEDGER,
    permission: 'VIEW',
    service: 'payments',
    rpc: PaymentsRpc.getTransactionLedger,
    status: 200,
    response: 'TransactionLedger',
    request: ({ params }) => ({ transactionId: params.transactionId }),
  }),
  operation({
    operationId: 'approvePendingPayment',
    method: 'POST',
    path: '/transactions/{transactionId}/approve',
    tag: 'Transactions',
    summary: 'Approve a pending incoming payment',
    description: `${APPROVAL} Approval lets the payment settle: it completes moments later (INCOMING_PAYMENT.COMPLETED). The body is optional.`,
    permission: 'TRANSACT',
    service: 'payments',
    rpc: TransactionApprovalsRpc.approve,
    body: ApprovePaymentRequest,
    bodyOptional: true,
    status: 200,
    response: 'IncomingTransaction',
    request: ({ params, body }) => ({ transactionId: params.transactionId, request: body }),
  }),
  operation({
    operationId: 'rejectPendingPayment',
    method: 'POST',
    path: '/transactions/{transactionId}/reject',
    tag: 'Transactions',
    summary: 'Reject a pending incoming payment',
    description: `${APPROVAL} Rejection fails it at once (failureReason COMPLIANCE_REJECTED, failureDetail REJECTED_BY_PLATFORM, the optional \`reason\` kept as rejectionReason); nothing is credited.`,
    permission: 'TRANSACT',
    service: 'payments',
    rpc: TransactionApprovalsRpc.reject,
    body: RejectPaymentRequest,
    bodyOptional: true,
    status: 200,
    response: 'IncomingTransaction',
    request: ({ params, body }) => ({ transactionId: params.transactionId, request: body }),
  }),
  operation({
    operationId: 'sandboxSend',
    method: 'POST',
    path: '/sandbox/send',
    tag: 'Sandbox',
    sandboxOnly: true,
    summary: 'Sandbox: fund a realtime-funding quote',
    description: SEND,
    permission: 'TRANSACT',
    service: 'payments',
    rpc: PaymentsRpc.sandboxSend,
    body: SandboxSendRequest,
    status: 200,
    response: 'OutgoingTransaction',
    request: ({ body }) => body,
  }),
  operation({
    operationId: 'sandboxReceive',
    method: 'POST',
    path: '/sandbox/uma/receive',
    tag: 'Sandbox',
    sandboxOnly: true,
    summary: 'Sandbox: receive a UMA payment',
    description: RECEIVE,
    permission: 'TRANSACT',
    service: 'payments',
    rpc: InvitationsRpc.sandboxUmaReceive,
    body: SandboxUmaReceiveRequest,
    status: 200,
    response: 'IncomingTransaction',
    request: ({ body }) => body,
  }),
  operation({
    operationId: 'createInvitation',
    method: 'POST',
    path: '/invitations',
    tag: 'Invitations',
    summary: 'Create a UMA invitation',
    description: INVITE,
    permission: 'TRANSACT',
    service: 'payments',
    rpc: InvitationsRpc.create,
    body: CreateInvitationRequest,
    status: 201,
    response: 'UmaInvitation',
    errors: [404],
    request: ({ body }) => body,
  }),
  operation({
    operationId: 'getInvitation',
    method: 'GET',
    path: '/invitations/{invitationCode}',
    tag: 'Invitations',
    summary: 'Get an invitation',
    description: SHARED,
    permission: 'VIEW',
    service: 'payments',
    rpc: InvitationsRpc.get,
    status: 200,
    response: 'UmaInvitation',
    request: ({ params }) => ({ code: params.invitationCode }),
  }),
  operation({
    operationId: 'claimInvitation',
    method: 'POST',
    path: '/invitations/{invitationCode}/claim',
    tag: 'Invitations',
    summary: 'Claim an invitation',
    description: CLAIM,
    permission: 'TRANSACT',
    service: 'payments',
    rpc: InvitationsRpc.claim,
    body: ClaimInvitationRequest,
    status: 200,
    response: 'UmaInvitation',
    request: ({ params, body }) => ({ code: params.invitationCode, inviteeUma: body.inviteeUma }),
  }),
  operation({
    operationId: 'cancelInvitation',
    method: 'POST',
    path: '/invitations/{invitationCode}/cancel',
    tag: 'Invitations',
    summary: 'Cancel an invitation',
    description: CANCEL,
    permission: 'TRANSACT',
    service: 'payments',
    rpc: InvitationsRpc.cancel,
    status: 200,
    response: 'UmaInvitation',
    request: ({ params }) => ({ code: params.invitationCode }),
  }),
];
