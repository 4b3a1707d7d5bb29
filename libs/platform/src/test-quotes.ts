import { eventually } from '@payments/testing';
import type { TestPlatform, PlatformApi } from './test-platform';

/** The internal account of `customerId` in `currency`, once accounts opened it from CustomerCreated.v1. */
export async function internalAccountOf(t: PlatformApi, auth: string, customerId: string, currency: string): Promise<string> {
  const account = await eventually(
    async () => (await t.call('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&currency=${currency}`, { auth })).body.data?.[0],
    { what: `${currency} internal account of ${customerId}` },
  );
  return account.id;
}

/** A USD internal account of a new customer of `auth`'s platform (USD is in every platform's default config). */
export async function usdAccount(t: TestPlatform, auth: string): Promise<string> {
  const customer = (await t.call('POST', '/customers', { auth, body: { customerType: 'INDIVIDUAL', fullName: 'Quote Holder' } })).body;
  return internalAccountOf(t, auth, customer.id, 'USD');
}
