import type { TestPlatform } from './test-platform';

/**
 * Test fixture: production rates an ADMIN operator set in the operator rate table (production never prices from the
 * sandbox's table), one hour valid. Each pair also prices its inverse. Throws unless every rate was accepted.
 */
export async function setProductionRates(t: TestPlatform, rates: [from: string, to: string, midRate: string][]): Promise<void> {
  const admin = await t.createOperator('ADMIN', 'rates fixture admin');
  const validUntil = new Date(Date.now() + 3_600_000).toISOString();
  for (const [from, to, midRate] of rates) {
    const set = await t.operatorCall('PUT', `/rates/${from}/${to}`, { auth: admin.auth, body: { midRate, validUntil, reason: 'test fixture' } });
    if (set.status !== 200 && set.status !== 201) throw new Error(`setting ${from}/${to} answered ${set.status} ${JSON.stringify(set.body)}`);
  }
}
