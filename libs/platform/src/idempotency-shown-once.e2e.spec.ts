import { Client } from 'pg';
import { startTestPlatform, TestPlatform } from './test-platform';
import { agentPolicy } from './test-agents';

/**
 * The idempotency store never keeps a secret (issue #27 item 4): each operation declares the fields its answer shows
 * once (`shownOnce`), the gateway stores the answer without them, and a replay of the same Idempotency-Key answers the
 * same status and resource with those fields left out (`Idempotent-Replayed: true`): a secret is shown once, to the
 * first answer only. The stored rows are read straight from the `gateway` schema.
 */
describe('Idempotency-Key replays keep no shown-once secret', () => {
  let t: TestPlatform;
  let db: Client;

  beforeAll(async () => {
    t = await startTestPlatform();
    db = new Client({ connectionString: t.database.url });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await t?.stop();
  });

  const post = (path: string, key: string, body: unknown = {}) => t.call('POST', path, { body, headers: { 'idempotency-key': key } });
  const storedBodies = async () => (await db.query(`SELECT response_body::text AS body FROM gateway.idempotency_keys`)).rows.map((r) => String(r.body)).join('\n');

  /** Sends the POST twice with one key: the first answer holds the secrets, the stored row and the replay do not. */
  async function expectShownOnce(path: string, key: string, body: unknown, secretsOf: (first: any) => string[], without: (first: any) => unknown) {
    const first = await post(path, key, body);
    expect(first.status).toBeLessThan(300);
    const secrets = secretsOf(first.body);
    for (const secret of secrets) expect(typeof secret === 'string' && secret.length > 0).toBe(true);
    const stored = await storedBodies();
    for (const secret of secrets) expect(stored).not.toContain(secret);
    const replay = await post(path, key, body);
    expect(replay.status).toBe(first.status);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(without(first.body));
    return first.body;
  }

  it('POST /tokens: the client secret', async () => {
    await expectShownOnce('/tokens', 'shown-once-token', { name: 'Shown once', permissions: ['VIEW'] }, (b) => [b.clientSecret], ({ clientSecret: _, ...rest }) => rest);
  });

  it('POST /agents and POST /agents/{id}/device-codes: the device code, below the top level too', async () => {
    const customerId = (await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Shown Once' } })).body.id;
    const created = await expectShownOnce(
      '/agents',
      'shown-once-agent',
      { name: 'Shown once', customerId, policy: agentPolicy() },
      (b) => [b.deviceCode.code],
      (b) => ({ ...b, deviceCode: { ...b.deviceCode, code: undefined } }),
    );
    await expectShownOnce(`/agents/${created.agent.id}/device-codes`, 'shown-once-code', undefined, (b) => [b.code], ({ code: _, ...rest }) => rest);
  });

  it('POST /customers/{id}/kyc-link: the single-use link', async () => {
    const customerId = (await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Kyc Once' } })).body.id;
    await expectShownOnce(`/customers/${customerId}/kyc-link`, 'shown-once-kyc', {}, (b) => [b.kycUrl, b.kycUrl.split('/').pop()], ({ kycUrl: _, token: __, ...rest }) => rest);
  });
});
