import type { HttpResult } from '@payments/testing';
import { eventually } from '@payments/testing';
import { activeCard, cardholder, cardTransactionAfter } from './test-cards';
import { walletFundedCard } from './test-delegated-keys';
import { sendForm, tinyPdf } from './test-documents';
import { createExternalAccount, trust, untilStatus } from './test-external-accounts';
import { businessBody, createCustomer, ownerBody } from './test-kyc';
import { usdBankAccount } from './test-payments';
import { startTestPlatform, TestPlatform, TestTenant } from './test-platform';
import { internalAccountOf } from './test-quotes';
import { idem, link, register, sparkWallet, tokenIdentifier } from './test-stablecoins';
import { eventsOfPlatform, settledEventsOfPlatform, foreignCallers, isNotFound, namesField, NOT_PLATFORM_CREDENTIAL_OPERATIONS, platformIdOf, servedDocument } from './test-tenancy';
import { enableWallets } from './test-wallet';

/**
 * Tenancy of request bodies (issue #42 a). Every write whose body names a resource by id — the fields are read from
 * the request schemas of the OpenAPI document the gateway serves, so a new field fails the coverage test until it is
 * a row here or named in NOT_A_REFERENCE with why — is sent with the owner's sandbox resource in that field by a
 * caller that must not see it: another platform's sandbox (the rest of the body and the path its own resources, so
 * only the field under test is foreign), another platform's production and the owner's production (the whole
 * request the owner's). Each must be answered as for an id that does not exist, as docs/api-conventions.md publishes
 * it: 404 with the resource's not-found code (USER_NOT_FOUND for a customer, REFERENCE_NOT_FOUND for an account, …),
 * or, where the id only has to match something the path's resource holds (a lookup issued for the destination, the
 * open untrust challenge), the 400 naming the field that the same id of the caller's own would get. And it must
 * record nothing: no event of the caller's platform (any service's event store), the caller's list unchanged. The
 * owner's own request with the same body then succeeds, so the id really names something.
 */

/** Free-text body fields that name no resource of a platform, and why a value of another platform's cannot reach one. */
const NOT_A_REFERENCE: Record<string, string> = {
  // Conditions, not look-ups: an agent's policy names accounts it may use; every use is checked against the agent's customer (docs/agents.md).
  allowedAccountIds: "a condition of an agent's policy, checked at every use against the customer's accounts (docs/agents.md): a foreign id never matches one",
  // The caller's own labels: unique per platform and mode, never looked up across them.
  platformAccountId: "the platform's own label",
  platformCardId: "the platform's own label",
  platformCustomerId: "the platform's own label",
  // Addresses and identifiers of the world outside the platform.
  umaAddress: "a UMA address the caller gives its customer, or any receiver's (paying anyone's address is what UMA is for)",
  inviteeUma: "the invitee's address at its own platform (docs/invitations.md)",
  senderUmaAddress: "a sender's UMA address anywhere (public)",
  destinationAddress: 'a blockchain address',
  apiClientId: "the stablecoin provider's credential",
  apiClientSecret: "the stablecoin provider's credential",
  providerAccountId: "an account at the stablecoin provider",
  providerTokenIdentifier: "the provider's name of a token",
  networkTokenIdentifier: "a token's identifier on its network",
  sourceTokenIdentifier: "a token's identifier on its network",
  credentialId: "a WebAuthn credential id (the authenticator's); the path names the platform's credential",
  userHandle: 'WebAuthn',
  challenge: 'WebAuthn',
  attestationObject: 'WebAuthn',
  authenticatorData: 'WebAuthn',
  clientDataJson: 'WebAuthn',
  signature: 'WebAuthn',
  oidcToken: "an identity provider's token",
  clientPublicKey: "the client's key",
  encryptedOtpBundle: 'a sealed one-time code',
  code: 'a one-time code',
  origin: 'a web origin',
  redirectUri: 'a URL',
  webhookEndpoint: 'a URL',
  file: 'the bytes of a file',
  identifier: 'a tax or national id number',
  taxId: 'a tax id number',
  registrationNumber: 'a company register number',
  naicsCode: 'an industry code',
  mcc: 'a merchant category code',
  descriptor: "a merchant's name",
  documentNumber: "a document's number",
  issuingAuthority: "an authority's name",
  termsVersion: "the version of the platform's terms",
  threeDSecurePassword: "a card's 3-D Secure password",
  endUserIpAddress: 'an IP address',
  // Amounts, codes of currencies, countries and networks.
  amount: 'an amount',
  currency: 'a currency code',
  currencyCode: 'a currency code',
  receivingCurrencyCode: 'a currency code',
  sourceCurrency: 'a currency code',
  currencies: 'currency codes',
  country: 'a country code',
  countryOfIssuance: 'a country code',
  nationality: 'a country code',
  region: 'a country code',
  countriesOfOperation: 'country codes',
  expectedCounterpartyCountries: 'country codes',
  expectedRecipientJurisdictions: 'country codes',
  cryptoNetwork: 'a network name',
  paymentRail: 'a rail name',
  // Names and text.
  name: 'a name', nickname: 'a name', fullName: 'a name', firstName: 'a name', middleName: 'a name', lastName: 'a name', legalName: 'a name', doingBusinessAs: 'a name',
  primaryContactFirstName: 'a name', primaryContactLastName: 'a name', appName: 'a name', sendFromEmailSenderName: 'a name',
  description: 'text', reason: 'text', remittanceInformation: 'text', sourceOfFunds: 'text', purposeOfAccountOtherDescription: 'text', sourceOfFundsOtherDescription: 'text', sourceOfWealthOtherDescription: 'text',
  phoneNumber: 'a phone number', line1: 'an address line', line2: 'an address line', city: 'a city', state: 'a state', postalCode: 'a postal code',
};
// An agent rule's accountId is a condition like allowedAccountIds; every other accountId is a reference (rows below).
const CONDITION_PATHS = new Set(['policy.accountRestrictions.accountRules[].accountId', 'accountRestrictions.accountRules[].accountId']);
/** Reference fields no caller can use on this deployment, so none has an owner's request to succeed: why. */
const REFUSED_TO_EVERYONE: Record<string, string> = {
  'POST /stablecoins/{stablecoinId}/burns source.accountId': 'a GRID_INTERNAL_ACCOUNT source needs Grid operations, which no stablecoin has here: 400 naming it for every caller, before any look-up (stablecoins.e2e)',
};

/** Values of a request: body field paths as the document spells them (`source.accountId`, `fundingSources[]`) and path ids (`:cardId`). */
type Values = Record<string, string>;

interface BodyRow {
  /** `METHOD /path/{param}` as the document spells it. */
  operation: string;
  /** The body fields that name a resource (their values in `Values`), each tried foreign on its own. */
  fields: string[];
  /** The resources the request names, made anew in the sandbox of `auth` (the owner's, and another platform's). */
  setup: (t: TestPlatform, auth: string) => Promise<Values>;
  request: (v: Values) => { path: string; body: Record<string, unknown> };
  /** Sent as multipart/form-data (the body's fields as text fields, with a file). */
  multipart?: boolean;
  headers?: () => Record<string, string>;
  /** What the caller sees of the kind (a list or its own resource): the same before and after a refused request. */
  seen?: (v: Values) => string;
  /**
   * How an id that names nothing of the caller's is refused: 'not found' (404 with the kind's code), or, where the id
   * has to match what the path's resource holds, the 400 naming the field (as for a wrong id of the caller's own).
   */
  refusal: Refusal | Record<string, Refusal>;
}
type Refusal = 'not found' | 'names the field';

/** What one sandbox tenant has, made once and shared by the rows that only read it. */
interface World {
  customerId: string;
  umaAddress: string;
  usd: string;
  external: string;
  businessId: string;
  ngnExternal: string;
}

const worlds = new Map<string, Promise<World>>();
let serial = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${serial++}`;

function worldOf(t: TestPlatform, auth: string): Promise<World> {
  if (!worlds.has(auth)) worlds.set(auth, makeWorld(t, auth));
  return worlds.get(auth)!;
}

async function makeWorld(t: TestPlatform, auth: string): Promise<World> {
  const umaAddress = `$${unique('body')}@platform.example`;
  const customerId = await createCustomer(t, { customerType: 'INDIVIDUAL', fullName: 'Body Owner', umaAddress }, auth);
  const usd = await internalAccountOf(t, auth, customerId, 'USD');
  expect((await t.call('POST', `/sandbox/internal-accounts/${usd}/fund`, { auth, body: { amount: 1_000_000 } })).status).toBe(200);
  const created = await t.call('POST', '/customers/external-accounts', { auth, body: { customerId, ...usdBankAccount('789') } });
  expect(created.status).toBe(201);
  await untilStatus(t, auth, created.body.id, 'ACTIVE');
  const businessId = await createCustomer(t, businessBody(unique('BODY').toUpperCase()), auth);
  return { customerId, umaAddress, usd, external: created.body.id, businessId, ngnExternal: await createExternalAccount(t, auth) };
}

/** A PENDING REALTIME_FUNDING quote of the world's customer to its NGN external account (what /sandbox/send funds). */
async function realtimeQuoteOf(t: TestPlatform, auth: string, w: World): Promise<string> {
  const source = { sourceType: 'REALTIME_FUNDING', customerId: w.customerId, currency: 'USD' };
  const res = await t.call('POST', '/quotes', { auth, body: { source, destination: { destinationType: 'ACCOUNT', accountId: w.ngnExternal }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000 } });
  if (res.status !== 201) throw new Error(`quote: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

/** A registered stablecoin, a Spark wallet (mint destination) and an ACTIVE platform bank account (burn destination). */
async function stablecoinWorld(t: TestPlatform, auth: string): Promise<Values> {
  const linkId = (await link(t, auth)).id as string;
  const stablecoinId = (await register(t, auth, linkId)).id as string;
  const bank = (await t.call('POST', '/platform/external-accounts', { auth, body: usdBankAccount('789') })).body.id as string;
  await eventually(async () => (await t.call('GET', `/platform/external-accounts/${bank}`, { auth })).body.status === 'ACTIVE', { what: `${bank} ACTIVE` });
  return { linkId, ':stablecoinId': stablecoinId, wallet: await sparkWallet(t, auth), bank };
}

/** A card of an approved cardholder with a funded USD account (a fresh one: the simulations change it). */
async function cardOf(t: TestPlatform, auth: string): Promise<{ cardId: string; customerId: string; account: string }> {
  const { customerId, account } = await cardholder(t, 100_000, auth);
  return { cardId: (await activeCard(t, customerId, [account], {}, auth)).id as string, customerId, account };
}

const receive = { senderUmaAddress: '$sender@other.example', receivingCurrencyCode: 'USD', receivingCurrencyAmount: 100 };
const transfers = '/transactions?limit=100';

const rows: BodyRow[] = [
  {
    operation: 'POST /transfer-in',
    fields: ['source.accountId', 'destination.accountId'],
    setup: async (t, auth) => {
      const w = await worldOf(t, auth);
      return { 'source.accountId': w.external, 'destination.accountId': w.usd };
    },
    request: (v) => ({ path: '/transfer-in', body: { source: { accountId: v['source.accountId'] }, destination: { accountId: v['destination.accountId'] }, amount: 100 } }),
    seen: () => transfers,
    refusal: 'not found',
  },
  {
    operation: 'POST /transfer-out',
    fields: ['source.accountId', 'destination.accountId'],
    setup: async (t, auth) => {
      const w = await worldOf(t, auth);
      return { 'source.accountId': w.usd, 'destination.accountId': w.external };
    },
    request: (v) => ({ path: '/transfer-out', body: { source: { accountId: v['source.accountId'] }, destination: { accountId: v['destination.accountId'] }, amount: 100 } }),
    seen: () => transfers,
    refusal: 'not found',
  },
  {
    operation: 'POST /quotes',
    fields: ['source.accountId', 'destination.accountId'],
    setup: async (t, auth) => {
      const w = await worldOf(t, auth);
      return { 'source.accountId': w.usd, 'destination.accountId': w.ngnExternal };
    },
    request: (v) => ({ path: '/quotes', body: { source: { sourceType: 'ACCOUNT', accountId: v['source.accountId'] }, destination: { destinationType: 'ACCOUNT', accountId: v['destination.accountId'] }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000 } }),
    refusal: 'not found',
  },
  {
    operation: 'POST /quotes',
    fields: ['source.customerId'],
    setup: async (t, auth) => {
      const w = await worldOf(t, auth);
      return { 'source.customerId': w.customerId, destination: w.ngnExternal };
    },
    request: (v) => ({ path: '/quotes', body: { source: { sourceType: 'REALTIME_FUNDING', customerId: v['source.customerId'], currency: 'USD' }, destination: { destinationType: 'ACCOUNT', accountId: v.destination }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000 } }),
    refusal: 'not found',
  },
  {
    // A lookup is issued for one destination of one platform: another's is refused as a wrong lookupId (400 naming it, external-accounts-conformance).
    operation: 'POST /quotes',
    fields: ['lookupId'],
    setup: async (t, auth) => {
      const w = await worldOf(t, auth);
      const lookup = await t.call('GET', `/receiver/external-account/${w.ngnExternal}`, { auth });
      expect(lookup.status).toBe(200);
      return { lookupId: lookup.body.lookupId, source: w.usd, destination: w.ngnExternal };
    },
    request: (v) => ({ path: '/quotes', body: { lookupId: v.lookupId, source: { sourceType: 'ACCOUNT', accountId: v.source }, destination: { destinationType: 'ACCOUNT', accountId: v.destination }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000 } }),
    refusal: 'names the field',
  },
  {
    operation: 'POST /sandbox/send',
    fields: ['quoteId'],
    setup: async (t, auth) => ({ quoteId: await realtimeQuoteOf(t, auth, await worldOf(t, auth)) }),
    request: (v) => ({ path: '/sandbox/send', body: { quoteId: v.quoteId, currencyCode: 'USD' } }),
    seen: () => transfers,
    refusal: 'not found',
  },
  {
    operation: 'POST /sandbox/uma/receive',
    fields: ['receiverUmaAddress'],
    setup: async (t, auth) => ({ receiverUmaAddress: (await worldOf(t, auth)).umaAddress }),
    request: (v) => ({ path: '/sandbox/uma/receive', body: { ...receive, receiverUmaAddress: v.receiverUmaAddress } }),
    seen: () => transfers,
    refusal: 'not found',
  },
  {
    operation: 'POST /sandbox/uma/receive',
    fields: ['customerId'],
    setup: async (t, auth) => ({ customerId: (await worldOf(t, auth)).customerId }),
    request: (v) => ({ path: '/sandbox/uma/receive', body: { ...receive, customerId: v.customerId } }),
    seen: () => transfers,
    refusal: 'not found',
  },
  {
    operation: 'POST /invitations',
    fields: ['inviterUma'],
    setup: async (t, auth) => ({ inviterUma: (await worldOf(t, auth)).umaAddress }),
    request: (v) => ({ path: '/invitations', body: { inviterUma: v.inviterUma } }),
    refusal: 'not found',
  },
  {
    operation: 'POST /customers/external-accounts',
    fields: ['customerId'],
    setup: async (t, auth) => ({ customerId: (await worldOf(t, auth)).customerId }),
    request: (v) => ({ path: '/customers/external-accounts', body: { customerId: v.customerId, ...usdBankAccount('791') } }),
    seen: () => '/customers/external-accounts?limit=100',
    refusal: 'not found',
  },
  {
    // The challenge is the path's account's: another id is "not the open challenge", the 400 naming challengeId.
    operation: 'POST /customers/external-accounts/{externalAccountId}/untrust/confirm',
    fields: ['challengeId'],
    setup: async (t, auth) => {
      const id = await createExternalAccount(t, auth);
      await trust(t, id);
      const begun = await t.call('POST', `/customers/external-accounts/${id}/untrust`, { auth });
      expect(begun.status).toBe(200);
      return { ':externalAccountId': id, challengeId: begun.body.scaChallenge.id };
    },
    request: (v) => ({ path: `/customers/external-accounts/${v[':externalAccountId']}/untrust/confirm`, body: { challengeId: v.challengeId, code: '123456' } }),
    seen: (v) => `/customers/external-accounts/${v[':externalAccountId']}`,
    refusal: 'names the field',
  },
  {
    operation: 'POST /verifications',
    fields: ['customerId'],
    setup: async (t, auth) => ({ customerId: await createCustomer(t, { customerType: 'INDIVIDUAL', fullName: 'Body Verified' }, auth) }),
    request: (v) => ({ path: '/verifications', body: { customerId: v.customerId } }),
    seen: () => '/verifications?limit=100',
    refusal: 'not found',
  },
  {
    operation: 'POST /beneficial-owners',
    fields: ['customerId'],
    setup: async (t, auth) => ({ customerId: (await worldOf(t, auth)).businessId }),
    request: (v) => ({ path: '/beneficial-owners', body: ownerBody(v.customerId, 'Bodyowner') }),
    seen: () => '/beneficial-owners?limit=100',
    refusal: 'not found',
  },
  {
    operation: 'POST /documents',
    fields: ['documentHolder'],
    setup: async (t, auth) => ({ documentHolder: (await worldOf(t, auth)).customerId }),
    request: (v) => ({ path: '/documents', body: { documentHolder: v.documentHolder, documentType: 'PASSPORT', country: 'DE' } }),
    multipart: true,
    seen: () => '/documents?limit=100',
    refusal: 'not found',
  },
  {
    operation: 'POST /agents',
    fields: ['customerId'],
    setup: async (t, auth) => ({ customerId: (await worldOf(t, auth)).customerId }),
    request: (v) => ({ path: '/agents', body: { name: unique('Body agent'), customerId: v.customerId, policy: { permissions: ['VIEW_TRANSACTIONS'], defaultExecutionMode: 'AUTO', spendingLimits: { currency: 'USD', perTransactionLimit: 1_000 } } } }),
    seen: () => '/agents?limit=100',
    // The agents service answers an unknown customer as a wrong customerId (agent-management.ts), not USER_NOT_FOUND.
    refusal: 'names the field',
  },
  {
    operation: 'POST /cards',
    fields: ['cardholderId', 'fundingSources[]'],
    setup: async (t, auth) => {
      const { customerId, account } = await cardholder(t, 0, auth);
      return { cardholderId: customerId, 'fundingSources[]': account };
    },
    request: (v) => ({ path: '/cards', body: { cardholderId: v.cardholderId, form: 'VIRTUAL', fundingSources: [v['fundingSources[]']], platformCardId: unique('body-card') } }),
    seen: () => '/cards?limit=100',
    // The cards service answers an unknown cardholder or funding account as a wrong field (card.service.ts).
    refusal: { cardholderId: 'names the field', 'fundingSources[]': 'names the field' },
  },
  {
    operation: 'PATCH /cards/{id}',
    fields: ['fundingSources[]'],
    setup: async (t, auth) => {
      const { cardId, account } = await cardOf(t, auth);
      return { ':cardId': cardId, 'fundingSources[]': account };
    },
    request: (v) => ({ path: `/cards/${v[':cardId']}`, body: { fundingSources: [v['fundingSources[]']] } }),
    seen: (v) => `/cards/${v[':cardId']}`,
    refusal: 'names the field',
  },
  ...(['authorization_advice', 'clearing', 'return', 'return_reversal'] as const).map((kind): BodyRow => {
    const steps: Record<string, [string, Record<string, unknown>][]> = { authorization_advice: [], clearing: [], return: [['clearing', { amount: 1_000 }]], return_reversal: [['clearing', { amount: 1_000 }], ['return', { amount: 1_000 }]] };
    const extra: Record<string, Record<string, unknown>> = { authorization_advice: { amount: 1_200 }, clearing: { amount: 500 }, return: { amount: 100 }, return_reversal: {} };
    return {
      operation: `POST /sandbox/cards/{id}/simulate/${kind}`,
      fields: ['cardTransactionId'],
      setup: async (t, auth) => {
        const { cardId } = await cardOf(t, auth);
        return { ':cardId': cardId, cardTransactionId: await cardTransactionAfter(t, cardId, steps[kind], auth) };
      },
      request: (v) => ({ path: `/sandbox/cards/${v[':cardId']}/simulate/${kind}`, body: { cardTransactionId: v.cardTransactionId, ...extra[kind] } }),
      seen: () => '/transactions?type=CARD&limit=100',
      refusal: 'not found',
    };
  }),
  {
    operation: 'POST /auth/credentials',
    fields: ['accountId'],
    setup: async (t, auth) => {
      await enableWallets(t, auth);
      const { accountId } = await walletFundedCard(t, auth);
      return { accountId };
    },
    request: (v) => {
      const now = Math.floor(Date.now() / 1000);
      const b64 = (x: unknown) => Buffer.from(JSON.stringify(x)).toString('base64url');
      const oidcToken = `${b64({ alg: 'RS256' })}.${b64({ iss: 'https://accounts.google.com', aud: 'app', sub: unique('s'), iat: now, exp: now + 600 })}.c2ln`;
      return { path: '/auth/credentials', body: { type: 'OAUTH', accountId: v.accountId, oidcToken } };
    },
    refusal: 'not found',
  },
  {
    operation: 'POST /auth/delegated-keys',
    fields: ['cardId', 'internalAccountId'],
    setup: async (t, auth) => {
      await enableWallets(t, auth);
      const { accountId, cardId } = await walletFundedCard(t, auth);
      return { cardId, internalAccountId: accountId };
    },
    request: (v) => ({ path: '/auth/delegated-keys', body: { cardId: v.cardId, internalAccountId: v.internalAccountId, nickname: 'Body' } }),
    refusal: 'not found',
  },
  {
    operation: 'POST /crypto/estimate-withdrawal-fee',
    fields: ['internalAccountId'],
    setup: async (t, auth) => {
      // USDC is withdrawn on chain (crypto-fees.e2e); USDB kept for the wallet rows before this one.
      const currencies = ['USD', 'USDB', 'USDC'].map((code) => ({ currencyCode: code, minAmount: 1, maxAmount: 1_000_000_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] }));
      expect((await t.call('PATCH', '/config', { auth, body: { supportedCurrencies: currencies } })).status).toBe(200);
      const customerId = await createCustomer(t, { customerType: 'INDIVIDUAL', fullName: 'Chain Withdrawer', currencies: ['USD', 'USDC'] }, auth);
      return { internalAccountId: await internalAccountOf(t, auth, customerId, 'USDC') };
    },
    request: (v) => ({ path: '/crypto/estimate-withdrawal-fee', body: { internalAccountId: v.internalAccountId, currency: 'USDC', cryptoNetwork: 'BASE', amount: 10_000_000, destinationAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' } }),
    refusal: 'not found',
  },
  {
    operation: 'POST /stablecoins',
    fields: ['stablecoinProviderAccountId'],
    setup: async (t, auth) => ({ stablecoinProviderAccountId: (await link(t, auth)).id }),
    request: (v) => ({ path: '/stablecoins', body: { providerTokenIdentifier: `BODY${serial++}`, networkTokenIdentifier: tokenIdentifier(), network: 'SPARK', stablecoinProviderAccountId: v.stablecoinProviderAccountId } }),
    headers: idem,
    seen: () => '/stablecoins?limit=100',
    refusal: 'not found',
  },
  {
    operation: 'POST /stablecoins/{stablecoinId}/mints',
    fields: ['destination.accountId', 'fundingSource.accountId'],
    setup: async (t, auth) => {
      const s = await stablecoinWorld(t, auth);
      return { ':stablecoinId': s[':stablecoinId'], 'destination.accountId': s.wallet, 'fundingSource.accountId': (await worldOf(t, auth)).usd };
    },
    request: (v) => ({ path: `/stablecoins/${v[':stablecoinId']}/mints`, body: { amount: '1000000', fundingSource: { type: 'GRID_INTERNAL_ACCOUNT', accountId: v['fundingSource.accountId'] }, destination: { accountId: v['destination.accountId'] } } }),
    headers: idem,
    seen: (v) => `/stablecoins/${v[':stablecoinId']}/operations`,
    refusal: 'not found',
  },
  {
    operation: 'POST /stablecoins/{stablecoinId}/mints',
    fields: ['fundingSource.externalAccountId'],
    setup: async (t, auth) => {
      const s = await stablecoinWorld(t, auth);
      return { ':stablecoinId': s[':stablecoinId'], destination: s.wallet, 'fundingSource.externalAccountId': (await worldOf(t, auth)).external };
    },
    request: (v) => ({ path: `/stablecoins/${v[':stablecoinId']}/mints`, body: { amount: '1000000', fundingSource: { type: 'ACH_DEBIT', externalAccountId: v['fundingSource.externalAccountId'] }, destination: { accountId: v.destination } } }),
    headers: idem,
    seen: (v) => `/stablecoins/${v[':stablecoinId']}/operations`,
    refusal: 'not found',
  },
  {
    operation: 'POST /stablecoins/{stablecoinId}/burns',
    fields: ['destination.externalAccountId'],
    setup: async (t, auth) => {
      const s = await stablecoinWorld(t, auth);
      return { ':stablecoinId': s[':stablecoinId'], 'destination.externalAccountId': s.bank };
    },
    request: (v) => ({ path: `/stablecoins/${v[':stablecoinId']}/burns`, body: { amount: '1000000', source: { type: 'PROVIDER_INTERNAL_BALANCE' }, destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: v['destination.externalAccountId'], rail: 'WIRE' } } }),
    headers: idem,
    seen: (v) => `/stablecoins/${v[':stablecoinId']}/operations`,
    refusal: 'not found',
  },
];

interface DeclaredField {
  operation: string;
  field: string;
}

/** Every free-text field (a string without enum or format, or an array of them) of every JSON or form body of a write. */
function bodyFields(document: any): DeclaredField[] {
  const resolve = (s: any) => {
    while (s?.$ref) s = s.$ref.split('/').slice(1).reduce((o: any, k: string) => o[k], document);
    return s;
  };
  const found: DeclaredField[] = [];
  const walk = (schema: any, path: string, operation: string, seen: Set<unknown>) => {
    const s = resolve(schema);
    if (!s || seen.has(s)) return;
    const inner = new Set(seen).add(s);
    for (const k of ['oneOf', 'anyOf', 'allOf']) for (const x of s[k] ?? []) walk(x, path, operation, inner);
    if (s.items) walk(s.items, `${path}[]`, operation, inner);
    const properties = Object.entries(s.properties ?? {});
    for (const [name, p] of properties) walk(p, path ? `${path}.${name}` : name, operation, inner);
    const leaf = properties.length === 0 && !s.items && !s.oneOf && !s.anyOf && !s.allOf;
    if (leaf && [].concat(s.type ?? []).includes('string' as never) && !s.enum && !s.format) found.push({ operation, field: path });
  };
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, any>>)) {
    for (const [method, op] of Object.entries(item)) {
      if (!['post', 'put', 'patch'].includes(method)) continue;
      const operation = `${method.toUpperCase()} ${path}`;
      if (NOT_PLATFORM_CREDENTIAL_OPERATIONS.has(operation)) continue; // an agent's bodies: tenancy-agents.e2e.spec.ts
      for (const content of Object.values(op.requestBody?.content ?? {}) as { schema: unknown }[]) walk(content.schema, '', operation, new Set());
    }
  }
  return found.filter((f, i) => found.findIndex((g) => g.operation === f.operation && g.field === f.field) === i);
}

/** A well-formed id that names nothing: the value's UUID zeroed (`Customer:0000…`), or a UMA address of nobody. */
function missing(value: string): string {
  const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
  if (uuid.test(value)) return value.replace(uuid, '00000000-0000-7000-8000-000000000000');
  if (value.startsWith('$')) return value.replace(/^\$[^@]+/, '$nobody.at.all');
  throw new Error(`no missing id of the shape of ${value}`);
}

/** What a refusal tells a client: its status, code and the fields it names (messages may quote the id sent). */
const answerOf = (res: HttpResult) => ({ status: res.status, code: res.body?.code, fields: (res.body?.details?.errors ?? []).map((e: { field: string }) => e.field) });
const told = (res: HttpResult) => { const a = answerOf(res); return `${a.status} ${a.code}${a.fields.length ? ` naming ${a.fields.join(', ')}` : ''}`; };
const refusalOf = (row: BodyRow, field: string) => (typeof row.refusal === 'string' ? row.refusal : row.refusal[field] ?? 'not found');

/** The types of the platform's newest events (for a failure message). */
async function newestEvents(t: TestPlatform, platformId: string, n: number): Promise<string[]> {
  const db = t.platform.identity.host.dataSource;
  const schemas: { schema: string }[] = await db.query(`SELECT table_schema AS schema FROM information_schema.tables WHERE table_name = 'events'`);
  const union = schemas.map(({ schema }) => `SELECT '${schema}' AS schema, type, stream_id, created_at FROM "${schema}".events WHERE platform_id = $1`).join(' UNION ALL ');
  return (await db.query(`SELECT * FROM (${union}) e ORDER BY created_at DESC LIMIT ${n}`, [platformId])).map((e: any) => `${e.schema} ${e.type} ${e.stream_id}`);
}

const leafName = (field: string) => field.split('.').pop()!.replace(/\[\]$/, '');
const isReference = (f: DeclaredField) => !CONDITION_PATHS.has(f.field) && !(leafName(f.field) in NOT_A_REFERENCE) && !(`${f.operation} ${f.field}` in REFUSED_TO_EVERYONE);

describe("tenancy: a body naming another platform's or mode's resource is refused as unknown and records nothing", () => {
  let t: TestPlatform;
  let owner: TestTenant;
  let stranger: TestTenant;
  let document: any;
  const refusals: string[] = [];

  beforeAll(async () => {
    t = await startTestPlatform({ SANDBOX_TIME_SCALE: '0.01', AUTH_FAILURES_PER_CLIENT: '0', AUTH_FAILURES_PER_ADDRESS: '0' });
    owner = t.tenant;
    stranger = await t.createTenant('body stranger');
    document = await servedDocument(t);
  }, 60_000);
  afterAll(async () => {
    console.log(`tenancy of bodies: ${refusals.length} refusals\n${refusals.join('\n')}`);
    await t?.stop();
  });

  it('has a row for every body field of every write that names a resource, and classifies every other free-text field', () => {
    const declared = bodyFields(document);
    const unclassified = declared.filter((f) => isReference(f) && !rows.some((r) => r.operation === f.operation && r.fields.includes(f.field)));
    expect(unclassified.map((f) => `${f.operation} ${f.field}`)).toEqual([]);
    const stale = rows.flatMap((r) => r.fields.filter((field) => !declared.some((f) => f.operation === r.operation && f.field === field)).map((field) => `${r.operation} ${field}`));
    expect(stale).toEqual([]);
    const references = declared.filter(isReference);
    console.log(`tenancy sweep of bodies: ${references.length} fields naming a resource in ${new Set(references.map((f) => f.operation)).size} writes (of ${declared.length} free-text fields), ${rows.length} rows`);
  });

  const send = (row: BodyRow, v: Values, auth: string): Promise<HttpResult> => {
    const { path, body } = row.request(v);
    if (row.multipart) return sendForm(t, row.operation.split(' ')[0], path, body as Record<string, string>, [{ name: 'passport.pdf', bytes: tinyPdf() }], { auth, headers: row.headers?.() });
    return t.call(row.operation.split(' ')[0], path, { auth, body, headers: row.headers?.() });
  };
  /** What `auth` sees of the row's kind: the ids of a list (and its total), or a resource as GET answers it. */
  const seen = async (row: BodyRow, v: Values, auth: string) => {
    if (!row.seen) return null;
    const res = await t.call('GET', row.seen(v), { auth });
    return Array.isArray(res.body?.data) ? { status: res.status, ids: res.body.data.map((x: { id: string }) => x.id), total: res.body.totalCount } : { status: res.status, body: res.body };
  };

  it.each(rows.map((row) => [`${row.operation} ${row.fields.join(', ')}`, row] as const))('%s', async (_name, row) => {
    const mine = await row.setup(t, owner.sandbox);
    const theirs = await row.setup(t, stranger.sandbox);
    const platforms = [await platformIdOf(t, stranger), await platformIdOf(t, owner)];
    const tries: { who: string; auth: string; values: Values; field: string }[] = [
      // Another platform's sandbox: its own request, but for the one field under test.
      ...row.fields.map((field) => ({ who: 'another platform (sandbox)', auth: stranger.sandbox, values: { ...theirs, [field]: mine[field] }, field })),
      // Production, of another platform and of the owner: the owner's sandbox request as it is.
      ...foreignCallers(owner, stranger).filter(([, auth]) => auth !== stranger.sandbox).map(([who, auth]) => ({ who, auth, values: mine, field: row.fields[0] })),
    ];
    const failures: unknown[] = [];
    for (const { who, auth, values, field } of tries) {
      // Only the stranger's sandbox is quiet (nothing of its own in flight once settled); the owner's production is
      // judged by what it sees and by the answer, its sandbox settling transfers meanwhile.
      const events = auth === stranger.sandbox ? platforms[0] : undefined;
      const before = { events: events && (await settledEventsOfPlatform(t, events)), seen: await seen(row, values, auth) };
      const res = await send(row, values, auth);
      const after = { events: events && (await eventsOfPlatform(t, events)), seen: await seen(row, values, auth) };
      // The same request naming an id that does not exist: the foreign id must be answered exactly so.
      const control = await send(row, { ...values, [field]: missing(values[field]) }, auth);
      const expected = auth !== stranger.sandbox ? res.status >= 400 : refusalOf(row, field) === 'names the field' ? namesField(res, field.replace(/\[\]$/, '[0]')) : isNotFound(res);
      refusals.push(`${row.operation} ${field} by ${who}: ${told(res)}`);
      if (!expected || JSON.stringify(answerOf(res)) !== JSON.stringify(answerOf(control)) || before.events !== after.events || JSON.stringify(before.seen) !== JSON.stringify(after.seen)) {
        const added = events && after.events !== before.events ? await newestEvents(t, events, Number(after.events) - Number(before.events)) : [];
        failures.push({ who, field, answer: res.body, unknownId: answerOf(control), events: [before.events, after.events, ...added], seen: [before.seen, after.seen] });
      }
    }
    expect(failures).toEqual([]);
    const own = await send(row, mine, owner.sandbox);
    if (own.status >= 300) throw new Error(`the owner's own request was refused: ${own.status} ${JSON.stringify(own.body)}`);
  });
});
