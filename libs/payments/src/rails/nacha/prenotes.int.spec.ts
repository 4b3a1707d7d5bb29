import { randomBytes, randomUUID } from 'node:crypto';
import { capabilitiesOf, ExternalAccountCreatedData, RailConnectorConfig } from '@payments/contracts';
import type { EventEnvelope } from '@payments/eventsourcing';
import { createEventBus, EventBus, serviceTopic } from '@payments/messaging';
import type { BackgroundWork } from '@payments/runtime';
import { createTestDatabase, eventually, TestDatabase } from '@payments/testing';
import { Payments } from '../../payments';
import type { RailPaymentRow } from '../rail-payments';
import { RailConnectorFactory, Rails } from '../rails';
import { nachaRailKind } from './nacha-format';
import { PrenoteRequests, prenoteOrderFor, prenoteRequestsWork } from './prenotes';

const NACHA: RailConnectorConfig = {
  id: 'ach-main',
  kind: 'NACHA',
  routes: [{ currency: 'USD', paymentRail: 'ACH', directions: ['PAYOUT', 'PULL'] }],
  outboxDirectory: '/tmp/out',
  inboxDirectory: '/tmp/in',
  nacha: {
    immediateDestination: '091000019', immediateDestinationName: 'Our ODFI Bank', immediateOrigin: '1234567890', immediateOriginName: 'Acme Payments',
    companyName: 'Acme Payments', companyIdentification: '1234567890', originatingDfi: '09100001', settlementHourUtc: 22, prenoteWaitBankingDays: 3, debitHoldBankingDays: 2,
  },
};
const SEPA: RailConnectorConfig = {
  id: 'sepa', kind: 'ISO20022', routes: [{ currency: 'EUR', paymentRail: 'SEPA', directions: ['PAYOUT'] }], outboxDirectory: '/tmp/o', inboxDirectory: '/tmp/i',
  iso20022: { initiatingPartyName: 'Acme', debtorName: 'Acme', debtorIban: 'DE89370400440532013000', debtorAgentBic: 'COBADEFFXXX' },
};
const BRIDGE: RailConnectorConfig = {
  id: 'bridge', kind: 'HTTP', routes: [{ currency: 'USD', paymentRail: 'RTP', directions: ['PAYOUT'] }],
  http: { baseUrl: 'https://bridge.example', apiKeyEnv: 'K', callbackSecretEnv: 'S', timeoutMs: 1_000, pollAfterSeconds: 60 },
};

const PLATFORM = `Platform:${randomUUID()}`;
const account = (over: Partial<ExternalAccountCreatedData> = {}): ExternalAccountCreatedData => ({
  externalAccountId: `ExternalAccount:${randomUUID()}`, platformId: PLATFORM, mode: 'PRODUCTION', customerId: `Customer:${randomUUID()}`, currency: 'USD', platformAccountId: null,
  accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021', bankAccountType: 'SAVINGS', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Jane Doe' } },
  beneficiaryVerificationStatus: 'MATCHED', sandbox: false, verificationMethod: 'PAYOUT_RAIL', createdAt: '2026-03-02T10:00:00.000Z', ...over,
} as ExternalAccountCreatedData);
const created = (data: ExternalAccountCreatedData): EventEnvelope => ({
  eventId: randomUUID(), type: 'ExternalAccountCreated.v1', streamId: data.externalAccountId, streamVersion: 1, globalPosition: '1', occurredAt: data.createdAt,
  platformId: data.platformId, data: data as unknown as Record<string, unknown>, metadata: {},
});

describe('prenoteOrderFor: which created accounts get a prenote', () => {
  it('a production PAYOUT_RAIL USD account: a zero-amount ACH prenote through the NACHA connector', () => {
    const a = account();
    expect(prenoteOrderFor(a, [BRIDGE, SEPA, NACHA])).toEqual({
      action: 'SUBMIT',
      connectorId: 'ach-main',
      order: {
        paymentId: `Prenote:${a.externalAccountId}`, platformId: PLATFORM, mode: 'PRODUCTION', kind: 'PRENOTE', paymentRail: 'ACH', currency: 'USD', amount: 0,
        externalAccountId: a.externalAccountId, accountInfo: a.accountInfo, beneficiary: { name: 'Jane Doe', type: 'INDIVIDUAL' },
        reference: a.externalAccountId.replace(/-/g, '').slice(-15).toUpperCase(),
      },
    });
  });

  it('sandbox accounts, operator-approved ones and events written before the method: nothing', () => {
    expect(prenoteOrderFor(account({ mode: 'SANDBOX', sandbox: true, verificationMethod: undefined }), [NACHA])).toBeNull();
    expect(prenoteOrderFor(account({ verificationMethod: 'OPERATOR_APPROVAL' }), [NACHA])).toBeNull();
    expect(prenoteOrderFor(account({ verificationMethod: undefined }), [NACHA])).toBeNull();
  });

  it('no connector verifying the currency (none, a SEPA file connector, a USD bridge without account validation): an operator is told', () => {
    expect(prenoteOrderFor(account(), [])).toMatchObject({ action: 'NO_VERIFYING_RAIL', connectorId: null });
    expect(prenoteOrderFor(account({ currency: 'EUR' }), [NACHA, SEPA])).toMatchObject({ action: 'NO_VERIFYING_RAIL', reason: expect.stringContaining('EUR') });
    expect(prenoteOrderFor(account(), [BRIDGE])).toMatchObject({ action: 'NO_VERIFYING_RAIL' });
  });
});

/**
 * The consumer on real PostgreSQL and its log bus, with the rails' real bookkeeping (rail_payments, inbox,
 * rail_exceptions). The NACHA connector here is the format's validation and trace numbers only: its file batching is
 * the file connector's (files/file-rail-connector.ts) and not under test.
 */
describe('PrenoteRequests (real PostgreSQL)', () => {
  let database: TestDatabase;
  let bus: EventBus;
  let payments: Payments;
  let rails: Rails;
  let consumer: PrenoteRequests;
  let work: BackgroundWork | undefined;

  const formatOnly: RailConnectorFactory = ({ config }) => {
    const format = nachaRailKind.outbound(config);
    return { config, capabilities: capabilitiesOf(config), validate: (o) => format.validate(o), railReference: (o, s) => format.railReference(o, s), accepted: async () => undefined, start: () => undefined, stop: async () => undefined };
  };
  /** A configured SEPA connector, there to be passed over (it verifies no accounts): never asked anything. */
  const passedOver: RailConnectorFactory = ({ config }) => {
    const asked = (): never => {
      throw new Error(`connector ${config.id} was asked to carry a prenote`);
    };
    return { config, capabilities: capabilitiesOf(config), validate: asked, railReference: asked, accepted: asked, start: () => undefined, stop: async () => undefined };
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    bus = createEventBus({ databaseUrl: database.url, clientId: 'payments-prenotes-test', kafkaBrokers: process.env.KAFKA_BROKERS, namespace: `${database.name}.` });
    const nowhere = { host: '127.0.0.1', port: 1 };
    payments = await Payments.open({ databaseUrl: database.url, bus, topic: serviceTopic('payments'), sandboxTimeScale: 1, accounts: nowhere, quoting: nowhere, rpcTimeoutMs: 1_000, secretHashKey: randomBytes(32) });
    const { dataSource } = payments.host;
    rails = new Rails(dataSource, payments.rails.payments, payments.rails.outcomes, payments.rails.exceptions, { connectors: [NACHA, SEPA] }, { NACHA: formatOnly, ISO20022: passedOver }, { dataSource, schema: 'payments', timers: payments.host.timers, credits: payments.rails.credits, log: () => undefined });
    consumer = new PrenoteRequests(dataSource, 'payments', rails);
  });
  afterAll(async () => {
    await work?.stop();
    await payments?.quoteEvents.stop();
    await payments?.host.stop();
    await bus?.close();
    await database?.drop();
  });

  const prenote = async (externalAccountId: string) =>
    (await payments.host.dataSource.query(`SELECT * FROM payments.rail_payments WHERE external_account_id = $1`, [externalAccountId])) as RailPaymentRow[];
  const exceptions = async (externalAccountId: string) =>
    (await payments.host.dataSource.query(`SELECT connector_id, payment_id, kind, message, detail FROM payments.rail_exceptions WHERE detail->>'externalAccountId' = $1`, [externalAccountId])) as { connector_id: string; payment_id: string; kind: string; message: string }[];
  const inbox = async (eventId: string) => (await payments.host.dataSource.query(`SELECT 1 FROM payments.inbox WHERE consumer = 'payments.rails.prenotes' AND event_id = $1`, [eventId])).length;

  it('submits one prenote per account, its trace number the NACHA reference, the inbox row with it; a redelivery changes nothing', async () => {
    const a = account();
    const event = created(a);
    await consumer.handle(event);
    await consumer.handle(event); // redelivered
    await consumer.handle({ ...event, eventId: randomUUID() }); // the same account under another event id (a replay)
    const rows = await prenote(a.externalAccountId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ payment_id: `Prenote:${a.externalAccountId}`, connector_id: 'ach-main', kind: 'PRENOTE', amount: '0', payment_rail: 'ACH', status: 'SUBMITTED', mode: 'PRODUCTION' });
    expect(rows[0].rail_reference).toBe(`09100001${String(Number(rows[0].sequence) % 10_000_000).padStart(7, '0')}`);
    expect(rows[0].rail_order.beneficiary).toEqual({ name: 'Jane Doe', type: 'INDIVIDUAL' });
    expect(await inbox(event.eventId)).toBe(1);
  });

  it('an account no connector verifies, or one the connector cannot address: one NO_VERIFYING_RAIL exception, no prenote', async () => {
    const euro = account({ currency: 'EUR', accountInfo: { accountType: 'EUR_ACCOUNT', iban: 'DE89370400440532013000', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Jane Doe' } } });
    const event = created(euro);
    await consumer.handle(event);
    await consumer.handle(event);
    expect(await prenote(euro.externalAccountId)).toEqual([]);
    expect(await exceptions(euro.externalAccountId)).toEqual([
      expect.objectContaining({ connector_id: '-', payment_id: `Prenote:${euro.externalAccountId}`, kind: 'NO_VERIFYING_RAIL', message: expect.stringContaining('no configured rail connector verifies EUR accounts') }),
    ]);

    const unwritable = account({ accountInfo: { accountNumber: '123456789', routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: '王小明' } } });
    await consumer.handle(created(unwritable));
    expect(await prenote(unwritable.externalAccountId)).toEqual([]);
    expect(await exceptions(unwritable.externalAccountId)).toEqual([
      expect.objectContaining({ connector_id: 'ach-main', kind: 'NO_VERIFYING_RAIL', message: expect.stringContaining('beneficiary.name: contains characters NACHA does not allow') }),
    ]);
  });

  it('ignores sandbox and operator-approved accounts', async () => {
    const sandbox = account({ mode: 'SANDBOX', sandbox: true, verificationMethod: undefined });
    const operator = account({ verificationMethod: 'OPERATOR_APPROVAL' });
    await consumer.handle(created(sandbox));
    await consumer.handle(created(operator));
    for (const a of [sandbox, operator]) {
      expect(await prenote(a.externalAccountId)).toEqual([]);
      expect(await exceptions(a.externalAccountId)).toEqual([]);
    }
  });

  it('subscribes to the accounts topic (prenoteRequestsWork): a published ExternalAccountCreated.v1 becomes a prenote', async () => {
    work = prenoteRequestsWork(rails, { dataSource: payments.host.dataSource, schema: 'payments', bus });
    await work.start();
    const a = account();
    await bus.publish(serviceTopic('accounts'), [created(a)]);
    await eventually(async () => (await prenote(a.externalAccountId)).length === 1, { what: 'the prenote of the published account' });
  });
});
