import { CardStep, expectedCardStatus } from './card-chains';
import type { CheckContext, Violation } from './checks';
import type { OpRecord } from './workload';

/** The sandbox stablecoin provider's amount magic (docs/stablecoins.md): cents ending 002 or 003 fail. */
const stablecoinOutcome = (cents: number) => (cents % 1000 === 2 || cents % 1000 === 3 ? 'FAILED' : 'COMPLETED');
/**
 * A wire-funded operation whose wire was never sent: it waits for it, unless the sandbox provider refuses it at
 * submission (…003) or gives it a short funding window (…004, expired long before the checks). Seed 216 expected
 * PENDING_FUNDING of a mint of 100.03, which the sandbox rejects.
 */
const unfundedOutcome = (cents: number) => (cents % 1000 === 3 ? 'FAILED' : cents % 1000 === 4 ? 'EXPIRED' : 'PENDING_FUNDING');

/**
 * Nothing stuck, once the platform is quiet: every resource an operation made is in the state its acknowledged
 * operations lead to. Payments end COMPLETED or FAILED; a card transaction in the status its messages give (docs/
 * cards.md) with no pull pending; an agent action APPROVED (at once, or approved), REJECTED, or still waiting when
 * no decision was acknowledged; a stablecoin operation COMPLETED or FAILED as the sandbox provider decides, or
 * waiting for a wire that was never sent; an executed quote COMPLETED or FAILED, one never executed PENDING or EXPIRED.
 */
export async function checkResources(ctx: CheckContext): Promise<Violation[]> {
  const { db, records } = ctx;
  const violations: Violation[] = [];
  const stuck = (message: string, op?: number) => violations.push({ check: 'stuck', message, op });
  const acked = (r: OpRecord | undefined): r is OpRecord => r?.result.outcome === 'acked';
  /** The acknowledged follow-ups of each operation (by the index of the operation they need). */
  const followUps = new Map<number, OpRecord[]>();
  for (const r of records) if (r.op.after !== undefined && acked(r)) followUps.set(r.op.after, [...(followUps.get(r.op.after) ?? []), r]);
  const statusOf = async (sql: string) => new Map((await db.query<{ id: string; status: string; body: any }>(sql)).rows.map((row) => [row.id, row]));

  const transactions = await statusOf(`SELECT transaction_id AS id, status, body FROM payments.transactions WHERE type <> 'CARD'`);
  for (const [id, t] of transactions) if (t.status !== 'COMPLETED' && t.status !== 'FAILED') stuck(`transaction ${id} (${t.body?.type}) is still ${t.status}`);

  const cards = await statusOf(`SELECT transaction_id AS id, status, body FROM cards.card_transactions`);
  const quotes = await statusOf(`SELECT quote_id AS id, status, body FROM quoting.quotes`);
  const actions = await statusOf(`SELECT action_id AS id, status, body FROM agents.agent_actions`);
  const operations = await statusOf(`SELECT operation_id AS id, status, body FROM payments.stablecoin_operations`);
  const expect = (r: OpRecord, what: string, actual: string | undefined, allowed: string[]) => {
    if (actual === undefined) return; // the lost check names it
    if (!allowed.includes(actual)) stuck(`op ${r.op.index} (${r.op.kind} ${r.resourceId}): ${what} is ${actual}, expected ${allowed.join(' or ')}`, r.op.index);
  };

  for (const r of records) {
    if (!acked(r)) continue;
    const next = followUps.get(r.op.index) ?? [];
    switch (r.op.kind) {
      case 'card': {
        if (r.op.card!.decline || !r.resourceId) break;
        const steps: CardStep[] = [];
        for (let step = next.find((f) => f.op.kind === 'cardMessage'); step; step = (followUps.get(step.op.index) ?? []).find((f) => f.op.kind === 'cardMessage')) {
          steps.push({ simulation: step.op.card!.simulation, amount: step.op.amount });
        }
        const tx = cards.get(r.resourceId);
        expect(r, `card transaction (${r.op.card!.shape}: ${steps.map((s) => s.simulation).join(', ') || 'no message'})`, tx?.status, [expectedCardStatus(r.op.card!.simulation, r.op.amount, steps)]);
        if (tx && tx.body?.pullSummary?.pendingCount !== 0) stuck(`op ${r.op.index}: card transaction ${r.resourceId} has ${tx.body?.pullSummary?.pendingCount} pulls pending`, r.op.index);
        break;
      }
      case 'agentTransfer': {
        const decision = next.find((f) => f.op.kind === 'agentDecide');
        const waits = r.result.answer!.body.status === 'PENDING_APPROVAL';
        expect(r, 'agent action', actions.get(r.resourceId!)?.status, !waits ? ['APPROVED'] : decision ? [decision.op.decision === 'approve' ? 'APPROVED' : 'REJECTED'] : ['PENDING_APPROVAL']);
        break;
      }
      case 'agentExecute':
        expect(r, 'agent action', actions.get(r.resourceId!)?.status, ['APPROVED']);
        break;
      case 'mint':
      case 'burn': {
        const waitsForWire = r.op.mintFunding === 'WIRE' && !next.some((f) => f.op.kind === 'fundMint');
        expect(r, 'stablecoin operation', operations.get(r.resourceId!)?.status, waitsForWire ? [unfundedOutcome(r.op.amount)] : [stablecoinOutcome(r.op.amount)]);
        break;
      }
      case 'quote':
      case 'realtimeQuote':
      case 'walletQuote':
      case 'agentQuote': {
        const executed = r.op.immediate || next.some((f) => ['execute', 'send', 'walletExecute', 'agentExecute'].includes(f.op.kind));
        expect(r, 'quote', quotes.get(r.resourceId!)?.status, executed ? ['COMPLETED', 'FAILED'] : ['PENDING', 'EXPIRED']);
        break;
      }
    }
  }
  return violations;
}
