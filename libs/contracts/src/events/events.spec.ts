import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
// Through the library's entry point: it loads reflect-metadata before the DTO classes.
import {
  Catalogued,
  decode,
  decodeAny,
  EVENT_CATALOGUES,
  EventCatalogue,
  EventEnvelope,
  IDENTITY_EVENTS,
  ACCOUNTS_EVENTS,
  PAYMENTS_EVENTS,
  publicEnvelope,
  QUOTING_EVENTS,
  TransactionCompletedData,
} from '../index';

interface GeneratedFile {
  file: string;
  absolute: string;
  content: string;
}

// The generator is the plain CommonJS script `npm run contracts:generate` runs; rebuilding in memory is what it writes.
/* eslint-disable @typescript-eslint/no-require-imports */
const { generate } = require('../../../../tools/contracts/generate.js') as { generate: (outputs?: unknown[]) => GeneratedFile[] };
const { EVENT_OUTPUTS, EVENTS_DIR } = require('../../../../tools/contracts/event-outputs.js') as { EVENT_OUTPUTS: unknown[]; EVENTS_DIR: string };
/* eslint-enable @typescript-eslint/no-require-imports */

const envelope = (type: string, data: unknown): EventEnvelope => ({
  eventId: 'e1',
  type,
  streamId: 'Stream:1',
  streamVersion: 1,
  globalPosition: '1',
  occurredAt: '2026-01-01T00:00:00.000Z',
  platformId: 'Platform:1',
  data,
  metadata: {},
});

describe('event catalogues', () => {
  const catalogues: EventCatalogue[] = Object.values(EVENT_CATALOGUES);
  const all = catalogues.flatMap((c) => c.events);

  it('declare every type once across services, each on its service topic (a shared type alike everywhere)', () => {
    const types = all.filter((e) => !e.shared).map((e) => e.type);
    expect(new Set(types).size).toBe(types.length);
    const shared = all.filter((e) => e.shared);
    expect(new Set(shared.map((e) => e.type))).toEqual(new Set(['OperatorActionRecorded.v1']));
    expect(new Set(shared.map((e) => (e.visibility === 'public' ? e.data.typeName : 'internal')))).toEqual(new Set(['OperatorActionRecordedData']));
    expect(types.filter((type) => shared.some((e) => e.type === type))).toEqual([]);
    for (const catalogue of catalogues) {
      expect(catalogue.topic).toBe(`payments.${catalogue.service}.events.v1`);
      for (const event of catalogue.events) expect(event.type).toBe(`${event.name}.v${event.version}`);
    }
  });

  it('keep saga internals, ledger bookkeeping and secret-bearing mechanics internal', () => {
    const internal = all.filter((e) => e.visibility === 'internal').map((e) => e.type);
    expect(internal).toEqual(
      expect.arrayContaining(['TransactionFundsHeld.v1', 'PostingRecorded.v1', 'HoldPlaced.v1', 'HoldClosed.v1', 'LedgerAccountOpened.v1', 'ContactCodeIssued.v1', 'ScaChallengeIssued.v1', 'ScaPasskeyEnrolled.v1']),
    );
    // What another service or the webhook dispatcher consumes is public.
    for (const type of ['CustomerCreated.v1', 'CustomerUpdated.v1', 'CustomerDeleted.v1', 'PlatformConfigInitialized.v1', 'PlatformConfigUpdated.v1', 'TokenDeleted.v1', 'QuoteExecuted.v1', 'TransactionStatusChanged.v1', 'InvitationClaimed.v1', 'InternalAccountBalanceChanged.v1']) {
      expect(all.find((e) => e.type === type)?.visibility).toBe('public');
    }
  });
});

describe('public forms (the one place secrets and internals are dropped)', () => {
  it('drops the saga plan and rail from TransactionCreated', () => {
    const published = publicEnvelope(PAYMENTS_EVENTS, envelope('TransactionCreated.v1', { transactionId: 'T', status: 'PENDING', plan: { legs: [] }, rail: { steps: [] } }));
    expect(published?.data).toEqual({ transactionId: 'T', status: 'PENDING' });
  });

  it('drops secret hashes and id numbers, at any depth', () => {
    expect(publicEnvelope(IDENTITY_EVENTS, envelope('TokenCreated.v1', { tokenId: 'Token:1', secretHash: 'x' }))?.data).toEqual({ tokenId: 'Token:1' });
    expect(publicEnvelope(IDENTITY_EVENTS, envelope('KycLinkIssued.v1', { linkId: 'KycLink:1', secretHash: 'x' }))?.data).toEqual({ linkId: 'KycLink:1' });
    expect(publicEnvelope(IDENTITY_EVENTS, envelope('CustomerCreated.v1', { customerId: 'C', profile: { fullName: 'A', identifier: '987-65-4321' } }))?.data).toEqual({ customerId: 'C', profile: { fullName: 'A' } });
    expect(publicEnvelope(IDENTITY_EVENTS, envelope('BeneficialOwnerUpdated.v1', { changes: { personalInfo: { identifier: '1', lastName: 'B' } } }))?.data).toEqual({ changes: { personalInfo: { lastName: 'B' } } });
    const account = { externalAccountId: 'E', accountInfo: { beneficiary: { fullName: 'A', documentNumber: 'X1234567' } } };
    expect(publicEnvelope(ACCOUNTS_EVENTS, envelope('ExternalAccountCreated.v1', account))?.data).toEqual({ externalAccountId: 'E', accountInfo: { beneficiary: { fullName: 'A' } } });
    expect(publicEnvelope(QUOTING_EVENTS, envelope('QuoteCreated.v1', { quoteId: 'Q', midRate: '1.1', pricing: { source: 'ECB' }, scaPurposes: [], paymentInstructions: null }))?.data).toEqual({ quoteId: 'Q' });
    expect(publicEnvelope(IDENTITY_EVENTS, envelope('VerificationSubmitted.v1', { verificationId: 'V', sandboxDecision: 'APPROVED' }))?.data).toEqual({ verificationId: 'V' });
  });

  it('has no public form for internal or undeclared events', () => {
    expect(publicEnvelope(PAYMENTS_EVENTS, envelope('TransactionFundsHeld.v1', { transactionId: 'T' }))).toBeUndefined();
    expect(publicEnvelope(IDENTITY_EVENTS, envelope('ContactCodeIssued.v1', { codeHash: 'x' }))).toBeUndefined();
    expect(publicEnvelope(PAYMENTS_EVENTS, envelope('Unheard.v1', {}))).toBeUndefined();
  });
});

describe('decode', () => {
  it('gives the typed public event, and undefined for unknown, internal and other topics’ types', () => {
    const event = decode(PAYMENTS_EVENTS, envelope('TransactionCompleted.v1', { transactionId: 'T', settledAt: 'now' }));
    if (event?.type !== 'TransactionCompleted.v1') throw new Error('not decoded');
    const data: TransactionCompletedData = event.data; // typed by the declaration
    expect(data.transactionId).toBe('T');
    expect(decode(PAYMENTS_EVENTS, envelope('TransactionCompleted.v2', {}))).toBeUndefined();
    expect(decode(PAYMENTS_EVENTS, envelope('TransactionFundsHeld.v1', {}))).toBeUndefined();
    expect(decode(PAYMENTS_EVENTS, envelope('CustomerCreated.v1', {}))).toBeUndefined();
    expect(decode(PAYMENTS_EVENTS, envelope('TransactionCompleted.v1', 'not an object'))).toBeUndefined();
    expect(decodeAny([IDENTITY_EVENTS, PAYMENTS_EVENTS], envelope('CustomerCreated.v1', {}))?.type).toBe('CustomerCreated.v1');
    expect(decodeAny([IDENTITY_EVENTS, PAYMENTS_EVENTS], envelope('PostingRecorded.v1', {}))).toBeUndefined();
  });

  it('checks at compile time that a service union is declared and fits its declaration', () => {
    type Declared = { type: 'TransactionCompleted.v1'; data: TransactionCompletedData & { extra: string } } | { type: 'TransactionFundsHeld.v1'; data: { anything: number } };
    const ok: Catalogued<typeof PAYMENTS_EVENTS, Declared> = true;
    // @ts-expect-error an event type the catalogue does not declare
    const undeclared: Catalogued<typeof PAYMENTS_EVENTS, { type: 'Invented.v1'; data: object }> = true;
    // @ts-expect-error stored data that does not hold the declared public data
    const misfit: Catalogued<typeof PAYMENTS_EVENTS, { type: 'TransactionCompleted.v1'; data: { transactionId: number } }> = true;
    expect([ok, undeclared, misfit]).toEqual([true, true, true]);
  });
});

describe('docs/events (generated from the declarations and their TypeScript types)', () => {
  const generated = generate(EVENT_OUTPUTS);

  it.each(generated.map((output) => [output.file, output] as const))('%s is up to date (else run npm run contracts:generate)', (_file, output) => {
    const committed = readFileSync(output.absolute, 'utf8');
    if (committed !== output.content) throw new Error(`${output.file} is stale: run npm run contracts:generate`);
  });

  it('holds a schema for every public event and nothing else', () => {
    const dir = join(__dirname, '../../../..', EVENTS_DIR);
    const expected = [...new Set((Object.values(EVENT_CATALOGUES) as EventCatalogue[]).flatMap((c) => c.publicTypes.map((type) => `${type}.json`))), 'asyncapi.json'].sort();
    expect(readdirSync(dir).sort()).toEqual(expected);
    expect(generated.map((g) => g.file.slice(EVENTS_DIR.length + 1)).sort()).toEqual(expected);
  });

  it('describes one channel per service topic and one message per public event in AsyncAPI 3', () => {
    const doc = JSON.parse(generated.find((g) => g.file.endsWith('asyncapi.json'))!.content);
    expect(doc.asyncapi).toBe('3.0.0');
    expect(Object.values(doc.channels).map((c) => (c as { address: string }).address).sort()).toEqual(['payments.accounts.events.v1', 'payments.agents.events.v1', 'payments.cards.events.v1', 'payments.identity.events.v1', 'payments.payments.events.v1', 'payments.quoting.events.v1']);
    expect(doc.components.messages['TransactionCreated.v1']).toMatchObject({ payload: { $ref: './TransactionCreated.v1.json' }, bindings: { kafka: { key: { type: 'string' } } } });
    expect(doc.components.messages['TransactionFundsHeld.v1']).toBeUndefined();
    const created = JSON.parse(generated.find((g) => g.file.endsWith('/TransactionCreated.v1.json'))!.content);
    expect(created.properties.type.const).toBe('TransactionCreated.v1');
    expect(created.definitions.TransactionCreatedData.properties).not.toHaveProperty('plan');
  });

  it('is a valid AsyncAPI 3.0.0 document (the official JSON Schema of @asyncapi/specs)', () => {
    const doc = JSON.parse(generated.find((g) => g.file.endsWith('asyncapi.json'))!.content);
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(require.resolve('@asyncapi/specs/schemas/3.0.0-without-$id.json'), 'utf8')));
    expect(validate(doc) ? [] : validate.errors).toEqual([]);
  });
});
