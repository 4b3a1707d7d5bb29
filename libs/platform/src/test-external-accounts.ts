import { eventually } from '@payments/testing';
import type { TestPlatform, PlatformApi } from './test-platform';

/** An NGN bank account (no check digits) whose account number ends in `suffix`: the sandbox name-check magic. */
export const ngnAccount = (suffix = '789') => ({
  currency: 'NGN',
  accountInfo: { accountType: 'NGN_ACCOUNT', accountNumber: `0123456${suffix}`, bankName: 'ACCESS_BANK', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Obi' } },
});

export async function createCustomerId(t: TestPlatform, auth: string, fullName = 'Account Holder'): Promise<string> {
  return (await t.call('POST', '/customers', { auth, body: { customerType: 'INDIVIDUAL', fullName } })).body.id;
}

/** A customer external account of `auth`'s platform; returns its id. */
export async function createExternalAccount(t: TestPlatform, auth: string, suffix = '789'): Promise<string> {
  const customerId = await createCustomerId(t, auth);
  const res = await t.call('POST', '/customers/external-accounts', { auth, body: { customerId, ...ngnAccount(suffix) } });
  if (res.status !== 201) throw new Error(`external account not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

export async function untilStatus(t: PlatformApi, auth: string, id: string, status: string): Promise<Record<string, any>> {
  return eventually(async () => {
    const res = await t.call('GET', `/customers/external-accounts/${id}`, { auth });
    return res.body.status === status ? res.body : undefined;
  }, { what: `${id} ${status}` });
}

/**
 * Marks an account a trusted beneficiary. In the product, trust comes from passing a quote's SCA PAYOUT round
 * (quote-lifecycle e2e); tests of the accounts side call the service directly.
 */
export async function trust(t: TestPlatform, id: string): Promise<void> {
  const [row] = await t.platform.accounts.host.dataSource.query(`SELECT platform_id, mode FROM accounts.external_accounts WHERE external_account_id = $1`, [id]);
  await t.platform.accounts.externalAccounts.trust({ platformId: row.platform_id, mode: row.mode }, id, new Date().toISOString());
}
