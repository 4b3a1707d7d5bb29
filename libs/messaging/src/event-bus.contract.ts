import type { EventEnvelope } from '@payments/eventsourcing';
import { createTestDatabase, eventually, SpanRecorder, TestDatabase } from '@payments/testing';
import { randomUUID } from 'node:crypto';
import { SpanKind, trace } from '@opentelemetry/api';
import { startTracing, Tracing } from '@payments/observability';
import { Pool } from 'pg';
import { dlqTopicOf, EventBus } from './event-bus.port';
import { chunked, EffectLedger, envelopeOf, exactlyOnceEach, interleaved, uniqueSuffix } from './event-bus.contract-fixtures';

export interface EventBusContractOptions {
  /** Partitions of the topics the suite creates (Kafka); also the bound on redeliveries after a clean restart. */
  partitions?: number;
  /** Bound of every polling probe. */
  timeoutMs?: number;
}

/**
 * The one bus suite (DESIGN §10), run against every adapter on a real transport. `factory` returns a fresh bus
 * per test; topics and groups are unique per test, so runs never see each other's messages or offsets.
 */
export function describeEventBusContract(name: string, factory: () => Promise<EventBus>, options: EventBusContractOptions = {}): void {
  const partitions = options.partitions ?? 3;
  const within = (what: string) => ({ timeoutMs: options.timeoutMs ?? 30_000, intervalMs: 50, what });

  describe(`EventBus contract: ${name}`, () => {
    let database: TestDatabase;
    let pool: Pool;
    let effects: EffectLedger;
    let bus: EventBus;

    beforeAll(async () => {
      database = await createTestDatabase('pp_bus_contract');
      pool = new Pool({ connectionString: database.url, max: 4 });
      effects = await EffectLedger.create(pool);
    });
    afterAll(async () => {
      await pool?.end();
      await database?.drop();
    });
    beforeEach(async () => {
      bus = await factory();
    });
    afterEach(async () => {
      await bus?.close();
    });

    const unique = (label: string): string => `contract.${label}.${uniqueSuffix()}`;
    async function newTopic(label: string): Promise<string> {
      const topic = unique(label);
      await bus.ensureTopics([topic], partitions);
      return topic;
    }

    it('answers ping', async () => {
      await expect(bus.ping()).resolves.toBeUndefined();
    });

    it('lists the event ids a topic holds (empty topic: none)', async () => {
      const topic = await newTopic('published-ids');
      expect(await bus.publishedEventIds(topic)).toEqual(new Set());
      const keys = ['a', 'b', 'c', 'd'].map((k) => `Ids:${k}-${randomUUID()}`);
      const envelopes = interleaved(keys, 12);
      await bus.publish(topic, envelopes);
      expect(await bus.publishedEventIds(topic)).toEqual(new Set(envelopes.map((e) => e.eventId)));
    });

    it('delivers the messages of each key in publish order (3 keys x 50, interleaved)', async () => {
      const topic = await newTopic('order');
      const keys = ['a', 'b', 'c'].map((k) => `Order:${k}-${randomUUID()}`);
      const seen = new Map<string, number[]>(keys.map((k) => [k, []]));
      const mismatches: string[] = [];
      await bus.subscribe({
        group: unique('order'),
        topics: [topic],
        handler: async (e, ctx) => {
          seen.get(e.streamId)?.push(e.streamVersion);
          const expected = { key: e.streamId, eventId: e.eventId, type: e.type, traceparent: e.metadata.traceparent };
          const actual = { key: ctx.key, eventId: ctx.headers.eventId, type: ctx.headers.type, traceparent: ctx.headers.traceparent };
          if (JSON.stringify(actual) !== JSON.stringify(expected)) mismatches.push(JSON.stringify(actual));
        },
      });
      const published = interleaved(keys, 150);
      for (const chunk of chunked(published, 40)) await bus.publish(topic, chunk);

      await eventually(async () => [...seen.values()].every((versions) => versions.length >= 50), within('150 deliveries'));
      const oneToFifty = Array.from({ length: 50 }, (_, i) => i + 1);
      for (const key of keys) expect(seen.get(key)).toEqual(oneToFifty);
      expect(mismatches).toEqual([]);
    });

    it('has exactly one effect per event when duplicates are delivered (at-least-once + inbox)', async () => {
      const topic = await newTopic('inbox');
      const group = unique('inbox');
      const events = interleaved([`Payment:${randomUUID()}`, `Payment:${randomUUID()}`, `Payment:${randomUUID()}`], 30);
      const redelivered = events.filter((_, i) => i % 3 === 0); // a relay that crashed before its checkpoint
      let handled = 0;
      let skippedAsDuplicate = 0;
      await bus.subscribe({
        group,
        topics: [topic],
        handler: async (e) => {
          if (!(await effects.apply(group, e))) skippedAsDuplicate++;
          handled++;
        },
      });
      await bus.publish(topic, events);
      await bus.publish(topic, redelivered);

      await eventually(async () => handled >= events.length + redelivered.length, within('40 deliveries'));
      expect(handled).toBeGreaterThan(events.length);
      expect(skippedAsDuplicate).toBe(handled - events.length);
      expect(await effects.countsByEvent(group)).toEqual(exactlyOnceEach(events));
    });

    it('resumes a restarted consumer group where it stopped', async () => {
      const topic = await newTopic('resume');
      const group = unique('resume');
      const streams = [`Transfer:${randomUUID()}`, `Transfer:${randomUUID()}`, `Transfer:${randomUUID()}`, `Transfer:${randomUUID()}`];
      const all = interleaved(streams, 40);
      const [before, after] = [all.slice(0, 20), all.slice(20)];
      const deliveries = { first: [] as string[], second: [] as string[] };
      const subscribe = (run: keyof typeof deliveries) =>
        bus.subscribe({
          group,
          topics: [topic],
          handler: async (e: EventEnvelope) => {
            await effects.apply(group, e);
            deliveries[run].push(e.eventId);
          },
        });

      const first = await subscribe('first');
      await bus.publish(topic, before);
      await eventually(async () => before.every((e) => deliveries.first.includes(e.eventId)), within('the first 20'));
      await first.stop();
      await bus.publish(topic, after);
      await subscribe('second');
      await eventually(async () => after.every((e) => deliveries.second.includes(e.eventId)), within('the last 20'));

      expect(deliveries.first.filter((id) => after.some((e) => e.eventId === id))).toEqual([]);
      const handledAgain = deliveries.second.filter((id) => before.some((e) => e.eventId === id));
      // A clean stop commits what was handled: at most one message in flight per partition may come again.
      expect(handledAgain.length).toBeLessThanOrEqual(partitions);
      expect(await effects.countsByEvent(group)).toEqual(exactlyOnceEach(all));
    });

    it('parks a poison message in <topic>.dlq after maxAttempts and keeps its key moving', async () => {
      const topic = await newTopic('poison');
      const group = unique('poison');
      const stream = `Card:${randomUUID()}`;
      const [first, poison, third, fourth] = interleaved([stream], 4);
      const maxAttempts = 3;
      const handled: string[] = [];
      const poisonAttempts: number[] = [];
      await bus.subscribe({
        group,
        topics: [topic],
        maxAttempts,
        retryBackoffMs: 20,
        handler: async (e, ctx) => {
          if (e.eventId === poison.eventId) {
            poisonAttempts.push(ctx.attempt);
            throw new Error(`card network rejected ${e.eventId}`);
          }
          handled.push(e.eventId);
        },
      });
      const parked: Array<{ envelope: EventEnvelope; headers: Readonly<Record<string, string>> }> = [];
      await bus.subscribe({
        group: unique('poison-dlq'),
        topics: [dlqTopicOf(topic)],
        handler: async (envelope, ctx) => void parked.push({ envelope, headers: ctx.headers }),
      });
      await bus.publish(topic, [first, poison, third, fourth]);

      await eventually(async () => handled.length >= 3 && parked.length >= 1, within('the rest of the key and the dead letter'));
      expect(handled).toEqual([first.eventId, third.eventId, fourth.eventId]);
      expect(poisonAttempts).toEqual([1, 2, 3]);
      expect(parked).toHaveLength(1);
      expect(parked[0].envelope).toEqual(poison);
      expect(parked[0].headers).toMatchObject({
        eventId: poison.eventId,
        'x-original-topic': topic,
        'x-group': group,
        'x-attempts': String(maxAttempts),
      });
      expect(parked[0].headers['x-error']).toContain(`card network rejected ${poison.eventId}`);

      // What an operator lists and replays (admin bus:dead-letters): the envelope, where it was consumed, why.
      const letters = await bus.deadLetters(topic);
      expect(letters).toHaveLength(1);
      expect(letters[0]).toMatchObject({ envelope: poison, eventId: poison.eventId, type: poison.type, key: stream, source: { topic, group }, attempts: maxAttempts });
      expect(letters[0].error).toContain(`card network rejected ${poison.eventId}`);
      expect(await bus.deadLetters(await newTopic('no-dead-letters'))).toEqual([]);
    });

    it('waits out an outage on one message without limit, never parking it, and keeps the key in order', async () => {
      const topic = await newTopic('outage');
      const group = unique('outage');
      const stream = `Quote:${randomUUID()}`;
      const [executed, next] = interleaved([stream], 2);
      const handled: string[] = [];
      let outages = 0;
      await bus.subscribe({
        group,
        topics: [topic],
        maxAttempts: 2,
        retryBackoffMs: 5,
        handler: async (e) => {
          // The database this consumer writes to is away for 8 attempts: 4x maxAttempts.
          if (e.eventId === executed.eventId && outages < 8) {
            outages++;
            throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
          }
          handled.push(e.eventId);
        },
      });
      await bus.publish(topic, [executed, next]);
      await eventually(async () => handled.length >= 2, within('both handled once the outage passed'));
      expect(handled).toEqual([executed.eventId, next.eventId]);
      expect(await bus.deadLetters(topic)).toEqual([]);
    });

    it('reports how far a group is behind while its handler is held, nothing once it caught up, and its dead letters', async () => {
      const topic = await newTopic('lag');
      const group = unique('lag');
      const key = `Lag:${randomUUID()}`;
      const [poison, ...rest] = interleaved([key], 5);
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let handled = 0;
      await bus.subscribe({
        group,
        topics: [topic],
        maxAttempts: 1,
        handler: async (e) => {
          await held;
          if (e.eventId === poison.eventId) throw new Error('not a valid card');
          handled++;
        },
      });
      expect(await bus.consumerBacklog('nobody.')).toEqual({ consumers: [], deadLetters: [] });
      await bus.publish(topic, [poison, ...rest]);

      const behind = await eventually(async () => {
        const { consumers } = await bus.consumerBacklog(group);
        return consumers.length === 1 && consumers[0].eventsBehind === 5 && consumers[0];
      }, within('5 events behind'));
      expect(behind).toMatchObject({ group, topic });
      // Only the embedded bus knows the age of the oldest unconsumed message; it grows while the handler is held.
      if (behind.oldestAgeSeconds !== undefined) {
        await eventually(async () => ((await bus.consumerBacklog(group)).consumers[0].oldestAgeSeconds ?? 0) >= 0.3, within('the age to grow'));
      }

      release();
      await eventually(async () => handled === 4, within('4 handled'));
      const caughtUp = await eventually(async () => {
        const backlog = await bus.consumerBacklog(group);
        return backlog.consumers[0]?.eventsBehind === 0 && backlog;
      }, within('no lag'));
      expect(caughtUp.consumers[0]).toMatchObject({ group, topic, eventsBehind: 0 });
      if (caughtUp.consumers[0].oldestAgeSeconds !== undefined) expect(caughtUp.consumers[0].oldestAgeSeconds).toBe(0);
      expect(caughtUp.deadLetters).toEqual([{ topic, messages: 1 }]);
    });

    describe('with tracing on', () => {
      const recorder = new SpanRecorder();
      let tracing: Tracing | undefined;
      beforeAll(() => {
        tracing = startTracing({ spanProcessors: [recorder] });
      });
      afterAll(() => tracing?.shutdown());

      it('carries the trace from the publisher to the handler: a publish span, the traceparent in the message, a consume span', async () => {
        const topic = await newTopic('trace');
        const seen: { header?: string; metadata?: string; active?: string }[] = [];
        await bus.subscribe({
          group: unique('trace'),
          topics: [topic],
          handler: async (e, ctx) => void seen.push({ header: ctx.headers.traceparent, metadata: e.metadata.traceparent, active: trace.getActiveSpan()?.spanContext().spanId }),
        });
        const event = envelopeOf(`Trace:${randomUUID()}`, 1); // its metadata names the span that appended it
        const [, appendTrace, appendSpan] = event.metadata.traceparent!.split('-');
        await bus.publish(topic, [event]);
        await eventually(async () => seen.length >= 1, within('the traced message'));

        const ended = recorder.getFinishedSpans().filter((s) => s.spanContext().traceId === appendTrace);
        const producer = ended.find((s) => s.kind === SpanKind.PRODUCER);
        expect(producer?.parentSpanContext?.spanId).toBe(appendSpan);
        expect(producer?.attributes).toMatchObject({ 'messaging.destination.name': topic, 'messaging.message.id': event.eventId });
        // The transport carried the publish span (Kafka: the traceparent header), and the handler ran in its child.
        const carried = `00-${appendTrace}-${producer!.spanContext().spanId}-01`;
        expect(seen[0]).toMatchObject({ header: carried, metadata: carried });
        const consumer = await eventually(async () => recorder.getFinishedSpans().find((s) => s.kind === SpanKind.CONSUMER && s.spanContext().traceId === appendTrace), within('the consume span'));
        expect(consumer.parentSpanContext?.spanId).toBe(producer!.spanContext().spanId);
        expect(seen[0].active).toBe(consumer.spanContext().spanId);
      });
    });
  });
}
