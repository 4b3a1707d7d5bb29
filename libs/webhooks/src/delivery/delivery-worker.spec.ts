import type { EgressClient } from '@payments/runtime';
import type { WebhookMetrics } from '../ops/webhook-metrics';
import type { WebhookSettingsCache } from '../settings/webhook-settings.cache';
import type { DeliveryQueue } from './delivery-queue';
import { DeliveryWorker } from './delivery-worker';
import { RETRY_POLICY_DEFAULTS } from './retry-policy';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('DeliveryWorker poll loop', () => {
  it('is back at its base pace after a nudge ends an idle pause (the back-off starts over)', async () => {
    const claims: number[] = [];
    const queue = { claim: async () => (claims.push(Date.now()), []) } as unknown as DeliveryQueue;
    const worker = new DeliveryWorker(queue, {} as WebhookSettingsCache, {} as WebhookMetrics, {} as EgressClient, {
      concurrency: 4,
      perPlatformConcurrency: 2,
      attemptTimeoutMs: 1_000,
      pollIntervalMs: 40,
      pollIdleMaxMs: 5_000,
      retry: { ...RETRY_POLICY_DEFAULTS, scale: 1 },
    });
    worker.start();
    try {
      await sleep(700); // idle pauses 40, 80, 160, 320: the next is 640
      worker.nudge();
      await sleep(30);
      const woken = claims.length;
      await sleep(250);
      // After the nudge's claim found nothing, the next claim comes at the base pace (40 ms), not after 1,280 ms.
      expect(claims.length).toBeGreaterThan(woken);
    } finally {
      await worker.stop();
    }
  });
});
