import type { DataSource, EntityManager } from 'typeorm';
import { v5 as uuidv5 } from 'uuid';
import { ApiError, CallerContext, LedgerAccountBalance, LedgerEntryResult, LedgerSystemPurpose } from '@payments/contracts';
import { DurableTimers, TimerHandler, TimerRow } from '@payments/eventsourcing';
import { CallerScope } from './ledger-account.decider';
import { available, LedgerAccountState } from './ledger-account.state';
import { JournalEntry, Leg } from './journal-entry';
import { parseCaptureHold, parseCredit, parsePlaceHold, parseReleaseHold, parseReverse, parseTransfer } from './ledger-requests';
import { LedgerService, systemAccountId } from './ledger.service';

export const HOLD_EXPIRY_TIMER = 'ledger.hold-expiry';
const HOLD_TIMER_NAMESPACE = '3d0c8f6e-2b7a-4e1d-8c5f-9a4b1e7d2c60';

interface AccountRow {
  account_id: string;
  customer_id: string | null;
  currency: string;
  total: string;
  held: string;
}

/**
 * The ledger commands other services send over RPC (LedgerRpc), scoped to the caller's platform and mode: a
 * customer or platform account of anyone else is 404. Idempotency comes from the decider (hold and entry ids).
 * Every answer is the balances after the command: the accounts' states it decided on and appended to (guarded by
 * that append, so current), or for a replayed entry, which posts nothing, the balances read as they are.
 */
export class LedgerCommands {
  constructor(
    private readonly dataSource: DataSource,
    private readonly ledger: LedgerService,
    private readonly timers: DurableTimers<EntityManager>,
  ) {}

  timerHandlers(): Record<string, TimerHandler> {
    return { [HOLD_EXPIRY_TIMER]: (timer) => this.expire(timer) };
  }

  /**
   * A hold with `expiresInMs` schedules its expiry timer in the same transaction. The delay is real time (not
   * scaled by SANDBOX_TIME_SCALE): the caller chose it, and a capture after it fails with HOLD_EXPIRED.
   */
  async placeHold(caller: CallerContext, body: unknown, now: string): Promise<LedgerAccountBalance> {
    const r = parsePlaceHold(body);
    const expiresInMs = r.expiresInMs;
    const expiresAt = expiresInMs === undefined ? undefined : new Date(Date.parse(now) + expiresInMs).toISOString();
    const scheduleExpiry = expiresInMs === undefined ? undefined : async (tx: EntityManager) => {
      await this.timers.schedule(tx, {
        id: uuidv5(`${r.accountId}/${r.holdId}`, HOLD_TIMER_NAMESPACE),
        name: HOLD_EXPIRY_TIMER,
        delayMs: expiresInMs,
        realTime: true,
        streamId: r.accountId,
        platformId: caller.platformId,
        payload: { accountId: r.accountId, holdId: r.holdId },
      });
    };
    // The decider checks the caller's scope and the currency on the account's fold (no read first).
    const hold = { holdId: r.holdId, amount: r.amount, reference: r.reference ?? r.holdId, expiresAt, currency: r.currency };
    return balanceOf(await this.ledger.placeHold(caller.platformId, r.accountId, hold, now, scheduleExpiry, scope(caller)));
  }

  /** Debits part or all of the hold to a system account (toPurpose) or another account of the caller; the rest is freed. */
  async captureHold(caller: CallerContext, body: unknown, now: string): Promise<LedgerAccountBalance> {
    const r = parseCaptureHold(body);
    // The one read: the account's currency names the system account (its legs are checked again on their folds).
    const account = await this.own(caller, r.accountId);
    const to = r.toAccountId ?? systemAccountId(caller.platformId, caller.mode, r.toPurpose!, account.currency, r.entryId);
    const legs: Leg[] = [
      { accountId: r.accountId, currency: account.currency, amount: -r.amount, holdId: r.holdId },
      { accountId: to, currency: account.currency, amount: r.amount },
    ];
    const posted = await this.post(caller, { entryId: r.entryId, reference: r.reference ?? r.holdId, kind: r.kind ?? 'HOLD_CAPTURE', legs }, now, r.toPurpose ? [legs[1]] : []);
    return posted ? balanceOf(posted.get(r.accountId)!) : this.balance(caller, r.accountId);
  }

  async releaseHold(caller: CallerContext, body: unknown, now: string): Promise<LedgerAccountBalance> {
    const r = parseReleaseHold(body);
    return balanceOf(await this.ledger.releaseHold(caller.platformId, r.accountId, r.holdId, 'RELEASED', now, scope(caller)));
  }

  async credit(caller: CallerContext, body: unknown, now: string): Promise<LedgerAccountBalance> {
    const r = parseCredit(body);
    const from = this.system(caller, r.fromPurpose, r.currency, -r.amount, r.entryId);
    const legs: Leg[] = [{ accountId: r.accountId, currency: r.currency, amount: r.amount }, from];
    const posted = await this.post(caller, { entryId: r.entryId, reference: r.reference ?? r.entryId, kind: r.kind ?? 'CREDIT', legs }, now, [from]);
    return posted ? balanceOf(posted.get(r.accountId)!) : this.balance(caller, r.accountId);
  }

  /** Once per entry: a second reversal of the same entry under another id is 409 CONFLICT (journal_entries). */
  async reverse(caller: CallerContext, body: unknown, now: string): Promise<LedgerEntryResult> {
    const r = parseReverse(body);
    const posted = await this.ledger.reverse(caller.platformId, caller.mode, r.originalEntryId, r.reversalEntryId, now, r.shortfallTo);
    return posted ? entryResultOf(r.reversalEntryId, posted) : this.entryResult(caller, r.reversalEntryId);
  }

  /** A balanced entry of two or more legs; each leg names an account of the caller or a system purpose. */
  async transfer(caller: CallerContext, body: unknown, now: string): Promise<LedgerEntryResult> {
    const r = parseTransfer(body);
    const legs: Leg[] = [];
    const systemLegs: Leg[] = [];
    for (const leg of r.legs) {
      if (leg.purpose) {
        const system = this.system(caller, leg.purpose, leg.currency, leg.amount, r.entryId);
        legs.push(system);
        systemLegs.push(system);
      } else {
        legs.push({ accountId: leg.accountId!, currency: leg.currency, amount: leg.amount, ...(leg.holdId ? { holdId: leg.holdId } : {}) });
      }
    }
    const posted = await this.post(caller, { entryId: r.entryId, reference: r.reference ?? r.entryId, kind: r.kind ?? 'TRANSFER', legs }, now, systemLegs);
    return posted ? entryResultOf(r.entryId, posted) : this.entryResult(caller, r.entryId);
  }

  /** A hold captured or released before it fired (or expired by a first run) stays as it is. */
  private async expire(timer: TimerRow): Promise<void> {
    const { accountId, holdId } = timer.payload as { accountId: string; holdId: string };
    await this.ledger.releaseHold(timer.platform_id!, accountId, holdId, 'EXPIRED', new Date().toISOString());
  }

  /**
   * Entry ids are the caller's: one id names one entry in a platform and mode. A replay (same accounts and amounts)
   * posts nothing (undefined); the same id for other legs is 409 CONFLICT instead of a second entry under that id.
   * Every leg that is not a system purpose is an account the caller names: one of its own, checked by the ledger.
   */
  private post(caller: CallerContext, entry: JournalEntry, now: string, systemLegs: Leg[]): Promise<ReadonlyMap<string, LedgerAccountState> | undefined> {
    const callerLegs = entry.legs.filter((l) => !systemLegs.includes(l)).map((l) => l.accountId);
    return this.ledger.postEntry(caller.platformId, caller.mode, entry, now, { systemAccounts: systemLegs, callerLegs });
  }

  private system(caller: CallerContext, purpose: LedgerSystemPurpose, currency: string, amount: number, entryId: string): Leg {
    return { accountId: systemAccountId(caller.platformId, caller.mode, purpose, currency, entryId), currency, amount };
  }

  /** A customer or platform account of the caller's platform and mode; anything else is not found. */
  private async own(caller: CallerContext, accountId: string): Promise<AccountRow> {
    const rows: AccountRow[] = await this.dataSource.query(
      `SELECT account_id, customer_id, currency, total::text, held::text FROM ledger_accounts
        WHERE account_id = $1 AND platform_id = $2 AND mode = $3 AND owner <> 'SYSTEM'`,
      [accountId, caller.platformId, caller.mode],
    );
    if (!rows[0]) throw new ApiError('NOT_FOUND', `account ${accountId} not found`);
    return rows[0];
  }

  private async balance(caller: CallerContext, accountId: string): Promise<LedgerAccountBalance> {
    return toBalance(await this.own(caller, accountId));
  }

  private async entryResult(caller: CallerContext, entryId: string): Promise<LedgerEntryResult> {
    const rows: AccountRow[] = await this.dataSource.query(
      `SELECT a.account_id, a.customer_id, a.currency, a.total::text, a.held::text FROM ledger_accounts a
        WHERE a.owner <> 'SYSTEM' AND a.account_id IN (SELECT account_id FROM journal_postings WHERE entry_id = $1 AND platform_id = $2 AND mode = $3)
        ORDER BY a.account_id`,
      [entryId, caller.platformId, caller.mode],
    );
    return { entryId, balances: rows.map(toBalance) };
  }
}

const scope = (caller: CallerContext): CallerScope => ({ platformId: caller.platformId, mode: caller.mode });

/** The entry's customer and platform accounts after it, in account-id order (as `entryResult` reads them). */
function entryResultOf(entryId: string, posted: ReadonlyMap<string, LedgerAccountState>): LedgerEntryResult {
  const accounts = [...posted.values()].filter((s): s is Extract<LedgerAccountState, { status: 'OPEN' }> => s.status === 'OPEN' && s.owner !== 'SYSTEM');
  accounts.sort((a, b) => (a.accountId < b.accountId ? -1 : a.accountId > b.accountId ? 1 : 0));
  return { entryId, balances: accounts.map(balanceOf) };
}

/** The balance of an account as a command left it (a command that succeeded ran on an open account). */
function balanceOf(state: LedgerAccountState): LedgerAccountBalance {
  if (state.status !== 'OPEN') throw new Error('a ledger command succeeded on an account that is not open');
  return {
    accountId: state.accountId,
    ...(state.customerId ? { customerId: state.customerId } : {}),
    currency: state.currency,
    balance: available(state),
    totalBalance: state.total,
  };
}

const toBalance = (row: AccountRow): LedgerAccountBalance => ({
  accountId: row.account_id,
  ...(row.customer_id ? { customerId: row.customer_id } : {}),
  currency: row.currency,
  balance: Number(row.total) - Number(row.held),
  totalBalance: Number(row.total),
});
