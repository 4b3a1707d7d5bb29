import { ReceiverLookupQuery } from '../accounts';
import { EstimateWithdrawalFeeRequest } from '../crypto';
import { CreateQuoteRequest, ExchangeRatesQuery, ExecuteQuoteRequest, ScaAuthorization } from '../quotes';
import { QuotingRpc, ScaPasskeysRpc } from '../rpc';
import { EnrolScaPasskeyRequest } from '../sca';
import { ListUmaProvidersQuery } from '../uma';
import { operation } from './http-operation';

const CREATE =
  'Locks an exchange rate and fees until `expiresAt` (QUOTE_TTL_MS, 5 minutes by default). Sources: ACCOUNT (an internal ' +
  'account) or REALTIME_FUNDING (`customerId`, `currency`: the quote carries paymentInstructions and executes when the funds ' +
  "arrive). Destinations: ACCOUNT (internal or external) or UMA_ADDRESS (`umaAddress`, `currency?`, with the request's " +
  '`lookupId` from GET /receiver/uma/{address}). The same currency on both sides is 400 SAME_CURRENCY (use a transfer). The ' +
  "sending amount must lie within the platform's minAmount/maxAmount (400 AMOUNT_OUT_OF_RANGE). Customers in SCA regions " +
  '(EU/EEA) get PENDING_AUTHORIZATION with a `scaChallenge`; `immediatelyExecute` hands an ACCOUNT quote to payments at once ' +
  '(PROCESSING). An unexecuted quote turns EXPIRED at expiresAt. `remittanceInformation` (up to 80 characters), ' +
  '`purposeOfPayment` and `senderCustomerInfo` (what the destination asked about the sender) are kept with the quote and ' +
  'handed to payments on execution; the Quote does not show them.';
const CREATE_IN_PRODUCTION =
  ' Production prices from the rate sources an operator configured (docs/quotes.md#rates-in-production): a corridor ' +
  'without one is 501 RATE_SOURCE_NOT_CONFIGURED, one whose rate is stale 503 RATE_STALE (503 RATE_UNAVAILABLE before ' +
  'the first ECB document), and nothing is recorded.' +
  ' Production refuses with 501 NOT_IMPLEMENTED, before anything is recorded, a quote it could not carry out: to an ' +
  'external account (no production payout rail yet), to a UMA address (no UMA protocol client), from REALTIME_FUNDING ' +
  '(no collection details), or for an SCA customer without an enrolled passkey (no SMS provider); `details.capability` ' +
  "and `details.configure` name what is missing. Production's service fee is the operator's fee schedule for the " +
  'corridor (none configured: no service fee); the sandbox charges 0.5% plus about 25 US cents.';
const EXECUTE =
  'Hands a PENDING ACCOUNT-funded quote to payments: it turns PROCESSING and cannot be cancelled. 409 QUOTE_EXPIRED after ' +
  'expiresAt, 409 SCA_SESSION_REQUIRED while PENDING_AUTHORIZATION, 409 INVALID_STATE_TRANSITION once executed or for a ' +
  'REALTIME_FUNDING quote (it executes when its funds arrive). From an Embedded Wallet, `Service-Wallet-Signature` is ' +
  'required: the stamp of a live session of the wallet over the `payloadToSign` of the quote\'s EMBEDDED_WALLET ' +
  'paymentInstructions entry (401 WALLET_SIGNATURE_MISSING, _MALFORMED or _INVALID; no Request-Id). Production: 501 ' +
  'NOT_IMPLEMENTED, nothing recorded, when the destination can no longer be paid there.';
const AUTHORIZE =
  "Answers the quote's current SCA challenge with a `code` (SMS_OTP; sandbox 123456) or a `passkeyAssertion` and its " +
  '`origin` (PASSKEY, verified as WebAuthn). The answer may carry the next challenge (a new id) until the quote leaves ' +
  'PENDING_AUTHORIZATION. 400 SCA_AUTHORIZATION_FAILED for a wrong proof (5 failures fail the quote), 400 ' +
  "SCA_CHALLENGE_EXPIRED after the challenge's expiresAt (a new challenge is issued; see details.quote), 409 " +
  'SCA_NOT_REQUIRED for customers outside SCA regions.';
const RATES =
  'Mid rates from `sourceCurrency` to each `destinationCurrency` (repeat the parameter or join codes with commas; omitted: ' +
  'every other supported currency), with the fees a quote adds, and `sendingAmount` (10000 by default, source currency ' +
  'smallest unit) priced exactly as a SENDING quote of that amount: `receivingAmount`, `exchangeRate`, `fees`. Rates are ' +
  'cached per 5-minute window (`updatedAt` to `expiresAt`) in the sandbox; in production `updatedAt` is the publication ' +
  "time of the rate's source (an operator's rate, the ECB's reference rates) and `expiresAt` when it stops pricing. A " +
  'quote locks the rate of its creation. Production leaves out the pairs it has no fresh rate for; with none at all, the ' +
  'answer is 501 RATE_SOURCE_NOT_CONFIGURED or 503 RATE_STALE / RATE_UNAVAILABLE.';
const UMA_LOOKUP =
  'The currencies a UMA address can be paid in, each with an estimated mid rate from the sending currency and the ' +
  "platform's min/max. The sending currency is the customer's first currency (`customerId`), else the currency of a " +
  "sandbox `senderUmaAddress`, else the platform's first configured currency. Returns a `lookupId` that a quote to " +
  'the address names. Sandbox: the receivers `$success.usd|eur|mxn`, `$pending.long.usd` and `$fail.compliance.usd` ' +
  'at `sandbox.uma.money`; any other address is 404 UMA_NOT_FOUND. Production: 501 NOT_IMPLEMENTED (no UMA protocol ' +
  'client in this deployment; sandbox-domain addresses are 404). A malformed address is 400 INVALID_UMA_ADDRESS.';
const PROVIDERS =
  'The UMA provider catalogue, ordered by name, filtered by `countryCode` (a supported region) and `currencyCode`. ' +
  'Providers whose allowListStatus is BLOCKED are left out unless `hasBlockedProviders=true`.';
const FEE =
  'Network and application fees of withdrawing `amount` from a crypto internal account to `destinationAddress` on ' +
  '`cryptoNetwork`. Read-only (VIEW): nothing is held or sent. All amounts are in the smallest unit of the account ' +
  'currency; `netAmount` = `amount` − `totalFee`. BTC goes out on BITCOIN, LIGHTNING or SPARK; USDC on ETHEREUM, ' +
  'BASE, POLYGON or SOLANA; USDT on ETHEREUM, POLYGON, SOLANA, TRON or PLASMA; USDB (Embedded Wallets) on none. 400 ' +
  'INVALID_INPUT for a network the currency is not on or an address that network cannot receive at, INVALID_CURRENCY ' +
  'for USDB or when the account holds another currency, AMOUNT_BELOW_FEES when nothing would arrive; 404 for an ' +
  "internal account that is not the platform's. The sandbox prices from a built-in network table and charges 0.1%; " +
  "production charges the operator's network fee and application fee for the currency and network (PUT " +
  '/operator/v1/fees/network), and answers 501 NOT_IMPLEMENTED where none is configured.';
const PASSKEY_OPTIONS =
  "Starts the enrolment of the customer's SCA passkey (one per customer): WebAuthn creation options for " +
  '`navigator.credentials.create` (attestation none, user verification required) with a single-use challenge that ' +
  'expires at `expiresAt` (5 minutes), and the origins the ceremony may run on. 409 PASSKEY_ALREADY_ENROLLED when ' +
  'one is enrolled; 409 SCA_NOT_REQUIRED for customers outside the EU/EEA.';
const PASSKEY_ENROL =
  "Completes the enrolment: `registrationResponse` is the browser's RegistrationResponseJSON, `origin` the page's " +
  'origin (one of passkeyAllowedOrigins). Verified with @simplewebauthn/server (challenge, origin, RP ID, user presence ' +
  'and verification, key); failures are 400 INVALID_INPUT naming the failed check. The passkey then authorizes ' +
  "PASSKEY challenges of the customer's quotes.";

/** Quotes, exchange rates, UMA lookups and providers, crypto fee estimates and SCA passkeys (quoting service). */
export const QUOTING_OPERATIONS = [
  operation({
    operationId: 'createQuote',
    method: 'POST',
    path: '/quotes',
    tag: 'Cross-Currency Transfers',
    summary: 'Create a quote',
    description: CREATE + CREATE_IN_PRODUCTION,
    permission: 'TRANSACT',
    service: 'quoting',
    rpc: QuotingRpc.createQuote,
    body: CreateQuoteRequest,
    status: 201,
    response: 'Quote',
    errors: [404, 501],
    request: ({ body }) => body,
  }),
  operation({
    operationId: 'getQuoteById',
    method: 'GET',
    path: '/quotes/{quoteId}',
    tag: 'Cross-Currency Transfers',
    summary: 'Get a quote',
    permission: 'VIEW',
    service: 'quoting',
    rpc: QuotingRpc.getQuote,
    status: 200,
    response: 'Quote',
    request: ({ params }) => ({ quoteId: params.quoteId }),
  }),
  operation({
    operationId: 'executeQuote',
    method: 'POST',
    path: '/quotes/{quoteId}/execute',
    tag: 'Cross-Currency Transfers',
    summary: 'Execute a quote',
    description: EXECUTE,
    permission: 'TRANSACT',
    service: 'quoting',
    rpc: QuotingRpc.executeQuote,
    body: ExecuteQuoteRequest,
    bodyOptional: true,
    status: 200,
    response: 'Quote',
    walletSignature: true,
    errors: [501],
    request: ({ params, body, signature }) => ({ ...body, quoteId: params.quoteId, ...(signature.walletSignature !== undefined ? { walletSignature: signature.walletSignature } : {}) }),
  }),
  operation({
    operationId: 'authorizeQuote',
    method: 'POST',
    path: '/quotes/{quoteId}/authorize',
    tag: 'Strong Customer Authentication',
    summary: 'Authorize a quote (Strong Customer Authentication)',
    description: AUTHORIZE,
    permission: 'TRANSACT',
    service: 'quoting',
    rpc: QuotingRpc.authorizeQuote,
    body: ScaAuthorization,
    status: 200,
    response: 'Quote',
    errors: [501],
    request: ({ params, body }) => ({ quoteId: params.quoteId, authorization: body }),
  }),
  operation({
    operationId: 'getExchangeRates',
    method: 'GET',
    path: '/exchange-rates',
    tag: 'Exchange Rates',
    summary: 'List exchange rates',
    description: RATES,
    permission: 'VIEW',
    service: 'quoting',
    rpc: QuotingRpc.exchangeRates,
    query: ExchangeRatesQuery,
    status: 200,
    response: 'ExchangeRateList',
    errors: [501],
    request: ({ query }) => query,
  }),
  operation({
    operationId: 'lookupUma',
    method: 'GET',
    path: '/receiver/uma/{receiverUmaAddress}',
    tag: 'Cross-Currency Transfers',
    summary: 'Look up a UMA address as a receiver',
    description: UMA_LOOKUP,
    permission: 'VIEW',
    service: 'quoting',
    rpc: QuotingRpc.umaLookup,
    query: ReceiverLookupQuery,
    status: 200,
    response: 'UmaReceiverLookup',
    errors: [501],
    request: ({ params, query }) => ({ ...query, receiverUmaAddress: params.receiverUmaAddress }),
  }),
  operation({
    operationId: 'getAvailableUmaProviders',
    method: 'GET',
    path: '/uma-providers',
    tag: 'Available UMA Providers',
    summary: 'List UMA providers',
    description: PROVIDERS,
    permission: 'VIEW',
    service: 'quoting',
    rpc: QuotingRpc.listUmaProviders,
    query: ListUmaProvidersQuery,
    status: 200,
    response: { page: 'UmaProvider' },
    request: ({ query }) => query,
  }),
  operation({
    operationId: 'estimateCryptoWithdrawalFee',
    method: 'POST',
    path: '/crypto/estimate-withdrawal-fee',
    tag: 'Cross-Currency Transfers',
    summary: 'Estimate a crypto withdrawal fee',
    description: FEE,
    permission: 'VIEW',
    service: 'quoting',
    rpc: QuotingRpc.estimateWithdrawalFee,
    body: EstimateWithdrawalFeeRequest,
    status: 200,
    response: 'WithdrawalFeeEstimate',
    errors: [404, 501],
    request: ({ body }) => body,
  }),
  operation({
    operationId: 'startScaPasskeyRegistration',
    method: 'POST',
    path: '/customers/{customerId}/sca/passkey/registration-options',
    tag: 'Strong Customer Authentication',
    summary: "Begin enrolling the customer's SCA passkey",
    description: PASSKEY_OPTIONS,
    permission: 'MANAGE',
    service: 'quoting',
    rpc: ScaPasskeysRpc.registrationOptions,
    status: 200,
    response: 'ScaPasskeyRegistrationOptions',
    request: ({ params }) => ({ customerId: params.customerId }),
  }),
  operation({
    operationId: 'enrolScaPasskey',
    method: 'POST',
    path: '/customers/{customerId}/sca/passkey',
    tag: 'Strong Customer Authentication',
    summary: "Enrol the customer's SCA passkey",
    description: PASSKEY_ENROL,
    permission: 'MANAGE',
    service: 'quoting',
    rpc: ScaPasskeysRpc.enrol,
    body: EnrolScaPasskeyRequest,
    status: 201,
    response: 'ScaPasskey',
    request: ({ params, body }) => ({ ...body, customerId: params.customerId }),
  }),
  operation({
    operationId: 'getScaPasskey',
    method: 'GET',
    path: '/customers/{customerId}/sca/passkey',
    tag: 'Strong Customer Authentication',
    summary: "Get the customer's SCA passkey",
    permission: 'VIEW',
    service: 'quoting',
    rpc: ScaPasskeysRpc.get,
    status: 200,
    response: 'ScaPasskey',
    request: ({ params }) => ({ customerId: params.customerId }),
  }),
  operation({
    operationId: 'deleteScaPasskey',
    method: 'DELETE',
    path: '/customers/{customerId}/sca/passkey',
    tag: 'Strong Customer Authentication',
    summary: "Remove the customer's SCA passkey (a new one can then be enrolled)",
    permission: 'MANAGE',
    service: 'quoting',
    rpc: ScaPasskeysRpc.remove,
    status: 204,
    request: ({ params }) => ({ customerId: params.customerId }),
  }),
];
