import { BalanceChangeCause, LedgerAccountEvent } from './ledger-account.events';
import { available, evolveLedgerAccount, LedgerAccount, LedgerAccountState } from './ledger-account.state';

/**
 * Appends `InternalAccountBalanceChanged.v1` to what a command decided on a CUSTOMER or PLATFORM account, with the
 * balances folded from those events: consumers get the new `balance` and `totalBalance` without folding the ledger
 * themselves. Nothing is added for SYSTEM accounts or for a replay (no events).
 */
export function withBalanceChanged(account: { status: 'OPEN' } & LedgerAccount, events: LedgerAccountEvent[]): LedgerAccountEvent[] {
  if (account.owner === 'SYSTEM' || events.length === 0) return events;
  const found = causeOf(events[events.length - 1]);
  if (!found) return events;
  const { at, ...cause } = found;
  const after = events.reduce<LedgerAccountState>(evolveLedgerAccount, account);
  if (after.status !== 'OPEN') return events;
  const { accountId, customerId, mode, currency } = account;
  return [
    ...events,
    {
      type: 'InternalAccountBalanceChanged.v1',
      data: {
        accountId,
        ...(customerId ? { customerId } : {}),
        mode,
        currency,
        balance: available(after),
        totalBalance: after.total,
        previousBalance: available(account),
        previousTotalBalance: account.total,
        cause,
        at,
      },
    },
  ];
}

function causeOf(event: LedgerAccountEvent): (BalanceChangeCause & { at: string }) | undefined {
  switch (event.type) {
    case 'PostingRecorded.v1': {
      const { entryId, kind, reference, amount, holdId, at } = event.data;
      return { type: 'POSTING', entryId, kind, reference, amount, ...(holdId ? { holdId } : {}), at };
    }
    case 'HoldPlaced.v1':
      return { type: 'HOLD_PLACED', holdId: event.data.holdId, reference: event.data.reference, amount: event.data.amount, at: event.data.at };
    case 'HoldClosed.v1':
      // A capture closes its hold in the same append as its posting, which comes last and is the cause.
      if (event.data.outcome === 'CAPTURED') return undefined;
      return { type: 'HOLD_CLOSED', holdId: event.data.holdId, outcome: event.data.outcome, amount: event.data.amount, at: event.data.at };
    default:
      return undefined;
  }
}
