import { join } from 'node:path';
import type { Sql } from './sql';
import { ApiClient, basicAuth } from './client';
import { runAdmin } from './platform-process';
import { until } from './setup';

/**
 * The production side of a run: a NACHA connector on temporary directories, operators made with the admin CLI, a
 * customer approved by a reviewer, an approved USD external account, and its internal account funded by an ACH pull.
 * The ACH calendar is advanced by moving the connector's settlement timers to now (as the rails' e2e test does): the
 * only shortcut; everything else goes through the platform API, the operator API and the rails' directories.
 */

/** The ODFI of the chaos connector: every trace number starts with it, and return files are addressed to it. */
export const ACH_ODFI = '02100002';
export const ACH_CONNECTOR = 'chaos-ach';
const ROUTING = '021000021';
export const PRODUCTION_BENEFICIARY = 'Pat Production';
/** The production webhook endpoint: https as production requires, refused at once (nothing listens on port 1), so
 * deliveries stay queued and the checks read what the dispatcher queued (webhooks.deliveries), as the going-live e2e does. */
export const PRODUCTION_WEBHOOK_ENDPOINT = 'https://127.0.0.1:1/chaos-production-hooks';

export interface RailDirectories {
  outbox: string;
  inbox: string;
}

export function railDirectories(root: string): RailDirectories {
  return { outbox: join(root, 'ach-outbox'), inbox: join(root, 'ach-inbox') };
}

/** The platform's settings for production rails: one NACHA connector (USD on ACH, payouts and pulls), one reviewer decides. */
export function productionEnv(dirs: RailDirectories, batchIntervalSeconds: number): NodeJS.ProcessEnv {
  const rails = {
    connectors: [
      {
        id: ACH_CONNECTOR,
        kind: 'NACHA',
        routes: [{ currency: 'USD', paymentRail: 'ACH', directions: ['PAYOUT', 'PULL'] }],
        outboxDirectory: dirs.outbox,
        inboxDirectory: dirs.inbox,
        batchIntervalSeconds,
        nacha: { immediateDestination: '091000019', immediateDestinationName: 'SPONSOR BANK', immediateOrigin: ROUTING, immediateOriginName: 'PAYMENTS PLATFORM', companyName: 'CHAOS PAYMENTS', companyIdentification: '1234567890', originatingDfi: ACH_ODFI },
      },
    ],
  };
  return { KYC_APPROVALS_REQUIRED: '1', RAILS_CONFIG: JSON.stringify(rails) };
}

export interface Operator {
  id: string;
  clientId: string;
  clientSecret: string;
}

/** `npm run admin -- operator:create` against the platform's database: the credentials it prints once. */
export async function createOperator(env: NodeJS.ProcessEnv, name: string, role: 'ADMIN' | 'REVIEWER' | 'VIEWER'): Promise<Operator> {
  const { code, stdout, output } = await runAdmin({ ...env, LOG_LEVEL: 'silent' }, ['operator:create', '--name', name, '--role', role]);
  if (code !== 0) throw new Error(`operator:create exit ${code}: ${output}`);
  return JSON.parse(stdout);
}

export function operatorClient(origin: string, operator: Operator): ApiClient {
  return new ApiClient(origin, basicAuth(operator.clientId, operator.clientSecret), undefined, '/operator/v1');
}

export interface ProductionWorld {
  customerId: string;
  usd: string;
  usdExternal: string;
  accountNumber: string;
}

const currency = (code: string) => ({ currencyCode: code, minAmount: 1, maxAmount: 100_000_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] });
const address = { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' };

/** A production customer approved by `reviewer`, its USD internal account, and an ACTIVE (approved) USD external account. */
export async function setUpProduction(prod: ApiClient, reviewer: ApiClient, accountNumber = '4400123001'): Promise<ProductionWorld> {
  await prod.must('PATCH', '/config', { webhookEndpoint: PRODUCTION_WEBHOOK_ENDPOINT, umaDomain: 'chaos-production.example', supportedCurrencies: [currency('USD')] });
  const customer = await prod.must('POST', '/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'chaos-production', fullName: PRODUCTION_BENEFICIARY, birthDate: '1990-12-10', nationality: 'US', address });
  const verification = await prod.must('POST', '/verifications', { customerId: customer.id });
  // The review queue is fed from identity's events: approve once the case is there.
  await until('the KYC review', async () => {
    const res = await reviewer.call('POST', `/kyc-reviews/${encodeURIComponent(verification.id)}/approve`, { reason: 'chaos: documents match' }, undefined);
    if (res.outcome === 'acked') return true;
    if (res.answer?.status === 404) return undefined;
    throw new Error(`KYC approval: ${res.answer?.status} ${JSON.stringify(res.answer?.body)}`);
  });
  const usd = await until('the production USD account', async () => {
    const page = await prod.must('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customer.id)}&currency=USD`);
    return page.data?.[0]?.id as string | undefined;
  });
  const accountInfo = { accountType: 'USD_ACCOUNT', accountNumber, routingNumber: ROUTING, bankAccountType: 'CHECKING', bankName: 'Chaos Bank', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: PRODUCTION_BENEFICIARY, address } };
  const external = await prod.must('POST', '/customers/external-accounts', { customerId: customer.id, currency: 'USD', accountInfo });
  await until('the external account review', async () => {
    const res = await reviewer.call('POST', `/external-account-reviews/${encodeURIComponent(external.id)}/approve`, { reason: 'chaos: statement matches' }, undefined);
    if (res.outcome === 'acked') return true;
    if (res.answer?.status === 404) return undefined;
    throw new Error(`external account approval: ${res.answer?.status} ${JSON.stringify(res.answer?.body)}`);
  });
  await until('the external account ACTIVE', async () => (await prod.must('GET', `/customers/external-accounts/${external.id}`)).status === 'ACTIVE');
  return { customerId: customer.id, usd, usdExternal: external.id, accountNumber };
}

/** The ACH calendar reaches the file's settlement moments: its settlement timers are due now (nothing else changes). */
export async function advanceCalendar(db: Sql, fileId: string): Promise<number> {
  const { rowCount } = await db.query(`UPDATE payments.timers SET due_at = now() WHERE name = 'payments.rails.connector' AND payload->>'fileId' = $1 AND fired_at IS NULL AND due_at > now()`, [fileId]);
  return rowCount ?? 0;
}

/** The payment's file once it is recorded WRITTEN: its id, name and the payment's trace number. */
export async function writtenFileOf(db: Sql, paymentId: string, timeoutMs = 60_000): Promise<{ fileId: string; name: string; trace: string }> {
  return until(`${paymentId} in a written file`, async () => {
    const { rows } = await db.query(`SELECT f.file_id, f.name, p.rail_reference FROM payments.rail_payments p JOIN payments.rail_files f ON f.file_id = p.file_id WHERE p.payment_id = $1 AND f.status = 'WRITTEN'`, [paymentId]);
    return rows[0] ? { fileId: rows[0].file_id, name: rows[0].name, trace: rows[0].rail_reference } : undefined;
  }, timeoutMs);
}

export async function transactionStatus(prod: ApiClient, id: string, status: string, timeoutMs = 60_000): Promise<any> {
  return until(`${id} ${status}`, async () => {
    const tx = await prod.must('GET', `/transactions/${id}`);
    return tx.status === status ? tx : undefined;
  }, timeoutMs);
}

/** Production money in: an ACH pull from the external account, settled by advancing its file's calendar. */
export async function fundProduction(prod: ApiClient, db: Sql, world: ProductionWorld, amount: number, key: string): Promise<string> {
  // Production money moves only for APPROVED customers, as payments learns it from identity's events: wait for it.
  await until('the approval reaching payments', async () => {
    const { rows } = await db.query(`SELECT kyc_status FROM payments.customers WHERE customer_id = $1`, [world.customerId]);
    return rows[0]?.kyc_status === 'APPROVED' ? true : undefined;
  });
  const pull = await prod.must('POST', '/transfer-in', { source: { accountId: world.usdExternal }, destination: { accountId: world.usd }, amount }, key);
  const file = await writtenFileOf(db, pull.id);
  await advanceCalendar(db, file.fileId);
  await transactionStatus(prod, pull.id, 'COMPLETED');
  return pull.id;
}
