/** A dependency a consumer must not touch in a test: any use throws, naming what was used. */
export const untouchable = <T>(what: string): T =>
  new Proxy(
    {},
    {
      get: (_t, key) =>
        key === 'then'
          ? undefined
          : () => {
              throw new Error(`${what}.${String(key)} used`);
            },
    },
  ) as T;

/** A delivered envelope of `type` with `data`, as a consumer receives it from the bus (an EventEnvelope). */
export const testEnvelope = (type: string, data: unknown = {}) => ({
  eventId: `e-${type}`,
  type,
  streamId: 'S:1',
  streamVersion: 1,
  globalPosition: '1',
  occurredAt: '2026-01-01T00:00:00.000Z',
  platformId: 'Platform:1',
  data,
  metadata: {},
});
