import { checkLedger, systemAccountShardIds } from '@payments/accounts';
import { eventually } from '@payments/testing';
import { untilStatus } from './test-external-accounts';
import { internalAccountOf } from './test-quotes';
import type { TestPlatform, PlatformApi } from './test-platform';

/** A USD bank account whose account number ends in `suffix` (the sandbox rail magic); ACH makes it pull-capable. */
export const usdBankAccount = (suffix: string) => ({
  currency: 'USD',
  accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: `4400123${suffix}`, routingNumber: '021000021', bankAccountType: 'CHECKING', bankName: 'Test Bank', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Pay Ee', address: { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' } } },
});

/** A customer with a funded USD internal account and an ACTIVE USD external account ending in `suffix`. */
export async function payer(t: PlatformApi, suffix: string, funding: number): Promise<{ customerId: string; internal: string; external: string }> {
  const customerId = (await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Pay Er' } })).body.id;
  const internal = await internalAccountOf(t, t.tenant.sandbox, customerId, 'USD');
  if (funding > 0) expect((await t.call('POST', `/sandbox/internal-accounts/${internal}/fund`, { body: { amount: funding } })).status).toBe(200);
  const created = await t.call('POST', '/customers/external-accounts', { body: { customerId, ...usdBankAccount(suffix) } });
  if (created.status !== 201) throw new Error(`external account: ${created.status} ${JSON.stringify(created.body)}`);
  await untilStatus(t, t.tenant.sandbox, created.body.id, 'ACTIVE');
  return { customerId, internal, external: created.body.id };
}

/** The internal account's available and total balances. */
export async function balances(t: TestPlatform, customerId: string): Promise<{ balance: number; totalBalance: number }> {
  const account = (await t.call('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&currency=USD`)).body.data[0];
  return { balance: account.balance.amount, totalBalance: account.totalBalance.amount };
}

/** Polls the transaction until `done` holds for it. */
export function untilTransaction(t: TestPlatform, id: string, done: (tx: Record<string, any>) => boolean, timeoutMs = 20_000): Promise<Record<string, any>> {
  return eventually(async () => {
    const res = await t.call('GET', `/transactions/${id}`);
    return res.status === 200 && done(res.body) ? res.body : undefined;
  }, { what: `transaction ${id}`, timeoutMs });
}

export async function expectLedgerClean(t: TestPlatform): Promise<void> {
  expect(await checkLedger(t.platform.accounts.host.dataSource, t.platform.accounts.host.store)).toEqual([]);
}

/** Total of a system account (e.g. SUSPENSE) of the bootstrap tenant's sandbox, 0 when it never moved. */
export async function systemBalance(t: TestPlatform, purpose: string, currency: string): Promise<number> {
  const [{ platform_id }] = await t.platform.identity.host.dataSource.query(`SELECT platform_id FROM identity.api_tokens WHERE client_id = $1`, [t.bootstrap.SANDBOX.clientId]);
  const rows = await t.platform.accounts.host.dataSource.query(`SELECT COALESCE(sum(total), 0)::text AS total FROM ledger_accounts WHERE account_id = ANY($1::text[])`, [systemAccountShardIds(platform_id, 'SANDBOX', purpose, currency)]);
  return Number(rows[0].total);
}
