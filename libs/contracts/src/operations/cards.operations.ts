import {
  CardSimulation,
  CreateCardRequest,
  ListCardsQuery,
  SandboxCardAuthorizationAdviceRequest,
  SandboxCardAuthorizationRequest,
  SandboxCardBalanceInquiryRequest,
  SandboxCardClearingRequest,
  SandboxCardReturnRequest,
  SandboxCardTransactionRefRequest,
  UpdateCardRequest,
} from '../cards';
import { CardsRpc } from '../rpc/cards.rpc';
import { AnyHttpOperation, DtoClass, operation } from './http-operation';

const TAG = 'Cards';

const ISSUE =
  'Issues a virtual card to a cardholder whose kycStatus is APPROVED (400 CARDHOLDER_KYC_NOT_APPROVED otherwise), bound ' +
  'to 1-10 funding sources in priority order: internal accounts of the cardholder, all in one card currency (USD, EUR, ' +
  'GBP or USDB), else 400 FUNDING_SOURCE_INELIGIBLE. The card starts PROCESSING; the issuer makes it ACTIVE (or CLOSED ' +
  'with stateReason ISSUER_REJECTED) and card.state_change follows. An Embedded Wallet source funds authorizations ' +
  'only while it has an ACTIVE delegated key (POST /auth/delegated-keys). Sandbox: the last three characters of ' +
  'platformCardId (else cardholderId) decide issuance: 001 stays PROCESSING, 002 is rejected, 005 activates after ' +
  '30 s (× SANDBOX_TIME_SCALE), anything else activates at once with last4 taken from them; a funding source whose id ' +
  'ends in 002 or 003 is ineligible. Production has no card issuer configured: 501 NOT_IMPLEMENTED.';
const UPDATE =
  'Changes `state` (ACTIVE ⇄ FROZEN, ACTIVE or FROZEN → CLOSED; anything else 409 INVALID_STATE_TRANSITION; CLOSED is ' +
  'terminal: 409 CARD_ALREADY_CLOSED / CARD_NOT_MUTABLE), replaces `fundingSources`, or sets `maxSpendPerTransaction` ' +
  '(null clears it); at least one, and CLOSED goes alone. A frozen card declines new authorizations with CARD_PAUSED ' +
  'while earlier ones still clear; closing detaches the funding sources and closes open authorizations. When an ' +
  'Embedded Wallet funds the card (before or after the change) the change is a signed retry: 202 with `payloadToSign`, ' +
  'then the same request with `Service-Wallet-Signature` (a session of that wallet) and `Request-Id` answers 200.';
const SIMULATED =
  ' Sandbox only (production credentials get 404). Answers 202 with the issuer token; the card transaction changes ' +
  'before the answer and its CARD_TRANSACTION.* webhook follows.';
const AUTH_SUFFIXES =
  ' The last three characters of merchant.descriptor decide: 002 declines INSUFFICIENT_FUNDS, 003 declines ' +
  'CARD_PAUSED, 005 delays the pull from the funding source by 30 s (× SANDBOX_TIME_SCALE), 006 fails the pull (the ' +
  'transaction becomes EXCEPTION); a frozen card declines CARD_PAUSED, an amount above maxSpendPerTransaction ' +
  'SPEND_LIMIT_EXCEEDED, and funding sources that cannot cover it INSUFFICIENT_FUNDS.';

const SIMULATIONS: { simulation: CardSimulation; summary: string; body: DtoClass; description: string }[] = [
  { simulation: 'authorization', summary: 'Simulate a card authorization', body: SandboxCardAuthorizationRequest, description: 'Holds the amount on the first funding source that covers it and pulls it.' + AUTH_SUFFIXES },
  { simulation: 'authorization_advice', summary: 'Simulate an authorization advice', body: SandboxCardAuthorizationAdviceRequest, description: '`amount` is the new total authorized of an AUTHORIZED or PARTIALLY_SETTLED transaction (at least what settled): more is pulled, or the difference goes back.' },
  { simulation: 'balance_inquiry', summary: 'Simulate a balance inquiry', body: SandboxCardBalanceInquiryRequest, description: 'A zero-amount authorization: a SETTLED card transaction with closedReason BALANCE_INQUIRY; nothing moves.' },
  { simulation: 'clearing', summary: 'Simulate a card clearing', body: SandboxCardClearingRequest, description: 'Settles against an AUTHORIZED or PARTIALLY_SETTLED transaction: up to what is left PARTIALLY_SETTLED or SETTLED; above the authorized amount the difference is pulled after the fact (a failed pull makes it EXCEPTION; the parent\'s descriptor suffix 005/006 delays or fails it); 0 is the authorization\'s expiry (what was pulled and not settled goes back).' },
  { simulation: 'credit_authorization', summary: 'Simulate a credit authorization', body: SandboxCardAuthorizationRequest, description: 'The merchant sends money to the card: a CREDIT transaction on the first eligible funding source, credited when it clears.' + AUTH_SUFFIXES },
  { simulation: 'credit_authorization_advice', summary: 'Simulate a credit authorization advice', body: SandboxCardAuthorizationRequest, description: 'A credit the network already approved: as credit_authorization.' + AUTH_SUFFIXES },
  { simulation: 'financial_authorization', summary: 'Simulate a financial authorization', body: SandboxCardAuthorizationRequest, description: 'Single-message: authorized, pulled and settled at once (SETTLED).' + AUTH_SUFFIXES },
  { simulation: 'financial_credit_authorization', summary: 'Simulate a financial credit authorization', body: SandboxCardAuthorizationRequest, description: 'Single-message credit: the funding source is credited at once (SETTLED).' + AUTH_SUFFIXES },
  { simulation: 'return', summary: 'Simulate a card return', body: SandboxCardReturnRequest, description: 'Refunds up to the net settled amount of a settled transaction to its funding source: all of it makes it REFUNDED, part of it keeps it SETTLED with refundedAmount.' },
  { simulation: 'return_reversal', summary: 'Simulate a card return reversal', body: SandboxCardTransactionRefRequest, description: 'Takes back the latest return of a REFUNDED transaction (SETTLED again; a funding source that cannot pay it back makes it EXCEPTION).' },
];

const camel = (s: string) => s.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

/** Cards, their reveal and the sandbox card network simulators (cards service). */
export const CARD_OPERATIONS: AnyHttpOperation[] = [
  operation({
    operationId: 'createCard',
    method: 'POST',
    path: '/cards',
    tag: TAG,
    summary: 'Issue a card',
    description: ISSUE,
    permission: 'MANAGE',
    service: 'cards',
    rpc: CardsRpc.create,
    body: CreateCardRequest,
    status: 201,
    response: 'Card',
    errors: [501],
    request: ({ body }) => body,
  }),
  operation({
    operationId: 'listCards',
    method: 'GET',
    path: '/cards',
    tag: TAG,
    summary: 'List cards',
    description: 'Filters cardholderId, accountId (a bound funding source), platformCardId and state, combined; newest first unless sortOrder=asc.',
    permission: 'VIEW',
    service: 'cards',
    rpc: CardsRpc.list,
    query: ListCardsQuery,
    status: 200,
    response: { page: 'Card' },
    request: ({ query }) => query,
  }),
  operation({
    operationId: 'getCardById',
    method: 'GET',
    path: '/cards/{id}',
    tag: TAG,
    summary: 'Get a card',
    description: 'Never carries the PAN, the CVV or a reveal URL (POST /cards/{id}/reveal).',
    permission: 'VIEW',
    service: 'cards',
    rpc: CardsRpc.get,
    status: 200,
    response: 'Card',
    request: ({ params }) => ({ cardId: params.id }),
  }),
  operation({
    operationId: 'updateCardById',
    method: 'PATCH',
    path: '/cards/{id}',
    tag: TAG,
    summary: 'Update a card',
    description: UPDATE,
    permission: 'MANAGE',
    service: 'cards',
    rpc: CardsRpc.update,
    body: UpdateCardRequest,
    status: 200,
    response: 'Card',
    signedRetry: { challenge: 'SignedRequestChallenge' },
    errors: [409],
    request: ({ params, body, signature }) => ({ ...body, cardId: params.id, signature }),
  }),
  operation({
    operationId: 'revealCard', shownOnce: ['panEmbedUrl'],
    method: 'POST',
    path: '/cards/{id}/reveal',
    tag: TAG,
    summary: 'Reveal card details',
    description:
      'Mints a signed URL (valid 5 minutes) of a page that shows the PAN, CVV and expiry; render it at once in an iframe and ' +
      'never store or log it. Each reveal is audit-logged with the credential that asked. A card that is not ACTIVE or FROZEN is 409.',
    permission: 'MANAGE',
    service: 'cards',
    rpc: CardsRpc.reveal,
    status: 200,
    response: 'CardRevealResponse',
    errors: [409],
    request: ({ params, origin }) => ({ cardId: params.id, origin }),
  }),
  ...SIMULATIONS.map(({ simulation, summary, body, description }) =>
    operation({
      operationId: `sandboxSimulateCard${camel(`_${simulation}`)}`,
      method: 'POST',
      path: `/sandbox/cards/{id}/simulate/${simulation}`,
      tag: 'Sandbox',
      sandboxOnly: true,
      summary,
      description: description + SIMULATED,
      permission: 'TRANSACT',
      service: 'cards',
      rpc: CardsRpc.simulate,
      body: body as DtoClass<Record<string, unknown>>,
      status: 202,
      response: 'SandboxCardSimulationResponse',
      errors: [409],
      request: ({ params, body: b }) => ({ ...(b as object), cardId: params.id, simulation }),
    }),
  ),
];
