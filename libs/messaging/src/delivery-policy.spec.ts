import { envelopeOf } from './event-bus.contract-fixtures';
import { backoffMs, deadLetterHeaders, deliver, Delivery, deliveryPolicyOf } from './delivery-policy';
import { parseEnvelopeJson } from './envelope-codec';

const quiet = (): void => undefined;

function deliveryOf(handler: Delivery['handler'], overrides: Partial<Delivery> = {}): Delivery {
  const envelope = envelopeOf('Stream:1', 1);
  return {
    decode: () => envelope,
    context: { topic: 't', key: 'Stream:1', headers: {} },
    handler,
    policy: deliveryPolicyOf({ maxAttempts: 3, retryBackoffMs: 1 }),
    signal: new AbortController().signal,
    log: quiet,
    trace: { system: 'postgresql', group: 'g' },
    ...overrides,
  };
}

describe('delivery policy', () => {
  it('backs off exponentially from retryBackoffMs, capped at 5 s', () => {
    const policy = deliveryPolicyOf({ retryBackoffMs: 200 });
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffMs(policy, n))).toEqual([200, 400, 800, 1600, 3200, 5000]);
    expect(policy.maxAttempts).toBe(5);
  });

  it('rejects a policy that could never deliver', () => {
    expect(() => deliveryPolicyOf({ maxAttempts: 0 })).toThrow(/maxAttempts/);
    expect(() => deliveryPolicyOf({ retryBackoffMs: -1 })).toThrow(/retryBackoffMs/);
  });

  it('retries a failing handler and reports the attempt that succeeded', async () => {
    const seen: number[] = [];
    const outcome = await deliver(
      deliveryOf(async (_e, ctx) => {
        seen.push(ctx.attempt);
        if (ctx.attempt < 3) throw new Error('not yet');
      }),
    );
    expect(outcome).toEqual({ kind: 'handled', attempts: 3 });
    expect(seen).toEqual([1, 2, 3]);
  });

  it('dead-letters with the last error once maxAttempts is spent, without letting it escape', async () => {
    let calls = 0;
    const outcome = await deliver(
      deliveryOf(async () => {
        calls++;
        throw new TypeError(`failure ${calls}`);
      }),
    );
    expect(outcome).toEqual({ kind: 'dead-letter', attempts: 3, error: 'TypeError: failure 3' });
    expect(calls).toBe(3);
  });

  it('waits out an outage without limit: database, broker or peer failures never park the message', async () => {
    // 12 outages of each kind, far beyond maxAttempts (3), then the dependency is back: handled, never parked.
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const outages: unknown[] = [
      ...Array.from({ length: 12 }, () => refused),
      ...Array.from({ length: 12 }, () => Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })),
      ...Array.from({ length: 12 }, () => Object.assign(new Error('the accounts service is unavailable'), { name: 'ApiError', code: 'SERVICE_UNAVAILABLE', status: 503 })),
      ...Array.from({ length: 12 }, () => new AggregateError([refused, refused], '')),
    ];
    const logged: string[] = [];
    const outcome = await deliver(
      deliveryOf(
        async () => {
          const next = outages.shift();
          if (next) throw next;
        },
        { policy: { maxAttempts: 3, retryBackoffMs: 1, retryBackoffMaxMs: 2 }, log: (level, message) => logged.push(`${level} ${message}`) },
      ),
    );
    expect(outcome).toEqual({ kind: 'handled', attempts: 49 });
    expect(logged.filter((l) => l.startsWith('warn handler waits'))).toHaveLength(5); // the 1st, 11th, 21st, … outage
    expect(logged).toContain('info handler recovered after an outage');
  });

  it('counts only failures about the message itself towards maxAttempts, anew after an outage', async () => {
    const failures = [new TypeError('bad 1'), new TypeError('bad 2'), Object.assign(new Error('Connection terminated unexpectedly')), new TypeError('bad 3'), new TypeError('bad 4'), new TypeError('bad 5')];
    const outcome = await deliver(deliveryOf(async () => Promise.reject(failures.shift() ?? new TypeError('bad again')), { policy: { maxAttempts: 3, retryBackoffMs: 1, retryBackoffMaxMs: 2 } }));
    expect(outcome).toEqual({ kind: 'dead-letter', attempts: 6, error: 'TypeError: bad 5' });
  });

  it('stops waiting on an outage when the subscription stops, without moving on', async () => {
    const stop = new AbortController();
    let calls = 0;
    const running = deliver(
      deliveryOf(
        async () => {
          if (++calls === 30) stop.abort();
          throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
        },
        { policy: { maxAttempts: 3, retryBackoffMs: 1, retryBackoffMaxMs: 1 }, signal: stop.signal },
      ),
    );
    await expect(running).resolves.toEqual({ kind: 'stopped', attempts: 30 });
  });

  it('dead-letters a poison message at once, without calling the handler', async () => {
    const handler = jest.fn();
    const outcome = await deliver(deliveryOf(handler, { decode: () => parseEnvelopeJson(Buffer.from('{"eventId":')) }));
    expect(outcome).toMatchObject({
      kind: 'dead-letter',
      attempts: 0,
      error: expect.stringMatching(/^poison message: PoisonMessageError: value is not JSON/),
    });
    expect(handler).not.toHaveBeenCalled();
  });

  it('gives up mid-backoff when the subscription stops, so the position does not move', async () => {
    const stop = new AbortController();
    const policy = deliveryPolicyOf({ maxAttempts: 5, retryBackoffMs: 60_000 });
    const running = deliver(deliveryOf(async () => Promise.reject(new Error('down')), { policy, signal: stop.signal }));
    setImmediate(() => stop.abort());
    await expect(running).resolves.toEqual({ kind: 'stopped', attempts: 1 });
  });

  it('describes where a dead letter came from', () => {
    const headers = deadLetterHeaders(
      { topic: 'payments.cards.events.v1', partition: 2, offset: '41', group: 'webhooks' },
      { kind: 'dead-letter', attempts: 5, error: 'x'.repeat(5_000) },
      new Date('2025-01-02T03:04:05Z'),
    );
    expect(headers).toMatchObject({
      'x-original-topic': 'payments.cards.events.v1',
      'x-original-partition': '2',
      'x-original-offset': '41',
      'x-group': 'webhooks',
      'x-attempts': '5',
      'x-dead-lettered-at': '2025-01-02T03:04:05.000Z',
    });
    expect(headers['x-error']).toHaveLength(2_000);
  });
});
