import { StablecoinsRpc } from '../rpc/stablecoins.rpc';
import {
  LinkStablecoinProviderAccountRequest,
  ListStablecoinOperationsQuery,
  ListStablecoinProviderAccountsQuery,
  ListStablecoinsQuery,
  RegisterStablecoinRequest,
  StablecoinBurnRequest,
  StablecoinMintRequest,
} from '../stablecoins';
import { operation } from './http-operation';

const TAG = 'Stablecoins';

const LINK =
  'Links provider API credentials (BRALE) to the platform; the environment follows the credentials\' mode (sandbox ' +
  'credentials: SANDBOX). The credentials are verified with the provider first: refused ones are 400 ' +
  'STABLECOIN_PROVIDER_ACCOUNT_INVALID and nothing is stored. `providerAccountId` may be left out when the credentials ' +
  'reach exactly one provider account. The secret is stored sealed and never returned. Linking the same provider ' +
  'account twice is 409 CONFLICT. Sandbox: an `apiClientSecret` ending in 002 is refused; one ending in 003 (004) is ' +
  'accepted, then reported REVOKED (INVALID) by the provider at the next verification; an `apiClientId` ending in 005 ' +
  'reaches two provider accounts. Production needs a configured provider (else 501 NOT_IMPLEMENTED).';
const REGISTER =
  'Registers a token the provider already created (it creates no token): name, symbol, decimals, base currency and ' +
  'issuance status come from the provider. `networkTokenIdentifier` is a Spark token identifier (bech32m `btkn…`) of ' +
  'the network of the credentials\' mode (production: mainnet `btkn1`; sandbox: a test network, e.g. `btknrt1`). ' +
  'Without `stablecoinProviderAccountId` the one ACTIVE link is used (none: 404 STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND; ' +
  'several: 400 STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED); a link that is not ACTIVE is 400 ' +
  'STABLECOIN_PROVIDER_ACCOUNT_INVALID or _REVOKED. The same token registered twice is 409 CONFLICT. Sandbox: a ' +
  '`providerTokenIdentifier` ending in 002 is REJECTED by the provider, one ending in 001 stays PENDING_REVIEW.';
const AMOUNT_RULES =
  '`amount` is a string of digits in the token\'s smallest unit and must convert exactly to whole cents of the base ' +
  'currency (400 INVALID_AMOUNT otherwise). The stablecoin must be PROVISIONED (409 CONFLICT) and its link ACTIVE. ' +
  'The operation goes CREATED → PENDING_FUNDING (waiting for the issuer\'s funds, until `expiresAt`, then EXPIRED) or ' +
  'PENDING_PROVIDER → PROCESSING → COMPLETED or FAILED, with a STABLECOIN_OPERATION.<status> webhook at each step. ' +
  'Sandbox: the last three digits of the amount in the base currency\'s smallest unit (for a 6-decimal token, ' +
  '`10020000` is 1002 cents: 002) decide the provider\'s answer: 002 fails the transfer ' +
  '(PROVIDER_TRANSFER_FAILED), 003 is rejected at once (PROVIDER_REJECTED), 004 gives a 60 s funding window ' +
  '(× SANDBOX_TIME_SCALE; otherwise 7 days), 005 processes for 30 s (× SANDBOX_TIME_SCALE); anything else completes ' +
  'within seconds. Production needs a configured provider (else 501 NOT_IMPLEMENTED, nothing moves).';
const MINT =
  'Mints tokens to `destination.accountId`, an ACTIVE Spark wallet external account of the platform. Funding: WIRE ' +
  'answers wire `fundingInstructions` and waits in PENDING_FUNDING (sandbox: POST ' +
  '/sandbox/stablecoin-operations/{id}/fund delivers the wire); ACH_DEBIT / SAME_DAY_ACH_DEBIT debit an ACTIVE bank ' +
  'external account in the base currency; GRID_INTERNAL_ACCOUNT holds the amount on an internal account in the base ' +
  'currency at once (400 INSUFFICIENT_FUNDS) and debits it when the mint completes (released if it fails); ' +
  'PROVIDER_INTERNAL_BALANCE spends what the provider holds. When the mint completes its fiat leg is posted to the ' +
  'ledger: into the STABLECOIN_RESERVE system account from the clearing account (or from the internal account). An ' +
  '`InternalAccount:` destination needs the stablecoin enabled for Grid operations (400 otherwise). ' + AMOUNT_RULES;
const BURN =
  'Burns (redeems) tokens and pays their fiat value to `destination.externalAccountId`, an ACTIVE bank external ' +
  'account in the base currency, over `destination.rail` (`estimatedDelivery` says when). Source: EXTERNAL_ACCOUNT ' +
  'answers Spark `fundingInstructions` (the provider\'s deposit address) and waits in PENDING_FUNDING until the tokens ' +
  'arrive (sandbox: POST /sandbox/stablecoin-operations/{id}/fund); PROVIDER_INTERNAL_BALANCE burns tokens the ' +
  'provider holds; GRID_INTERNAL_ACCOUNT needs the stablecoin enabled for Grid operations (400 otherwise). When the ' +
  'burn completes its payout is posted to the ledger: from the STABLECOIN_RESERVE system account to the clearing ' +
  'account. ' + AMOUNT_RULES;
const FUND =
  'Sandbox: the simulated provider receives the funds a PENDING_FUNDING operation waits for (the wire of a wire-funded ' +
  'mint, the tokens of an external-source burn), as /sandbox/send does for a quote. The operation moves to ' +
  'PENDING_PROVIDER and on by the sandbox rules of its amount. Any other status is 409 INVALID_STATE_TRANSITION. ' +
  'Production credentials get 404.';

/** Stablecoin provider links, stablecoins, and their mint and burn operations (payments service). */
export const STABLECOIN_OPERATIONS = [
  operation({
    operationId: 'linkStablecoinProviderAccount',
    method: 'POST',
    path: '/stablecoin-provider-accounts',
    tag: TAG,
    summary: 'Link a stablecoin provider account',
    description: LINK,
    permission: 'MANAGE',
    service: 'payments',
    rpc: StablecoinsRpc.linkProviderAccount,
    body: LinkStablecoinProviderAccountRequest,
    status: 201,
    response: 'StablecoinProviderAccount',
    idempotencyKey: 'required',
    errors: [501, 503],
    request: ({ body }) => body,
  }),
  operation({
    operationId: 'listStablecoinProviderAccounts',
    method: 'GET',
    path: '/stablecoin-provider-accounts',
    tag: TAG,
    summary: 'List stablecoin provider account links',
    description: 'Filters `provider` and `status`; newest first.',
    permission: 'VIEW',
    service: 'payments',
    rpc: StablecoinsRpc.listProviderAccounts,
    query: ListStablecoinProviderAccountsQuery,
    status: 200,
    response: { page: 'StablecoinProviderAccount' },
    request: ({ query }) => query,
  }),
  operation({
    operationId: 'getStablecoinProviderAccount',
    method: 'GET',
    path: '/stablecoin-provider-accounts/{stablecoinProviderAccountId}',
    tag: TAG,
    summary: 'Get a stablecoin provider account link',
    description: 'Never carries the credentials. Another platform\'s link is 404 STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND.',
    permission: 'VIEW',
    service: 'payments',
    rpc: StablecoinsRpc.getProviderAccount,
    status: 200,
    response: 'StablecoinProviderAccount',
    request: ({ params }) => ({ stablecoinProviderAccountId: params.stablecoinProviderAccountId }),
  }),
  operation({
    operationId: 'registerStablecoin',
    method: 'POST',
    path: '/stablecoins',
    tag: TAG,
    summary: 'Register an existing provider-created stablecoin',
    description: REGISTER,
    permission: 'MANAGE',
    service: 'payments',
    rpc: StablecoinsRpc.register,
    body: RegisterStablecoinRequest,
    status: 201,
    response: 'Stablecoin',
    idempotencyKey: 'required',
    errors: [404, 501, 503],
    request: ({ body }) => body,
  }),
  operation({
    operationId: 'listStablecoins',
    method: 'GET',
    path: '/stablecoins',
    tag: TAG,
    summary: 'List stablecoins',
    description: 'Filters `issuanceStatus`, `gridOperationsStatus` and `provider`; newest first.',
    permission: 'VIEW',
    service: 'payments',
    rpc: StablecoinsRpc.list,
    query: ListStablecoinsQuery,
    status: 200,
    response: { page: 'Stablecoin' },
    request: ({ query }) => query,
  }),
  operation({
    operationId: 'getStablecoin',
    method: 'GET',
    path: '/stablecoins/{stablecoinId}',
    tag: TAG,
    summary: 'Get a stablecoin',
    description: 'Another platform\'s stablecoin is 404 REFERENCE_NOT_FOUND.',
    permission: 'VIEW',
    service: 'payments',
    rpc: StablecoinsRpc.get,
    status: 200,
    response: 'Stablecoin',
    request: ({ params }) => ({ stablecoinId: params.stablecoinId }),
  }),
  operation({
    operationId: 'createStablecoinMint',
    method: 'POST',
    path: '/stablecoins/{stablecoinId}/mints',
    tag: TAG,
    summary: 'Create a stablecoin mint operation',
    description: MINT,
    permission: 'TRANSACT',
    service: 'payments',
    rpc: StablecoinsRpc.mint,
    body: StablecoinMintRequest,
    status: 201,
    response: 'StablecoinOperation',
    idempotencyKey: 'required',
    errors: [501, 503],
    request: ({ params, body }) => ({ ...body, stablecoinId: params.stablecoinId }),
  }),
  operation({
    operationId: 'createStablecoinBurn',
    method: 'POST',
    path: '/stablecoins/{stablecoinId}/burns',
    tag: TAG,
    summary: 'Create a stablecoin burn operation',
    description: BURN,
    permission: 'TRANSACT',
    service: 'payments',
    rpc: StablecoinsRpc.burn,
    body: StablecoinBurnRequest,
    status: 201,
    response: 'StablecoinOperation',
    idempotencyKey: 'required',
    errors: [501, 503],
    request: ({ params, body }) => ({ ...body, stablecoinId: params.stablecoinId }),
  }),
  operation({
    operationId: 'listStablecoinOperations',
    method: 'GET',
    path: '/stablecoins/{stablecoinId}/operations',
    tag: TAG,
    summary: 'List stablecoin issuer operations',
    description: 'Mints and burns of the stablecoin, most recent first; filter `operationType`.',
    permission: 'VIEW',
    service: 'payments',
    rpc: StablecoinsRpc.listOperations,
    query: ListStablecoinOperationsQuery,
    status: 200,
    response: { page: 'StablecoinOperation' },
    request: ({ params, query }) => ({ ...query, stablecoinId: params.stablecoinId }),
  }),
  operation({
    operationId: 'getStablecoinOperation',
    method: 'GET',
    path: '/stablecoin-operations/{stablecoinOperationId}',
    tag: TAG,
    summary: 'Get a stablecoin issuer operation',
    description: 'Another platform\'s operation is 404 REFERENCE_NOT_FOUND.',
    permission: 'VIEW',
    service: 'payments',
    rpc: StablecoinsRpc.getOperation,
    status: 200,
    response: 'StablecoinOperation',
    request: ({ params }) => ({ stablecoinOperationId: params.stablecoinOperationId }),
  }),
  operation({
    operationId: 'sandboxFundStablecoinOperation',
    method: 'POST',
    path: '/sandbox/stablecoin-operations/{stablecoinOperationId}/fund',
    tag: 'Sandbox',
    sandboxOnly: true,
    summary: 'Sandbox: deliver the funds a stablecoin operation waits for',
    description: FUND,
    permission: 'TRANSACT',
    service: 'payments',
    rpc: StablecoinsRpc.sandboxFund,
    status: 200,
    response: 'StablecoinOperation',
    errors: [409],
    request: ({ params }) => ({ stablecoinOperationId: params.stablecoinOperationId }),
  }),
];
