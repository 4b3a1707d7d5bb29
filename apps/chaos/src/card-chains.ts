/**
 * Card transactions of the workload (docs/cards.md): each opens with an authorization-family simulation on the run's
 * card, then the plan's network messages on it, one after the other. The status the transaction must end in follows
 * from the messages that were acknowledged.
 */

export type CardSimulation = 'authorization' | 'financial_authorization' | 'authorization_advice' | 'clearing' | 'return' | 'return_reversal';

/** The shapes of a card transaction's life the workload draws from (weights) and the messages each sends. */
export const CARD_CHAINS = {
  hold: 3, // authorized, never cleared
  exact: 3, // a clearing of all of it
  under: 2, // a clearing of less: PARTIALLY_SETTLED
  over: 2, // a clearing of more: the difference pulled after the fact
  advice: 2, // an advice (more or less), then a clearing of the new amount
  refund: 2, // cleared, then returned in full: REFUNDED
  partialReturn: 2, // cleared, part returned: SETTLED with a refunded amount
  reversal: 2, // cleared, returned in full, the return reversed (a reversal applies to REFUNDED only): SETTLED
  expiry: 1, // a clearing of 0: what was pulled goes back
  financial: 2, // a financial authorization: settled at once
  declineFunds: 1, // descriptor suffix 002: INSUFFICIENT_FUNDS, no transaction
  declinePaused: 1, // descriptor suffix 003: CARD_PAUSED, no transaction
} as const;
export type CardChain = keyof typeof CARD_CHAINS;

export interface CardStep {
  simulation: CardSimulation;
  /** Smallest unit; undefined for a return reversal (it reverses the latest return). */
  amount?: number;
}

/** The difference an advice, an over- or under-clearing or a partial return makes: far below any authorization. */
const DELTA = 1_000;

/** The opening simulation's descriptor: suffixes 002/003 decline; anything else (here 'x') is a plain purchase. */
export function descriptorOf(chain: CardChain, index: number): string {
  if (chain === 'declineFunds') return `CHAOS SHOP ${index} 002`;
  if (chain === 'declinePaused') return `CHAOS SHOP ${index} 003`;
  return `CHAOS SHOP ${index}x`;
}

/** The decline reason a declining chain expects (its authorization opens no transaction). */
export function declineOf(chain: CardChain): string | undefined {
  return chain === 'declineFunds' ? 'INSUFFICIENT_FUNDS' : chain === 'declinePaused' ? 'CARD_PAUSED' : undefined;
}

/** The messages after the opening one, for an authorization of `amount`. */
export function followUpsOf(chain: CardChain, amount: number, moreOnAdvice: boolean): CardStep[] {
  switch (chain) {
    case 'exact':
      return [{ simulation: 'clearing', amount }];
    case 'under':
      return [{ simulation: 'clearing', amount: amount - DELTA }];
    case 'over':
      return [{ simulation: 'clearing', amount: amount + DELTA }];
    case 'advice': {
      const advised = moreOnAdvice ? amount + DELTA : amount - DELTA;
      return [{ simulation: 'authorization_advice', amount: advised }, { simulation: 'clearing', amount: advised }];
    }
    case 'refund':
      return [{ simulation: 'clearing', amount }, { simulation: 'return', amount }];
    case 'partialReturn':
      return [{ simulation: 'clearing', amount }, { simulation: 'return', amount: DELTA }];
    case 'reversal':
      return [{ simulation: 'clearing', amount }, { simulation: 'return', amount }, { simulation: 'return_reversal' }];
    case 'expiry':
      return [{ simulation: 'clearing', amount: 0 }];
    default:
      return [];
  }
}

/** The status a card transaction ends in after the opening message and the acknowledged follow-ups, in order. */
export function expectedCardStatus(opening: CardSimulation, amount: number, steps: CardStep[]): string {
  if (opening === 'financial_authorization') return 'SETTLED';
  let authorized = amount;
  let settled = 0;
  const returns: number[] = [];
  let status = 'AUTHORIZED';
  for (const step of steps) {
    switch (step.simulation) {
      case 'authorization_advice':
        authorized = step.amount!;
        break;
      case 'clearing':
        if (step.amount === 0) status = 'SETTLED'; // the rest expired
        else {
          settled += step.amount!;
          status = settled >= authorized ? 'SETTLED' : 'PARTIALLY_SETTLED';
        }
        break;
      case 'return':
        returns.push(step.amount!);
        status = returns.reduce((a, b) => a + b, 0) >= settled ? 'REFUNDED' : 'SETTLED';
        break;
      case 'return_reversal':
        returns.pop();
        status = 'SETTLED';
        break;
    }
  }
  return status;
}
