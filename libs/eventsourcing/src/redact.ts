/**
 * Removes `keys` at any depth of an event's data (a field may sit at the top or inside a nested object such as a
 * beneficiary). Services use it in their relay's `toPublic`: the log keeps the field, the bus contract does not.
 */
export function withoutKeys(value: Record<string, any>, keys: readonly string[]): Record<string, any> {
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !keys.includes(k))
      .map(([k, v]) => [k, v && typeof v === 'object' && !Array.isArray(v) ? withoutKeys(v, keys) : v]),
  );
}
