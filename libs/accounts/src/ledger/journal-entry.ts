import { DomainError } from '@payments/eventsourcing';

/** One line of a journal entry: the account and its signed amount; `holdId` when the debit captures a hold. */
export interface Leg {
  accountId: string;
  currency: string;
  amount: number;
  holdId?: string;
}

export interface JournalEntry {
  entryId: string;
  reference: string;
  kind: string;
  legs: readonly Leg[];
}

/**
 * The double-entry rule, checked where entries are made: at least two legs, one currency, integer amounts, and a
 * zero sum. No entry that creates or destroys money reaches an account.
 */
export function checkEntry(entry: JournalEntry): DomainError | undefined {
  if (entry.legs.length < 2) return new DomainError('UNBALANCED_ENTRY', 'an entry needs at least two legs');
  const currencies = new Set(entry.legs.map((l) => l.currency));
  if (currencies.size !== 1) return new DomainError('UNBALANCED_ENTRY', 'an entry moves one currency');
  if (entry.legs.some((l) => !Number.isSafeInteger(l.amount) || l.amount === 0)) return new DomainError('INVALID_AMOUNT', 'legs are non-zero safe integers');
  const sum = entry.legs.reduce((s, l) => s + l.amount, 0);
  if (sum !== 0) return new DomainError('UNBALANCED_ENTRY', `entry ${entry.entryId} sums to ${sum}, not 0`);
  if (new Set(entry.legs.map((l) => l.accountId)).size !== entry.legs.length) return new DomainError('UNBALANCED_ENTRY', 'an account appears once per entry');
  return undefined;
}
