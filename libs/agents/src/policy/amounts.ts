import type { CallerContext } from '@payments/contracts';
import { DomainError } from '@payments/eventsourcing';
import { findCurrency } from '@payments/money';
import type { AgentPeers } from '../peers';

/**
 * Converts an amount in the smallest unit of `from` to the smallest unit of `to` at the mid rate of the moment
 * (limits and thresholds in another currency than the action's). Rounded up: a limit is never passed by rounding.
 */
export async function convertAmount(peers: AgentPeers, caller: CallerContext, amount: number, from: string, to: string): Promise<number> {
  if (from === to) return amount;
  const [source, target] = [findCurrency(from), findCurrency(to)];
  const rate = source && target ? await peers.midRate(caller, from, to) : null;
  if (!source || !target || rate === null) throw new DomainError('FORBIDDEN', `no rate from ${from} to ${to} to check the agent's limits against`);
  return Math.ceil((amount / 10 ** source.decimals) * rate * 10 ** target.decimals);
}
