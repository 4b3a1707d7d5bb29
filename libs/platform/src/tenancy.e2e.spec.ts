import { eventually } from '@payments/testing';
import { OPERATOR_API_PREFIX, OPERATOR_OPERATIONS } from '@payments/contracts';
import { API_VERSION } from '@payments/gateway';
import { startTestPlatform, TestPlatform, TestTenant } from './test-platform';
import { createCustomerHolder, uploadDocument } from './test-documents';
import { servedRoutes } from './test-routes';
import { foreignCallers, isNotFound, NOT_PLATFORM_CREDENTIAL_OPERATIONS, platformIdOf } from './test-tenancy';
import { createExternalAccount, ngnAccount, trust, untilStatus } from './test-external-accounts';
import { individualRow, toCsv, uploadCsv } from './test-customer-import';
import { addOwner, businessBody, createCustomer, individualBody, ownerBody } from './test-kyc';
import { internalAccountOf, usdAccount } from './test-quotes';
import { usdBankAccount } from './test-payments';
import { createEuCustomer, enrolPasskey, passkeyRegistration } from './test-sca';
import { clientKey, enableWallets, encryptOtp, otpLogin, signed, walletCustomer } from './test-wallet';
import { activeCard, cardholder, cardTransactionAfter, purchase } from './test-cards';
import { delegatedKeyLegs, walletFundedCard } from './test-delegated-keys';
import { idem, link, register, sparkWallet } from './test-stablecoins';

/**
 * Two platforms; every route that addresses one resource is tried with the other platform's credentials and must
 * answer 404, exactly as for a resource that does not exist. ADD A ROW for every new route with a path parameter:
 * the coverage test below fails until you do.
 */
interface TenancyRow {
  route: string; // `METHOD /path/:param` as the router serves it, without the version prefix
  /** Creates the owner's resource and returns the concrete path to request. */
  setup: (t: TestPlatform, owner: TestTenant) => Promise<string>;
  /** The request body; a function when it names what `setup` made (read at each request). */
  body?: unknown;
  /** Headers of every request (e.g. the Idempotency-Key an operation requires: a fresh one each time). */
  headers?: () => Record<string, string>;
  /** Why the resource belongs to no platform (any platform may read it): then only the other mode must answer 404. */
  anyPlatform?: string;
  /** The request uses the resource up (a claim): every request gets a fresh one from `setup`. */
  fresh?: boolean;
  /** Another platform of the mode sees the resource (anyPlatform elsewhere) but may not do this: its status, and why. */
  otherPlatformStatus?: { status: number; why: string };
}

/** A PENDING (or, for an EU customer, PENDING_AUTHORIZATION) quote of the owner: USD account to an NGN external account. */
async function ownerQuote(t: TestPlatform, owner: TestTenant, customer: Record<string, unknown>): Promise<string> {
  const customerId = (await t.call('POST', '/customers', { auth: owner.sandbox, body: customer })).body.id;
  const body = { source: { sourceType: 'ACCOUNT', accountId: await internalAccountOf(t, owner.sandbox, customerId, 'USD') }, destination: { destinationType: 'ACCOUNT', accountId: await createExternalAccount(t, owner.sandbox) }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000 };
  const res = await t.call('POST', '/quotes', { auth: owner.sandbox, body });
  if (res.status !== 201) throw new Error(`quote not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

const rows: TenancyRow[] = [
  {
    route: 'POST /sandbox/internal-accounts/:accountId/fund',
    setup: async (t, owner) => {
      const customer = (await t.call('POST', '/customers', { auth: owner.sandbox, body: { customerType: 'INDIVIDUAL', fullName: 'Funds' } })).body;
      const account = await eventually(async () => (await t.call('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customer.id)}`, { auth: owner.sandbox })).body.data?.[0], { what: 'internal account' });
      return `/sandbox/internal-accounts/${account.id}/fund`;
    },
    body: { amount: 100 },
  },
  ...customerRows(),
  ...externalAccountRows(),
  ...documentRows(),
  ...onboardingRows(),
  ...kycRows(),
  ...scaPasskeyRows(),
  ...invitationRows(),
  ...transactionApprovalRows(),
  ...walletRows(),
  ...cardRows(),
  ...delegatedKeyRows(),
  ...agentRows(),
  ...stablecoinRows(),
  ...webhookDeliveryRows(),
  {
    route: 'GET /receiver/uma/:receiverUmaAddress',
    anyPlatform: 'a UMA address is public: every sandbox platform may look up the sandbox receivers; production has no sandbox domain',
    setup: async () => `/receiver/uma/${encodeURIComponent('$success.usd@sandbox.uma.money')}`,
  },
  {
    route: 'GET /quotes/:quoteId',
    setup: async (t, owner) => {
      const body = { source: { sourceType: 'ACCOUNT', accountId: await usdAccount(t, owner.sandbox) }, destination: { destinationType: 'ACCOUNT', accountId: await createExternalAccount(t, owner.sandbox) }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000 };
      const res = await t.call('POST', '/quotes', { auth: owner.sandbox, body });
      if (res.status !== 201) throw new Error(`quote not created: ${res.status} ${JSON.stringify(res.body)}`);
      return `/quotes/${res.body.id}`;
    },
  },
  {
    route: 'POST /quotes/:quoteId/execute',
    setup: async (t, owner) => `/quotes/${await ownerQuote(t, owner, { customerType: 'INDIVIDUAL', fullName: 'Exe Cute' })}/execute`,
  },
  {
    route: 'POST /quotes/:quoteId/authorize',
    setup: async (t, owner) => `/quotes/${await ownerQuote(t, owner, { customerType: 'INDIVIDUAL', fullName: 'Eu Ropa', region: 'DE', email: 'eu@example.de', phoneNumber: '+4915112345678' })}/authorize`,
    body: { code: '123456' },
  },
  { route: 'GET /transactions/:transactionId', setup: async (t, owner) => `/transactions/${await ownerTransfer(t, owner)}` },
  { route: 'GET /transactions/:transactionId/ledger-postings', setup: async (t, owner) => `/transactions/${await ownerTransfer(t, owner)}/ledger-postings` },
  {
    route: 'GET /tokens/:tokenId',
    setup: async (t, owner) => `/tokens/${(await t.call('POST', '/tokens', { auth: owner.sandbox, body: { name: 'mine', permissions: ['VIEW'] } })).body.id}`,
  },
  {
    route: 'DELETE /tokens/:tokenId',
    setup: async (t, owner) => `/tokens/${(await t.call('POST', '/tokens', { auth: owner.sandbox, body: { name: 'mine', permissions: ['VIEW'] } })).body.id}`,
  },
];

/** A transfer-in of the owner's sandbox (its id): it settles moments later, posting to the ledger. */
async function ownerTransfer(t: TestPlatform, owner: TestTenant): Promise<string> {
  const customerId = (await t.call('POST', '/customers', { auth: owner.sandbox, body: { customerType: 'INDIVIDUAL', fullName: 'Pay Er' } })).body.id;
  const internal = await internalAccountOf(t, owner.sandbox, customerId, 'USD');
  const external = (await t.call('POST', '/customers/external-accounts', { auth: owner.sandbox, body: { customerId, ...usdBankAccount('789') } })).body.id;
  await untilStatus(t, owner.sandbox, external, 'ACTIVE');
  const res = await t.call('POST', '/transfer-in', { auth: owner.sandbox, body: { source: { accountId: external }, destination: { accountId: internal }, amount: 100 } });
  if (res.status !== 201) throw new Error(`transfer not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

/** An incoming UMA payment of the owner awaiting approval (its 5 s window at SANDBOX_TIME_SCALE 1 outlasts the row). */
function transactionApprovalRows(): TenancyRow[] {
  let n = 0;
  const awaiting = (action: 'approve' | 'reject') => async (t: TestPlatform, owner: TestTenant) => {
    const uma = `$tenancy.${n++}@platform.example`;
    const customerId = (await t.call('POST', '/customers', { auth: owner.sandbox, body: { customerType: 'INDIVIDUAL', fullName: 'Re Ceiver', umaAddress: uma } })).body.id;
    await internalAccountOf(t, owner.sandbox, customerId, 'USD');
    const body = { senderUmaAddress: '$sender@other.example', receiverUmaAddress: uma, receivingCurrencyCode: 'USD', receivingCurrencyAmount: 100 };
    return `/transactions/${(await t.call('POST', '/sandbox/uma/receive', { auth: owner.sandbox, body })).body.id}/${action}`;
  };
  return [
    { route: 'POST /transactions/:transactionId/approve', setup: awaiting('approve') },
    { route: 'POST /transactions/:transactionId/reject', setup: awaiting('reject') },
  ];
}

/** Customer routes; an EU customer, so the contact-verification routes succeed for the owner. */
function customerRows(): TenancyRow[] {
  let n = 0;
  const customer = async (t: TestPlatform, owner: TestTenant) =>
    (await t.call('POST', '/customers', { auth: owner.sandbox, body: { customerType: 'INDIVIDUAL', fullName: `Tenant ${n++}`, region: 'DE', email: 'x@example.de', phoneNumber: '+4915112345678' } })).body.id as string;
  const withCode = (channel: 'email' | 'phone') => async (t: TestPlatform, owner: TestTenant) => {
    const id = await customer(t, owner);
    await t.call('POST', `/customers/${id}/verify-${channel}`, { auth: owner.sandbox });
    return `/customers/${id}/verify-${channel}/confirm`;
  };
  return [
    { route: 'GET /customers/:customerId', setup: async (t, o) => `/customers/${await customer(t, o)}` },
    { route: 'PATCH /customers/:customerId', setup: async (t, o) => `/customers/${await customer(t, o)}`, body: { fullName: 'Renamed' } },
    { route: 'DELETE /customers/:customerId', setup: async (t, o) => `/customers/${await customer(t, o)}` },
    { route: 'POST /customers/:customerId/verify-email', setup: async (t, o) => `/customers/${await customer(t, o)}/verify-email` },
    { route: 'POST /customers/:customerId/verify-phone', setup: async (t, o) => `/customers/${await customer(t, o)}/verify-phone` },
    { route: 'POST /customers/:customerId/verify-email/confirm', setup: withCode('email'), body: { code: '123456' } },
    { route: 'POST /customers/:customerId/verify-phone/confirm', setup: withCode('phone'), body: { code: '123456' } },
  ];
}

/** External accounts of the owner: trusted ones for the untrust routes, an ACTIVE one for the receiver lookup. */
function externalAccountRows(): TenancyRow[] {
  const account = async (t: TestPlatform, o: TestTenant) => createExternalAccount(t, o.sandbox);
  const platformAccount = async (t: TestPlatform, o: TestTenant) => (await t.call('POST', '/platform/external-accounts', { auth: o.sandbox, body: ngnAccount() })).body.id as string;
  const trusted = async (t: TestPlatform, o: TestTenant) => {
    const id = await account(t, o);
    await trust(t, id);
    return id;
  };
  return [
    { route: 'GET /customers/external-accounts/:externalAccountId', setup: async (t, o) => `/customers/external-accounts/${await account(t, o)}` },
    { route: 'DELETE /customers/external-accounts/:externalAccountId', setup: async (t, o) => `/customers/external-accounts/${await account(t, o)}` },
    { route: 'GET /platform/external-accounts/:externalAccountId', setup: async (t, o) => `/platform/external-accounts/${await platformAccount(t, o)}` },
    { route: 'DELETE /platform/external-accounts/:externalAccountId', setup: async (t, o) => `/platform/external-accounts/${await platformAccount(t, o)}` },
    { route: 'POST /customers/external-accounts/:externalAccountId/untrust', setup: async (t, o) => `/customers/external-accounts/${await trusted(t, o)}/untrust` },
    {
      route: 'POST /customers/external-accounts/:externalAccountId/untrust/confirm',
      setup: async (t, o) => {
        const id = await trusted(t, o);
        await t.call('POST', `/customers/external-accounts/${id}/untrust`, { auth: o.sandbox });
        return `/customers/external-accounts/${id}/untrust/confirm`;
      },
      body: { code: '123456' },
    },
    {
      route: 'GET /receiver/external-account/:accountId',
      setup: async (t, o) => {
        const id = await account(t, o);
        await untilStatus(t, o.sandbox, id, 'ACTIVE');
        return `/receiver/external-account/${id}`;
      },
    },
  ];
}

/** Bulk import job of the owner, and a kyc-link for one of its customers (no channel to verify outside the EU). */
function onboardingRows(): TenancyRow[] {
  let n = 0;
  const job = async (t: TestPlatform, o: TestTenant) => `/customers/bulk/jobs/${(await uploadCsv(t, toCsv([individualRow(`tenancy-${n++}`)]), { auth: o.sandbox })).body.jobId}`;
  const customer = async (t: TestPlatform, o: TestTenant) => (await t.call('POST', '/customers', { auth: o.sandbox, body: { customerType: 'INDIVIDUAL', fullName: 'Tenant Kyc' } })).body.id as string;
  return [
    { route: 'GET /customers/bulk/jobs/:jobId', setup: job },
    { route: 'POST /customers/:customerId/kyc-link', setup: async (t, o) => `/customers/${await customer(t, o)}/kyc-link`, body: {} },
  ];
}

/** SCA passkey routes, on an EU customer of the owner; the enrolment body answers options issued in the setup. */
function scaPasskeyRows(): TenancyRow[] {
  const path = (id: string) => `/customers/${id}/sca/passkey`;
  const enrolBody: Record<string, unknown> = {};
  const enrolled = async (t: TestPlatform, o: TestTenant) => {
    const id = await createEuCustomer(t, o.sandbox);
    await enrolPasskey(t, o.sandbox, id);
    return path(id);
  };
  return [
    { route: 'POST /customers/:customerId/sca/passkey/registration-options', setup: async (t, o) => `${path(await createEuCustomer(t, o.sandbox))}/registration-options` },
    {
      route: 'POST /customers/:customerId/sca/passkey',
      setup: async (t, o) => {
        const id = await createEuCustomer(t, o.sandbox);
        Object.assign(enrolBody, await passkeyRegistration(t, o.sandbox, id));
        return path(id);
      },
      body: enrolBody,
    },
    { route: 'GET /customers/:customerId/sca/passkey', setup: enrolled },
    { route: 'DELETE /customers/:customerId/sca/passkey', setup: enrolled },
  ];
}

/** Document routes: a PDF of one of the owner's sandbox customers. */
function documentRows(): TenancyRow[] {
  const document = async (t: TestPlatform, owner: TestTenant) =>
    `/documents/${(await uploadDocument(t, await createCustomerHolder(t, owner.sandbox), { auth: owner.sandbox })).body.id}`;
  return [
    { route: 'GET /documents/:documentId', setup: document },
    { route: 'PUT /documents/:documentId', setup: document, body: { documentNumber: 'N-2' } },
    { route: 'DELETE /documents/:documentId', setup: document },
  ];
}

/** Verification and beneficial-owner routes, on the owner's sandbox customers. */
function kycRows(): TenancyRow[] {
  const owner = async (t: TestPlatform, o: TestTenant) => `/beneficial-owners/${await addOwner(t, ownerBody(await createCustomer(t, businessBody('TEN-1'), o.sandbox), 'Tenant'), o.sandbox)}`;
  const verification = async (t: TestPlatform, o: TestTenant) => {
    const customerId = await createCustomer(t, individualBody('Tenant Held 001'), o.sandbox);
    return `/verifications/${(await t.call('POST', '/verifications', { auth: o.sandbox, body: { customerId } })).body.id}`;
  };
  return [
    { route: 'GET /verifications/:verificationId', setup: verification },
    { route: 'GET /beneficial-owners/:beneficialOwnerId', setup: owner },
    { route: 'PATCH /beneficial-owners/:beneficialOwnerId', setup: owner, body: { ownershipPercentage: 30 } },
  ];
}

/** Invitation codes are shared with the invitee's platform (docs/invitations.md): only the other mode is 404. */
function invitationRows(): TenancyRow[] {
  let n = 0;
  const invitation = async (t: TestPlatform, o: TestTenant) => {
    const umaAddress = `$tenancy.${n++}@owner.example`;
    expect((await t.call('POST', '/customers', { auth: o.sandbox, body: { customerType: 'INDIVIDUAL', fullName: 'In Viter', umaAddress } })).status).toBe(201);
    const res = await t.call('POST', '/invitations', { auth: o.sandbox, body: { inviterUma: umaAddress } });
    if (res.status !== 201) throw new Error(`invitation not created: ${res.status} ${JSON.stringify(res.body)}`);
    return `/invitations/${res.body.code}`;
  };
  const shared = 'the code is handed to the invitee\'s platform, which reads and claims with it';
  return [
    { route: 'GET /invitations/:invitationCode', setup: invitation, anyPlatform: shared },
    { route: 'POST /invitations/:invitationCode/claim', setup: async (t, o) => `${await invitation(t, o)}/claim`, body: { inviteeUma: '$invitee@other.example' }, anyPlatform: shared, fresh: true },
    { route: 'POST /invitations/:invitationCode/cancel', setup: async (t, o) => `${await invitation(t, o)}/cancel`, otherPlatformStatus: { status: 403, why: 'it can read the invitation, so a 404 would lie; only the creator cancels' } },
  ];
}

/** Embedded Wallet Auth: credentials, sessions and the wallet's own routes. A 202 (the first leg) is the owner's success. */
function walletRows(): TenancyRow[] {
  const wallet = async (t: TestPlatform, o: TestTenant) => {
    await enableWallets(t, o.sandbox);
    const { accountId } = await walletCustomer(t, o.sandbox);
    const credential = (await t.call('GET', `/auth/credentials?accountId=${encodeURIComponent(accountId)}`, { auth: o.sandbox })).body.data[0];
    return { accountId, credentialId: credential.id as string };
  };
  const session = async (t: TestPlatform, o: TestTenant) => {
    const { credentialId } = await wallet(t, o);
    return (await otpLogin(t, credentialId, { auth: o.sandbox })).session.id as string;
  };
  // The verify body carries the OTP sealed to the owner's current target bundle: set up with the path.
  const verify = { body: {} as unknown };
  return [
    { route: 'POST /auth/credentials/:id/challenge', setup: async (t, o) => `/auth/credentials/${(await wallet(t, o)).credentialId}/challenge`, body: {} },
    {
      route: 'POST /auth/credentials/:id/verify',
      setup: async (t, o) => {
        const { credentialId } = await wallet(t, o);
        const challenged = await t.call('POST', `/auth/credentials/${credentialId}/challenge`, { auth: o.sandbox, body: {} });
        verify.body = { type: 'EMAIL_OTP', encryptedOtpBundle: await encryptOtp(challenged.body.otpEncryptionTargetBundle, '000000', clientKey().publicKeyCompressed) };
        return `/auth/credentials/${credentialId}/verify`;
      },
      get body() {
        return verify.body;
      },
    },
    {
      route: 'DELETE /auth/credentials/:id',
      setup: async (t, o) => {
        const { accountId, credentialId } = await wallet(t, o);
        const { key } = await otpLogin(t, credentialId, { auth: o.sandbox });
        const now = Math.floor(Date.now() / 1000);
        const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
        const oidcToken = `${b64({ alg: 'RS256' })}.${b64({ iss: 'https://accounts.google.com', aud: 'app', sub: `s-${now}-${Math.random()}`, iat: now, exp: now + 600 })}.c2ln`;
        const added = await signed(t, 'POST', '/auth/credentials', { type: 'OAUTH', accountId, oidcToken }, key, o.sandbox);
        if (added.final.status !== 201) throw new Error(`credential not added: ${added.final.status} ${JSON.stringify(added.final.body)}`);
        return `/auth/credentials/${credentialId}`; // not the last one: the owner's first leg answers 202
      },
    },
    { route: 'DELETE /auth/sessions/:id', setup: async (t, o) => `/auth/sessions/${await session(t, o)}` },
    { route: 'POST /auth/sessions/:id/refresh', setup: async (t, o) => `/auth/sessions/${await session(t, o)}/refresh`, body: { clientPublicKey: clientKey().publicKeyCompressed } },
    { route: 'PATCH /internal-accounts/:id', setup: async (t, o) => `/internal-accounts/${(await wallet(t, o)).accountId}`, body: { privateEnabled: true } },
    { route: 'POST /internal-accounts/:id/export', setup: async (t, o) => `/internal-accounts/${(await wallet(t, o)).accountId}/export`, body: { clientPublicKey: clientKey().publicKeyUncompressed } },
  ];
}

function cardRows(): TenancyRow[] {
  const card = async (t: TestPlatform, o: TestTenant) => {
    const { customerId, account } = await cardholder(t, 100_000, o.sandbox);
    return (await activeCard(t, customerId, [account], {}, o.sandbox)).id as string;
  };
  /** A card and one of its transactions, taken through `steps` (simulations with the transaction id). */
  const transaction = async (t: TestPlatform, o: TestTenant, steps: [string, Record<string, unknown>][]) => {
    const cardId = await card(t, o);
    return { cardId, cardTransactionId: await cardTransactionAfter(t, cardId, steps, o.sandbox) };
  };
  const onTransaction = (kind: string, steps: [string, Record<string, unknown>][], extra: Record<string, unknown>): TenancyRow => {
    const bodies = { body: {} as unknown };
    return {
      route: `POST /sandbox/cards/:id/simulate/${kind}`,
      setup: async (t, o) => {
        const { cardId, cardTransactionId } = await transaction(t, o, steps);
        bodies.body = { cardTransactionId, ...extra };
        return `/sandbox/cards/${cardId}/simulate/${kind}`;
      },
      get body() {
        return bodies.body;
      },
    };
  };
  const merchant = { descriptor: 'TENANCY TEST' };
  return [
    { route: 'GET /cards/:id', setup: async (t, o) => `/cards/${await card(t, o)}` },
    { route: 'PATCH /cards/:id', setup: async (t, o) => `/cards/${await card(t, o)}`, body: { maxSpendPerTransaction: 500 } },
    { route: 'POST /cards/:id/reveal', setup: async (t, o) => `/cards/${await card(t, o)}/reveal` },
    ...['authorization', 'credit_authorization', 'credit_authorization_advice', 'financial_authorization', 'financial_credit_authorization'].map(
      (kind): TenancyRow => ({ route: `POST /sandbox/cards/:id/simulate/${kind}`, setup: async (t, o) => `/sandbox/cards/${await card(t, o)}/simulate/${kind}`, body: purchase(100) }),
    ),
    { route: 'POST /sandbox/cards/:id/simulate/balance_inquiry', setup: async (t, o) => `/sandbox/cards/${await card(t, o)}/simulate/balance_inquiry`, body: { merchant } },
    onTransaction('authorization_advice', [], { amount: 1_200 }),
    onTransaction('clearing', [], { amount: 500 }),
    onTransaction('return', [['clearing', { amount: 1_000 }]], { amount: 100 }),
    onTransaction('return_reversal', [['clearing', { amount: 1_000 }], ['return', { amount: 1_000 }]], {}),
  ];
}

function delegatedKeyRows(): TenancyRow[] {
  const delegatedKey = async (t: TestPlatform, o: TestTenant) => {
    await enableWallets(t, o.sandbox);
    const { accountId, cardId, key } = await walletFundedCard(t, o.sandbox);
    const { final } = await delegatedKeyLegs(t, { cardId, internalAccountId: accountId, nickname: 'Tenancy' }, key, o.sandbox);
    if (final.status !== 201) throw new Error(`delegated key: ${final.status} ${JSON.stringify(final.body)}`);
    return final.body.id as string;
  };
  return [
    { route: 'GET /auth/delegated-keys/:id', setup: async (t, o) => `/auth/delegated-keys/${await delegatedKey(t, o)}` },
    { route: 'DELETE /auth/delegated-keys/:id', setup: async (t, o) => `/auth/delegated-keys/${await delegatedKey(t, o)}` },
  ];
}

/**
 * Agent Management (platform credentials). The approve and reject rows need an action waiting in PENDING_APPROVAL:
 * an agent with APPROVAL_REQUIRED and CREATE_TRANSFERS, its device code redeemed, a transfer-in asked with its token.
 */
/** Stablecoin links, stablecoins and operations of the owner (its Spark wallet and bank account as destinations). */
function stablecoinRows(): TenancyRow[] {
  const made = new Map<TestTenant, { linkId: string; stablecoinId: string; wallet: string; bank: string }>();
  const owned = async (t: TestPlatform, o: TestTenant) => {
    if (!made.has(o)) {
      const linkId = (await link(t, o.sandbox)).id;
      const stablecoinId = (await register(t, o.sandbox, linkId)).id;
      const bank = (await t.call('POST', '/platform/external-accounts', { auth: o.sandbox, body: usdBankAccount('789') })).body.id;
      await eventually(async () => (await t.call('GET', `/platform/external-accounts/${bank}`, { auth: o.sandbox })).body.status === 'ACTIVE', { what: `${bank} ACTIVE` });
      made.set(o, { linkId, stablecoinId, wallet: await sparkWallet(t, o.sandbox), bank });
    }
    return made.get(o)!;
  };
  const wireMint = async (t: TestPlatform, o: TestTenant) => {
    const { stablecoinId, wallet } = await owned(t, o);
    const res = await t.call('POST', `/stablecoins/${stablecoinId}/mints`, { auth: o.sandbox, headers: idem(), body: { amount: '1000000', fundingSource: { type: 'WIRE' }, destination: { accountId: wallet } } });
    if (res.status !== 201) throw new Error(`mint: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id as string;
  };
  let ownerWallet = '';
  let ownerBank = '';
  return [
    { route: 'GET /stablecoin-provider-accounts/:stablecoinProviderAccountId', setup: async (t, o) => `/stablecoin-provider-accounts/${(await owned(t, o)).linkId}` },
    { route: 'GET /stablecoins/:stablecoinId', setup: async (t, o) => `/stablecoins/${(await owned(t, o)).stablecoinId}` },
    { route: 'GET /stablecoins/:stablecoinId/operations', setup: async (t, o) => `/stablecoins/${(await owned(t, o)).stablecoinId}/operations` },
    {
      route: 'POST /stablecoins/:stablecoinId/mints',
      setup: async (t, o) => {
        const { stablecoinId, wallet } = await owned(t, o);
        ownerWallet = wallet;
        return `/stablecoins/${stablecoinId}/mints`;
      },
      body: () => ({ amount: '1000000', fundingSource: { type: 'PROVIDER_INTERNAL_BALANCE', sourceTokenIdentifier: 'USDC', cryptoNetwork: 'SOLANA' }, destination: { accountId: ownerWallet } }),
      headers: idem,
    },
    {
      route: 'POST /stablecoins/:stablecoinId/burns',
      setup: async (t, o) => {
        const { stablecoinId, bank } = await owned(t, o);
        ownerBank = bank;
        return `/stablecoins/${stablecoinId}/burns`;
      },
      body: () => ({ amount: '1000000', source: { type: 'PROVIDER_INTERNAL_BALANCE' }, destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: ownerBank, rail: 'WIRE' } }),
      headers: idem,
    },
    { route: 'GET /stablecoin-operations/:stablecoinOperationId', setup: async (t, o) => `/stablecoin-operations/${await wireMint(t, o)}` },
    { route: 'POST /sandbox/stablecoin-operations/:stablecoinOperationId/fund', setup: async (t, o) => `/sandbox/stablecoin-operations/${await wireMint(t, o)}/fund`, fresh: true },
  ];
}

/** A finished webhook of the owner's sandbox (a dead letter without an endpoint), queued as the bus consumer queues one. */
function webhookDeliveryRows(): TenancyRow[] {
  const finishedWebhook = async (t: TestPlatform, owner: TestTenant) => {
    const platformId = await platformIdOf(t, owner);
    const { webhooks } = t.platform;
    const webhookId = (await webhooks.queue.enqueue(webhooks.host.dataSource.manager, { eventId: null, platformId, mode: 'SANDBOX', type: 'CUSTOMER.KYC_APPROVED', data: { id: 'Customer:tenancy' }, retryable: true }))!;
    webhooks.worker.nudge();
    await eventually(async () => (await webhooks.queue.get(webhookId))?.status !== 'PENDING', { what: `${webhookId} finished` });
    return webhookId;
  };
  return [
    { route: 'GET /webhook-deliveries/:webhookId', setup: async (t, o) => `/webhook-deliveries/${await finishedWebhook(t, o)}` },
    { route: 'POST /webhook-deliveries/:webhookId/redeliver', setup: async (t, o) => `/webhook-deliveries/${await finishedWebhook(t, o)}/redeliver` },
  ];
}

function agentRows(): TenancyRow[] {
  let n = 0;
  const policy = { permissions: ['CREATE_TRANSFERS'], defaultExecutionMode: 'APPROVAL_REQUIRED', spendingLimits: { currency: 'USD', perTransactionLimit: 1_000_000 } };
  const customerOf = async (t: TestPlatform, o: TestTenant) => (await t.call('POST', '/customers', { auth: o.sandbox, body: { customerType: 'INDIVIDUAL', fullName: `Agent Owner ${n++}` } })).body.id as string;
  const created = async (t: TestPlatform, o: TestTenant, customerId?: string) => {
    const res = await t.call('POST', '/agents', { auth: o.sandbox, body: { name: `Tenancy agent ${n++}`, customerId: customerId ?? (await customerOf(t, o)), policy } });
    if (res.status !== 201) throw new Error(`agent not created: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { agent: { id: string }; deviceCode: { code: string } };
  };
  const agent = async (t: TestPlatform, o: TestTenant) => `/agents/${(await created(t, o)).agent.id}`;
  const pendingAction = (verb: 'approve' | 'reject') => async (t: TestPlatform, o: TestTenant) => {
    const customerId = await customerOf(t, o);
    const internal = await internalAccountOf(t, o.sandbox, customerId, 'USD');
    const external = await t.call('POST', '/customers/external-accounts', { auth: o.sandbox, body: { customerId, ...usdBankAccount('789') } });
    if (external.status !== 201) throw new Error(`external account: ${external.status} ${JSON.stringify(external.body)}`);
    await untilStatus(t, o.sandbox, external.body.id, 'ACTIVE');
    const { agent: { id: agentId }, deviceCode } = await created(t, o, customerId);
    // No Authorization header (an empty `auth`): the device code is the proof.
    const redeemed = await t.call('POST', `/agents/device-codes/${encodeURIComponent(deviceCode.code)}/redeem`, { auth: '' });
    if (redeemed.status !== 200) throw new Error(`device code not redeemed: ${redeemed.status} ${JSON.stringify(redeemed.body)}`);
    const action = await t.call('POST', '/agents/me/transfer-in', { auth: `Bearer ${redeemed.body.accessToken}`, body: { source: { accountId: external.body.id }, destination: { accountId: internal }, amount: 100 } });
    if (action.status !== 201 || action.body.status !== 'PENDING_APPROVAL') throw new Error(`no action waiting for approval: ${action.status} ${JSON.stringify(action.body)}`);
    return `/agents/${agentId}/actions/${action.body.id}/${verb}`;
  };
  /** A redeemed access token of a fresh agent, by its id (the platform never sees the token). */
  const accessToken = async (t: TestPlatform, o: TestTenant) => {
    const { agent: { id: agentId }, deviceCode } = await created(t, o);
    const redeemed = await t.call('POST', `/agents/device-codes/${encodeURIComponent(deviceCode.code)}/redeem`, { auth: '' });
    if (redeemed.status !== 200) throw new Error(`device code not redeemed: ${redeemed.status} ${JSON.stringify(redeemed.body)}`);
    const listed = await t.call('GET', `/agents/${agentId}/access-tokens`, { auth: o.sandbox });
    return `/agents/${agentId}/access-tokens/${listed.body.data[0].id}`;
  };
  return [
    { route: 'GET /agents/:agentId', setup: agent },
    { route: 'PATCH /agents/:agentId', setup: agent, body: { name: 'Renamed agent' } },
    { route: 'DELETE /agents/:agentId', setup: agent },
    { route: 'PATCH /agents/:agentId/policy', setup: async (t, o) => `${await agent(t, o)}/policy`, body: { defaultExecutionMode: 'AUTO' } },
    { route: 'POST /agents/:agentId/device-codes', setup: async (t, o) => `${await agent(t, o)}/device-codes` },
    { route: 'GET /agents/device-codes/:code/status', setup: async (t, o) => `/agents/device-codes/${encodeURIComponent((await created(t, o)).deviceCode.code)}/status` },
    { route: 'GET /agents/:agentId/access-tokens', setup: async (t, o) => `${await agent(t, o)}/access-tokens` },
    { route: 'DELETE /agents/:agentId/access-tokens/:tokenId', setup: accessToken },
    { route: 'POST /agents/:agentId/actions/:actionId/approve', setup: pendingAction('approve') },
    { route: 'POST /agents/:agentId/actions/:actionId/reject', setup: pendingAction('reject'), body: { reason: 'not today' } },
  ];
}

/** Routes no other platform's Basic credentials can be tried on (test-tenancy.ts), as the router spells them. */
const notPlatformCredentialRoutes = new Set([...NOT_PLATFORM_CREDENTIAL_OPERATIONS].map((op) => op.replace(/\{(\w+)\}/g, ':$1')));

describe('tenancy: another platform or mode sees 404', () => {
  let t: TestPlatform;
  let owner: TestTenant;
  let stranger: TestTenant;
  beforeAll(async () => {
    // Every platform credential is refused on every operator route (more than the 10 failed attempts a client id may
    // have in a window): the failed-authentication limit is auth-throttle.e2e.spec.ts's subject, not this suite's.
    t = await startTestPlatform({ AUTH_FAILURES_PER_CLIENT: '0', AUTH_FAILURES_PER_ADDRESS: '0' });
    owner = t.tenant;
    stranger = await t.createTenant('stranger');
  });
  afterAll(() => t.stop());

  it('has a row for every served route that takes a path parameter', () => {
    const parameterised = servedRoutes(t.platform.gateway.server)
      .filter((r) => r.path.includes(':') && r.path.startsWith(`/${API_VERSION}/`))
      .map((r) => `${r.method} ${r.path.replace(`/${API_VERSION}`, '')}`)
      .filter((r) => !notPlatformCredentialRoutes.has(r));
    expect(parameterised.filter((r) => !rows.some((row) => row.route === r))).toEqual([]);
  });

  it.each(rows.map((row) => [row.route, row] as const))('%s', async (_route, row) => {
    const path = await row.setup(t, owner);
    const pathFor = async () => (row.fresh ? row.setup(t, owner) : path);
    const method = row.route.split(' ')[0];
    const call = (target: string, auth: string) => t.call(method, target, { auth, body: typeof row.body === 'function' ? row.body() : row.body, headers: row.headers?.() });
    if (row.anyPlatform) expect((await call(await pathFor(), stranger.sandbox)).status).toBeLessThan(300);
    if (row.otherPlatformStatus) expect((await call(path, stranger.sandbox)).status).toBe(row.otherPlatformStatus.status);
    const seenByOthers = row.anyPlatform !== undefined || row.otherPlatformStatus !== undefined;
    for (const [who, auth] of foreignCallers(owner, stranger).filter(([, auth]) => !seenByOthers || auth !== stranger.sandbox)) {
      const res = await call(await pathFor(), auth);
      expect({ who, notFound: isNotFound(res), status: res.status, code: res.body?.code }).toEqual({ who, notFound: true, status: 404, code: expect.stringMatching(/NOT_FOUND$/) });
    }
    const own = await call(await pathFor(), owner.sandbox);
    expect(own.status).toBeLessThan(300); // the resource was there all along
  });

  it('keeps the operator API from every platform credential (401) and from operators below the role (403), changing nothing', async () => {
    const viewer = await t.createOperator('VIEWER', 'tenancy viewer');
    const operatorRoutes = servedRoutes(t.platform.gateway.server).filter((r) => r.path.startsWith(`${OPERATOR_API_PREFIX}/`) && !r.path.endsWith('/openapi.json') && !r.path.endsWith('/docs') && !r.path.endsWith('/init.js'));
    expect(operatorRoutes.length).toBe(OPERATOR_OPERATIONS.length);
    const events = async () => Number((await t.platform.identity.host.dataSource.query(`SELECT count(*)::int AS n FROM identity.events`))[0].n);
    const before = await events();
    for (const route of operatorRoutes) {
      const path = route.path.slice(OPERATOR_API_PREFIX.length).replace(/:(\w+)/g, 'x');
      const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : {};
      for (const auth of [owner.sandbox, owner.production, stranger.sandbox, stranger.production]) {
        const res = await t.operatorCall(route.method, path, { auth, body });
        expect({ route: `${route.method} ${route.path}`, status: res.status, code: res.body?.code }).toEqual({ route: `${route.method} ${route.path}`, status: 401, code: 'UNAUTHORIZED' });
      }
      const declared = OPERATOR_OPERATIONS.find((op) => op.method === route.method && `${OPERATOR_API_PREFIX}${op.path.replace(/\{(\w+)\}/g, ':$1')}` === route.path);
      if (declared?.operatorRole !== 'VIEWER') {
        const res = await t.operatorCall(route.method, path, { auth: viewer.auth, body });
        expect({ route: `${route.method} ${route.path}`, status: res.status }).toEqual({ route: `${route.method} ${route.path}`, status: 403 });
      }
    }
    expect(await events()).toBe(before); // refusals record nothing
  });

  it('keeps collections and the configuration per platform and mode', async () => {
    await t.call('PATCH', '/config', { auth: owner.sandbox, body: { umaDomain: 'owner.example.com' } });
    const theirs = await t.call('GET', '/config', { auth: stranger.sandbox });
    const mine = await t.call('GET', '/config', { auth: owner.sandbox });
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect(theirs.body.umaDomain).toBe('sandbox.uma.money'); // the sandbox default, not the owner's domain
    expect((await t.call('GET', '/config', { auth: owner.production })).body.umaDomain).toBeUndefined();
    const ownerTokens = (await t.call('GET', '/tokens?limit=100', { auth: owner.sandbox })).body.data.map((x: { id: string }) => x.id);
    const strangerTokens = (await t.call('GET', '/tokens?limit=100', { auth: stranger.sandbox })).body.data.map((x: { id: string }) => x.id);
    expect(strangerTokens.filter((id: string) => ownerTokens.includes(id))).toEqual([]);
  });
});
