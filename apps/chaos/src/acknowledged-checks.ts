import type { CheckContext, Violation } from './checks';

/**
 * A seed checks only what was acknowledged: one whose operations were mostly refused, skipped or unanswered would
 * pass every other check vacuously. It fails when fewer than `minShare` of the planned operations got the answer
 * the plan expects (2xx, or the planned refusal), when any operation gave up, and when a planned refusal (a limit)
 * was acknowledged or refused for another reason, and when any attempt was answered 500, 502 or 504.
 */
export function checkAcknowledged(ctx: CheckContext, minShare: number): Violation[] {
  const violations: Violation[] = [];
  let asPlanned = 0;
  for (const r of ctx.records) {
    const { op, result } = r;
    const answer = result.answer;
    if (result.outcome === 'gave-up') violations.push({ check: 'acked', op: op.index, message: `op ${op.index} (${op.kind} ${op.key}) gave up after ${result.attempts.length} attempts; last: ${JSON.stringify(result.attempts[result.attempts.length - 1])}` });
    if (op.refusal) {
      if (result.outcome === 'acked') violations.push({ check: 'acked', op: op.index, message: `op ${op.index} (${op.kind}, amount ${op.amount}) must be refused ${op.refusal.status} ${op.refusal.code}; it was acknowledged ${answer?.status} ${answer?.body?.id}` });
      else if (result.outcome === 'rejected' && (answer?.status !== op.refusal.status || answer?.body?.code !== op.refusal.code)) {
        violations.push({ check: 'acked', op: op.index, message: `op ${op.index} (${op.kind}, amount ${op.amount}) must be refused ${op.refusal.status} ${op.refusal.code}; it was ${answer?.status} ${answer?.body?.code}` });
      } else if (result.outcome === 'rejected') asPlanned++;
    } else if (result.outcome === 'acked') asPlanned++;
    // A crash, a restart or an outage is 503 (with Retry-After) or no answer at all; a 500 says the platform did not
    // know what happened to it (issue #42: 69 × 500 during a PostgreSQL restart).
    const internal = result.attempts.filter((a) => a.status !== undefined && [500, 502, 504].includes(a.status));
    if (internal.length > 0) violations.push({ check: 'acked', op: op.index, message: `op ${op.index} (${op.kind} ${op.key}) was answered ${internal.map((a) => `${a.status} ${a.code ?? ''}`.trim()).join(', ')}: an outage is 503` });
  }
  const planned = ctx.plan.ops.length;
  if (asPlanned < minShare * planned) {
    const outcomes = new Map<string, number>();
    for (const r of ctx.records) outcomes.set(r.result.outcome, (outcomes.get(r.result.outcome) ?? 0) + 1);
    violations.push({ check: 'acked', message: `${asPlanned} of ${planned} operations answered as planned (< ${Math.round(minShare * 100)}%): ${[...outcomes].map(([o, n]) => `${o} ${n}`).join(', ')}` });
  }
  return violations;
}
