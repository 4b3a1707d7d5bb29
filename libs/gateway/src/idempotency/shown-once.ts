/**
 * A copy of `body` without the fields at `paths` (an operation's `shownOnce`): dot paths, `[]` steps into every item
 * of an array (`deviceCode.code`, `data[].clientSecret`). What the Idempotency-Key record keeps of an answer: a
 * secret is shown to the first answer only, and never rests in the gateway's table. Pure; `body` is not changed.
 */
export function withoutShownOnce(body: unknown, paths: readonly string[] | undefined): unknown {
  if (!paths?.length) return body;
  return paths.reduce((value, path) => without(value, path.split('.')), body);
}

function without(value: unknown, steps: string[]): unknown {
  if (steps.length === 0 || value === null || typeof value !== 'object') return value;
  const [step, ...rest] = steps;
  const many = step.endsWith('[]');
  const name = many ? step.slice(0, -2) : step;
  if (Array.isArray(value) || !Object.prototype.hasOwnProperty.call(value, name)) return value;
  const record = value as Record<string, unknown>;
  if (!many && rest.length === 0) {
    const { [name]: _removed, ...kept } = record;
    return kept;
  }
  const child = record[name];
  const next = many ? (Array.isArray(child) ? child.map((item) => without(item, rest)) : child) : without(child, rest);
  return { ...record, [name]: next };
}
