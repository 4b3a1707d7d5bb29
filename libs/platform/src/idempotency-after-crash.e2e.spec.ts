import { Client } from 'pg';
import type { HttpResult } from '@payments/testing';
import { eventually } from '@payments/testing';
import { individualRow, toCsv, uploadCsv } from './test-customer-import';
import { createCustomerHolder, sendForm, tinyPdf } from './test-documents';
import { businessBody, createCustomer, ownerBody } from './test-kyc';
import { LauncherPlatform, startLauncher } from './test-launcher';
import { payer, usdBankAccount } from './test-payments';
import { internalAccountOf } from './test-quotes';
import { link, register, sparkWallet, tokenIdentifier } from './test-stablecoins';

/**
 * A retry after a crash (issue #42 b): the first request's effect committed, and the process died before the gateway
 * stored the answer. The platform is the built launcher as a child process (test-launcher.ts), SIGKILLed at exactly
 * that moment and started again on the same database; the client, whose first request got no answer, retries with
 * the same Idempotency-Key. It must get the original resource, and never a second effect (it used to pay twice).
 *
 * The moment is made certain, not hoped for: the test takes a row lock on the gateway's idempotency record as soon as
 * the claim is committed, so the gateway's write of the answer waits behind it; once the service's effect is visible,
 * the process is SIGKILLed. PostgreSQL then drops the dead client's waiting statement (client_connection_check_interval,
 * set on the database), and only then is the lock released: the answer was never stored, as when a process dies
 * before its write. Five requests per kill (the gateway's pool is 6: each waiting write holds one connection).
 */
describe('Idempotency-Key retries after a real SIGKILL of the platform (built launcher, real PostgreSQL, HTTP)', () => {
  const PER_KILL = 5;
  let t: LauncherPlatform;
  let db: Client;
  const config = (code: string) => ({ currencyCode: code, minAmount: 1, maxAmount: 100_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] });

  beforeAll(async () => {
    t = await startLauncher({ SANDBOX_TIME_SCALE: '0.001', DB_POOL_SIZE_MAX: String(PER_KILL + 1) }, { client_connection_check_interval: '50ms' });
    db = new Client({ connectionString: t.database.url, application_name: 'crash-checks' });
    await db.connect();
    expect((await t.call('PATCH', '/config', { body: { supportedCurrencies: [config('USD'), config('EUR')] } })).status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await db?.end();
    await t?.stop();
  });

  interface Prepared {
    path: string;
    body: Record<string, unknown>;
    count(): Promise<number>;
    idOf?(body: any): string;
    other?: Record<string, unknown>;
    /** How the request is sent, when it is not a JSON POST of `body` to `path` (multipart uploads). */
    send?(body: Record<string, unknown>, headers: Record<string, string>): Promise<HttpResult>;
    /** What changes while the platform is down and before the retry (it must not change the answer). */
    afterCrash?(): Promise<void>;
  }
  interface Case {
    name: string;
    /** The request, built on fresh fixtures; `count` tells how many resources of the kind the fixtures have. */
    prepare(): Promise<Prepared>;
  }

  let serial = 0;
  /** A name no other test uses (ending in letters: the sandbox reads suffixes such as 002 of some names). */
  const fresh = (prefix: string) => `${prefix} ${Date.now()}-${serial++} x`;
  /** The first column `n` of a query on the platform's database. */
  const counted = (sql: string, ...params: unknown[]) => async () => (await db.query(sql, params)).rows[0].n as number;
  const customerWith = async (body: Record<string, unknown> = {}) => createCustomer(t, { customerType: 'INDIVIDUAL', fullName: fresh('Crash'), ...body });
  /** A customer with a UMA address (and its USD internal account, opened from identity's event). */
  const umaCustomer = async () => {
    const uma = `$crash.${Date.now()}.${serial++}@platform.example`;
    const customerId = await customerWith({ umaAddress: uma });
    return { customerId, uma, usd: await internalAccountOf(t, t.tenant.sandbox, customerId, 'USD') };
  };
  const pendingInvitation = async (): Promise<string> => {
    const { uma } = await umaCustomer();
    const created = await t.call('POST', '/invitations', { body: { inviterUma: uma } });
    expect(created.status).toBe(201);
    return created.body.code;
  };

  /** Quotes paid from the account, and their executions (QuoteExecuted events). */
  const quotesOf = (accountId: string) => async () => {
    const [{ n }] = (await db.query(`SELECT count(*)::int AS n FROM quoting.events e JOIN quoting.quotes q ON q.quote_id = e.stream_id WHERE q.body->'source'->>'accountId' = $1 AND e.type IN ('QuoteCreated.v1', 'QuoteExecuted.v1')`, [accountId])).rows;
    return n as number;
  };
  const transactionsOf = (accountId: string) => async () => (await t.call('GET', `/transactions?accountId=${encodeURIComponent(accountId)}&limit=100`)).body.totalCount as number;

  /** A US customer with a funded USD and an empty EUR internal account. */
  async function fxHolder(): Promise<{ customerId: string; usd: string; eur: string }> {
    const customerId = (await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Fx Holder', region: 'US' } })).body.id;
    const usd = await internalAccountOf(t, t.tenant.sandbox, customerId, 'USD');
    const eur = await internalAccountOf(t, t.tenant.sandbox, customerId, 'EUR');
    expect((await t.call('POST', `/sandbox/internal-accounts/${usd}/fund`, { body: { amount: 100_000 } })).status).toBe(200);
    return { customerId, usd, eur };
  }
  const quoteBody = (h: { usd: string; eur: string }, extra: Record<string, unknown> = {}) => ({
    source: { sourceType: 'ACCOUNT', accountId: h.usd }, destination: { destinationType: 'ACCOUNT', accountId: h.eur }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 3_456, ...extra,
  });

  const stablecoinRows = (table: string, where = 'TRUE') => counted(`SELECT count(*)::int AS n FROM payments.${table} WHERE ${where}`);
  /** A registered stablecoin of the bootstrap tenant and its Spark wallet (mint destination). */
  const stablecoin = async () => ({ coin: await register(t, t.tenant.sandbox, (await link(t, t.tenant.sandbox)).id), wallet: await sparkWallet(t, t.tenant.sandbox) });

  const cases: Case[] = [
    {
      name: 'POST /stablecoin-provider-accounts',
      prepare: async () => {
        const body = { provider: 'BRALE', apiClientId: `crash-${Date.now()}-${serial++}`, apiClientSecret: 'crash-secret' };
        return { path: '/stablecoin-provider-accounts', body, count: stablecoinRows('stablecoin_provider_accounts'), other: { ...body, apiClientSecret: 'another-secret' } };
      },
    },
    {
      name: 'POST /stablecoins',
      prepare: async () => {
        const linkId = (await link(t, t.tenant.sandbox)).id;
        const body = { providerTokenIdentifier: 'CRASH', networkTokenIdentifier: tokenIdentifier(), network: 'SPARK', stablecoinProviderAccountId: linkId };
        return { path: '/stablecoins', body, count: stablecoinRows('stablecoins'), other: { ...body, networkTokenIdentifier: tokenIdentifier() } };
      },
    },
    {
      name: 'POST /stablecoins/{id}/mints',
      prepare: async () => {
        const { coin, wallet } = await stablecoin();
        const p = await payer(t, '789', 50_000);
        const body = { amount: '12340000', fundingSource: { type: 'GRID_INTERNAL_ACCOUNT', accountId: p.internal }, destination: { accountId: wallet } };
        return { path: `/stablecoins/${coin.id}/mints`, body, count: stablecoinRows('stablecoin_operations', `stablecoin_id = '${coin.id}'`), other: { ...body, amount: '10000' } };
      },
    },
    {
      name: 'POST /stablecoins/{id}/burns',
      prepare: async () => {
        const { coin } = await stablecoin();
        const p = await payer(t, '789', 0);
        const body = { amount: '12340000', source: { type: 'EXTERNAL_ACCOUNT' }, destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: p.external, rail: 'WIRE' } };
        return { path: `/stablecoins/${coin.id}/burns`, body, count: stablecoinRows('stablecoin_operations', `stablecoin_id = '${coin.id}'`), other: { ...body, amount: '10000' } };
      },
    },
    {
      name: 'POST /transfer-out',
      prepare: async () => {
        const p = await payer(t, '789', 50_000);
        return { path: '/transfer-out', body: { source: { accountId: p.internal }, destination: { accountId: p.external }, amount: 1_234 }, count: transactionsOf(p.internal) };
      },
    },
    {
      name: 'POST /transfer-in',
      prepare: async () => {
        const p = await payer(t, '789', 0);
        return { path: '/transfer-in', body: { source: { accountId: p.external }, destination: { accountId: p.internal }, amount: 2_345 }, count: transactionsOf(p.internal) };
      },
    },
    {
      name: 'POST /quotes with immediatelyExecute',
      prepare: async () => {
        const h = await fxHolder();
        return { path: '/quotes', body: quoteBody(h, { immediatelyExecute: true }), count: quotesOf(h.usd), other: quoteBody(h, { immediatelyExecute: true, lockedCurrencyAmount: 1_000 }) };
      },
    },
    {
      name: 'POST /quotes/{id}/execute',
      prepare: async () => {
        const h = await fxHolder();
        const quote = (await t.call('POST', '/quotes', { body: quoteBody(h) })).body;
        return { path: `/quotes/${quote.id}/execute`, body: {}, count: quotesOf(h.usd), other: { scaFactor: 'SMS_OTP' } };
      },
    },
    {
      name: 'POST /customers',
      prepare: async () => {
        const fullName = fresh('Crash');
        const count = counted(`SELECT count(*)::int AS n FROM identity.customers WHERE body->>'fullName' = $1`, fullName);
        return { path: '/customers', body: { customerType: 'INDIVIDUAL', fullName }, count, other: { customerType: 'INDIVIDUAL', fullName: `${fullName} Other` } };
      },
    },
    {
      name: 'POST /tokens',
      prepare: async () => {
        const name = fresh('crash token');
        const count = async () => (await t.call('GET', `/tokens?name=${encodeURIComponent(name)}&limit=100`)).body.totalCount as number;
        return { path: '/tokens', body: { name, permissions: ['VIEW'] }, count, other: { name, permissions: ['VIEW', 'TRANSACT'] } };
      },
    },
    {
      name: 'POST /documents (multipart)',
      prepare: async () => {
        const holder = await createCustomerHolder(t);
        const pdf = tinyPdf();
        const count = async () => (await t.call('GET', `/documents?documentHolder=${encodeURIComponent(holder)}&limit=100`)).body.totalCount as number;
        const send = (fields: Record<string, unknown>, headers: Record<string, string>) => sendForm(t, 'POST', '/documents', fields as Record<string, string>, [{ name: 'passport.pdf', bytes: pdf }], { headers });
        const body = { documentHolder: holder, documentType: 'PASSPORT', country: 'DE' };
        return { path: '/documents', body, count, send, other: { ...body, country: 'FR' } };
      },
    },
    {
      name: 'POST /customers/bulk/csv (multipart)',
      prepare: async () => {
        const name = `crash-${Date.now()}-${serial++}.csv`;
        const id = `CRASH${Date.now()}${serial++}`;
        const count = counted(`SELECT count(*)::int AS n FROM identity.customer_import_jobs WHERE file_name = $1`, name);
        const send = (body: Record<string, unknown>, headers: Record<string, string>) => uploadCsv(t, body.csv as string, { name, headers });
        return { path: '/customers/bulk/csv', body: { csv: toCsv([individualRow(id)]) }, count, send, idOf: (b) => b.jobId, other: { csv: toCsv([individualRow(`${id}X`)]) } };
      },
    },
    {
      name: 'POST /verifications (a submission with errors to resolve)',
      prepare: async () => {
        const customerId = await customerWith();
        const count = counted(`SELECT count(*)::int AS n FROM identity.events WHERE type IN ('VerificationSubmitted.v1', 'VerificationErrorsFound.v1') AND data->>'customerId' = $1`, customerId);
        return { path: '/verifications', body: { customerId }, count, other: { customerId: await customerWith() } };
      },
    },
    {
      name: 'POST /beneficial-owners',
      prepare: async () => {
        const customerId = await createCustomer(t, businessBody(`REG${Date.now()}`));
        const count = async () => (await t.call('GET', `/beneficial-owners?customerId=${encodeURIComponent(customerId)}&limit=100`)).body.totalCount as number;
        return { path: '/beneficial-owners', body: ownerBody(customerId, 'Owner', { ownershipPercentage: 10 }), count, other: ownerBody(customerId, 'Other', { ownershipPercentage: 10 }) };
      },
    },
    {
      name: 'POST /customers/{id}/kyc-link',
      prepare: async () => {
        const customerId = await customerWith({ region: 'US' });
        const count = counted(`SELECT count(*)::int AS n FROM identity.kyc_links WHERE customer_id = $1`, customerId);
        // The link is shown once: a replay the gateway kept answers it without `kycUrl` (its expiry tells it apart).
        return { path: `/customers/${customerId}/kyc-link`, body: { redirectUri: 'https://example.com/done' }, count, idOf: (b) => b.expiresAt, other: { redirectUri: 'https://example.com/other' } };
      },
    },
    {
      name: 'POST /customers/external-accounts',
      prepare: async () => {
        const customerId = await customerWith();
        const count = async () => (await t.call('GET', `/customers/external-accounts?customerId=${encodeURIComponent(customerId)}&limit=100`)).body.totalCount as number;
        return { path: '/customers/external-accounts', body: { customerId, ...usdBankAccount('789') }, count, other: { customerId, ...usdBankAccount('788') } };
      },
    },
    {
      name: 'POST /platform/external-accounts',
      prepare: async () => {
        const platformAccountId = `crash-${Date.now()}-${serial++}`;
        const count = counted(`SELECT count(*)::int AS n FROM accounts.external_accounts WHERE body->>'platformAccountId' = $1`, platformAccountId);
        return { path: '/platform/external-accounts', body: { ...usdBankAccount('789'), platformAccountId }, count, other: { ...usdBankAccount('788'), platformAccountId } };
      },
    },
    {
      name: 'POST /sandbox/internal-accounts/{id}/fund',
      prepare: async () => {
        const usd = await internalAccountOf(t, t.tenant.sandbox, await customerWith(), 'USD');
        const count = counted(`SELECT count(*)::int AS n FROM accounts.journal_postings WHERE account_id = $1`, usd);
        return { path: `/sandbox/internal-accounts/${usd}/fund`, body: { amount: 1_500 }, count, idOf: (b) => `${b.id} ${b.totalBalance?.amount}` };
      },
    },
    {
      name: 'POST /invitations',
      prepare: async () => {
        const { uma } = await umaCustomer();
        const count = counted(`SELECT count(*)::int AS n FROM payments.invitations WHERE body->>'inviterUma' = $1`, uma);
        return { path: '/invitations', body: { inviterUma: uma }, count, idOf: (b) => b.code, other: { inviterUma: uma, firstName: 'Bob' } };
      },
    },
    {
      name: 'POST /invitations/{code}/claim',
      prepare: async () => {
        const code = await pendingInvitation();
        const count = counted(`SELECT count(*)::int AS n FROM payments.events WHERE stream_id = $1 AND type = 'InvitationClaimed.v1'`, `Invitation:${code}`);
        return { path: `/invitations/${code}/claim`, body: { inviteeUma: '$bob@invitee.example' }, count, idOf: (b) => `${b.code} ${b.status}`, other: { inviteeUma: '$carol@invitee.example' } };
      },
    },
    {
      name: 'POST /invitations/{code}/cancel',
      prepare: async () => {
        const code = await pendingInvitation();
        const count = counted(`SELECT count(*)::int AS n FROM payments.events WHERE stream_id = $1 AND type = 'InvitationCancelled.v1'`, `Invitation:${code}`);
        return { path: `/invitations/${code}/cancel`, body: {}, count, idOf: (b) => `${b.code} ${b.status}`, other: { reason: 'other' } };
      },
    },
    {
      name: 'POST /sandbox/uma/receive',
      prepare: async () => {
        const r = await umaCustomer();
        const body = { senderUmaAddress: '$sender@other-vasp.example', customerId: r.customerId, receivingCurrencyCode: 'USD', receivingCurrencyAmount: 700 };
        return { path: '/sandbox/uma/receive', body, count: transactionsOf(r.usd), other: { ...body, receivingCurrencyAmount: 701 } };
      },
    },
    {
      name: 'POST /sandbox/send (a REALTIME_FUNDING quote)',
      prepare: async () => {
        const h = await fxHolder();
        const quote = (await t.call('POST', '/quotes', { body: quoteBody(h, { source: { sourceType: 'REALTIME_FUNDING', customerId: h.customerId, currency: 'USD' } }) })).body;
        expect(quote.id).toEqual(expect.stringMatching(/^Quote:/));
        const body = { quoteId: quote.id, currencyCode: 'USD' };
        return { path: '/sandbox/send', body, count: transactionsOf(h.eur), other: { ...body, currencyAmount: quote.totalSendingAmount } };
      },
    },
    {
      name: 'POST /stablecoins/{id}/mints, its destination deleted before the retry (the claim decides first)',
      prepare: async () => {
        const { coin, wallet } = await stablecoin();
        const body = { amount: '12340000', fundingSource: { type: 'WIRE' }, destination: { accountId: wallet } };
        // Checked again, the retry would be a 404: the operation the first request made must be answered instead.
        const afterCrash = async () => expect((await t.call('DELETE', `/platform/external-accounts/${wallet}`)).status).toBeLessThan(300);
        return { path: `/stablecoins/${coin.id}/mints`, body, count: stablecoinRows('stablecoin_operations', `stablecoin_id = '${coin.id}'`), other: { ...body, amount: '10000' }, afterCrash };
      },
    },
  ];

  /** A request of a case on its way: its key, what the fixtures held before it, and what its client got (nothing, after the kill). */
  interface InFlight {
    c: Case;
    p: Prepared;
    key: string;
    post(body: Record<string, unknown>): Promise<HttpResult>;
    first: Promise<{ answered?: HttpResult; lost?: string }>;
    lock: Client;
    afterFirst?: number;
  }

  /**
   * Sends the first request and takes the lock on its idempotency record once the claim is committed: true when the
   * record was IN_FLIGHT (the answer's write now waits for the lock), false when the answer was stored first.
   */
  async function holdAnswer(c: Case, p: Prepared): Promise<InFlight | undefined> {
    const key = `crash-${p.path}-${Math.random()}`;
    const headers = { 'Idempotency-Key': key };
    const post = (b: Record<string, unknown>) => (p.send ? p.send(b, headers) : t.call('POST', p.path, { headers, body: b }));
    const before = await p.count();
    const lock = new Client({ connectionString: t.database.url, application_name: 'crash-lock' });
    await lock.connect();
    await lock.query('BEGIN');
    const first = post(p.body).then(
      (answered) => ({ answered }),
      (error: unknown) => ({ lost: String(error) }),
    );
    const deadline = Date.now() + 20_000;
    for (;;) {
      const { rows } = await lock.query(`SELECT state FROM gateway.idempotency_keys WHERE idempotency_key = $1 FOR UPDATE`, [key]);
      if (rows[0]?.state === 'IN_FLIGHT') break;
      if (rows[0] || Date.now() > deadline) {
        await lock.query('ROLLBACK');
        await lock.end();
        const res = await first;
        if (!rows[0]) throw new Error(`${c.name}: no idempotency record after 20 s; ${JSON.stringify(res)}`);
        return undefined; // answered before the lock: not the moment this test is about; tried again in the next round
      }
    }
    // The service's effect, committed before it answered the gateway (which now waits to store the answer).
    await eventually(async () => (await p.count()) > before, { what: `${c.name}: the first request's effect`, timeoutMs: 20_000 });
    return { c, p, key, post, first, lock };
  }

  /** SIGKILL while every held answer waits; PostgreSQL drops the dead process's waiting writes; the locks go. */
  async function crash(held: InFlight[]): Promise<void> {
    await t.process.kill();
    await eventually(
      async () => {
        const { rows } = await db.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name NOT LIKE 'crash-%' AND backend_type = 'client backend'`);
        return rows[0].n === 0;
      },
      { what: "the dead process's connections to end", timeoutMs: 15_000 },
    );
    for (const h of held) {
      await h.lock.query('ROLLBACK');
      await h.lock.end();
    }
  }

  it('answers each retry after the kill with the original resource, creating nothing more, for every operation', async () => {
    let pending = [...cases];
    const failures: string[] = [];
    let kills = 0;
    let early = 0;
    for (let round = 1; pending.length > 0; round++) {
      if (round > 8) throw new Error(`answered before the lock in every round: ${pending.map((c) => c.name).join(', ')}`);
      const batch = pending.slice(0, PER_KILL);
      const prepared = [];
      for (const c of batch) prepared.push({ c, p: await c.prepare() });
      const held: InFlight[] = [];
      for (const { c, p } of prepared) {
        const h = await holdAnswer(c, p);
        if (h) held.push(h);
        else early++;
      }
      pending = pending.filter((c) => !batch.includes(c) || !held.some((h) => h.c === c));
      if (held.length === 0) continue;
      await crash(held);
      kills++;
      for (const h of held) {
        // What the dead process left: a record claimed by it with no answer.
        const [record] = (await db.query(`SELECT state, response_status FROM gateway.idempotency_keys WHERE idempotency_key = $1`, [h.key])).rows;
        expect({ name: h.c.name, record }).toEqual({ name: h.c.name, record: { state: 'IN_FLIGHT', response_status: null } });
        const first = await h.first;
        expect({ name: h.c.name, answered: first.answered?.status }).toEqual({ name: h.c.name, answered: undefined });
      }
      await t.process.start();
      // The effect the first request left (read over HTTP for some kinds: the platform is up again).
      for (const h of held) h.afterFirst = await h.p.count();
      for (const h of held) {
        try {
          await retriedAfterCrash(h);
        } catch (error) {
          failures.push(`${h.c.name}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    }
    console.log(`${cases.length} operations, ${kills} SIGKILLs; ${early} first requests answered before the lock, tried again`);
    expect(failures).toEqual([]);
  }, 240_000);

  /**
   * The client's retries after the restart: a concurrent burst, repeated while the dead process still holds the key
   * (409 IDEMPOTENCY_KEY_IN_USE until its heartbeat is three beats old), then one more alone; all answer one resource.
   */
  async function retriedAfterCrash(h: InFlight): Promise<void> {
    const { p } = h;
    const idOf = p.idOf ?? ((b: any) => b.id);
    await p.afterCrash?.();
    const answers = await eventually(
      async () => {
        const burst = await Promise.all(Array.from({ length: 5 }, () => h.post(p.body)));
        for (const r of burst) if (r.status === 409) expect(r.body.code).toBe('IDEMPOTENCY_KEY_IN_USE');
        const answered = burst.filter((r) => r.status !== 409);
        return answered.length > 0 ? answered : undefined;
      },
      { what: `${h.c.name}: a retry past the dead process's claim`, timeoutMs: 30_000, intervalMs: 500 },
    );
    const again = await h.post(p.body);
    for (const r of [...answers, again]) {
      expect(r.status).toBeGreaterThanOrEqual(200);
      expect(r.status).toBeLessThan(300);
      expect(idOf(r.body)).toBe(idOf(answers[0].body));
      // Secrets are shown once: a retry answers the resource without them.
      expect(r.body?.clientSecret).toBeUndefined();
    }
    expect(await p.count()).toBe(h.afterFirst);

    // A state, not a crash: the gateway's record gone (purged after IDEMPOTENCY_TTL_HOURS) while the service still
    // holds the key. The same key with another request is refused by the service.
    await db.query(`DELETE FROM gateway.idempotency_keys WHERE idempotency_key = $1`, [h.key]);
    const reused = await h.post(p.other ?? { ...p.body, amount: 1 });
    expect(reused.body).toMatchObject({ status: 409, code: 'IDEMPOTENCY_KEY_REUSED' });
  }

  // A state, not a crash: which owner holds an IN_FLIGHT record decides the retry (the test above kills a real owner).
  it('a key held by a live process stays 409 until its lease ends; one whose owner is no known process is free at once', async () => {
    const key = `owner-${Math.random()}`;
    const body = { customerType: 'INDIVIDUAL', fullName: 'Owner Check' };
    const first = await t.call('POST', '/customers', { headers: { 'Idempotency-Key': key }, body });
    expect(first.status).toBe(201);
    const holdBy = (owner: string) =>
      db.query(`UPDATE gateway.idempotency_keys SET state = 'IN_FLIGHT', response_status = NULL, response_body = NULL, locked_until = now() + interval '1 hour', owner = $2 WHERE idempotency_key = $1`, [key, owner]);

    const [{ instance_id: live }] = (await db.query(`SELECT instance_id FROM gateway.gateway_instances ORDER BY heartbeat_at DESC LIMIT 1`)).rows;
    await holdBy(live);
    const busy = await t.call('POST', '/customers', { headers: { 'Idempotency-Key': key }, body });
    expect(busy.body).toMatchObject({ status: 409, code: 'IDEMPOTENCY_KEY_IN_USE' });

    await holdBy('an-instance-no-gateway-registered');
    const retry = await t.call('POST', '/customers', { headers: { 'Idempotency-Key': key }, body });
    expect(retry.status).toBe(201);
    expect(retry.body.id).toBe(first.body.id);
  });
});
