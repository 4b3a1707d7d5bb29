import { createHash } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { v5 as uuidv5 } from 'uuid';
import type { LedgerSystemPurpose, Mode } from '@payments/contracts';
import { ClaimInTransaction, CommandExecutor, DomainError, queryPrepared, retryOnConflict } from '@payments/eventsourcing';
import { CallerScope, LedgerAccountCommand, ledgerAccountDecider, visibleTo } from './ledger-account.decider';
import { LedgerAccountEvent, LedgerOwner } from './ledger-account.events';
import { ledgerAccountAlongside, ledgerAccountStatements } from './ledger-account.projection';
import { LedgerAccountState } from './ledger-account.state';
import { checkEntry, JournalEntry, Leg } from './journal-entry';

const SYSTEM_NAMESPACE = 'c1b7a0b2-3f1e-4f0c-9d5e-2a6b8e4f7d31';

export interface PostOptions {
  /** System accounts of the entry, opened by it when they do not exist yet. */
  systemAccounts?: readonly Leg[];
  /** An Idempotency-Key claimed in the entry's transaction. */
  claim?: ClaimInTransaction;
  /** Accounts an RPC caller named: they must be customer or platform accounts of the entry's platform and mode. */
  callerLegs?: readonly string[];
}

export interface OpenAccount {
  accountId: string;
  platformId: string;
  mode: Mode;
  owner: LedgerOwner;
  customerId?: string;
  currency: string;
  purpose: string;
}

/**
 * Shards of each system account. Every payout of a platform settles through its clearing account, so one stream
 * would serialise all settlements on its lock (measured: 6–9 waiters, timers piling up under a sustained load); an
 * entry posts to one shard picked by its id, and the system account's balance is the sum of its shards.
 */
export const SYSTEM_ACCOUNT_SHARDS = 8;

/**
 * A system account (clearing, FX, fees, sandbox funding) of a platform, mode, purpose and currency, in the shard of
 * `entryId` (the same entry always lands on the same shard, so a replay has the same legs). Shard 0 keeps the id
 * system accounts had before sharding, so their balances stay part of the sum.
 */
export function systemAccountId(platformId: string, mode: Mode, purpose: string, currency: string, entryId = ''): string {
  const shard = entryId ? createHash('sha256').update(entryId).digest().readUInt32BE(0) % SYSTEM_ACCOUNT_SHARDS : 0;
  const name = `${platformId}/${mode}/${purpose}/${currency}${shard === 0 ? '' : `/${shard}`}`;
  return `SystemAccount:${uuidv5(name, SYSTEM_NAMESPACE)}`;
}

/** Every shard of a system account: sum their totals for its balance. */
export function systemAccountShardIds(platformId: string, mode: Mode, purpose: string, currency: string): string[] {
  return Array.from({ length: SYSTEM_ACCOUNT_SHARDS }, (_, shard) => `SystemAccount:${uuidv5(`${platformId}/${mode}/${purpose}/${currency}${shard === 0 ? '' : `/${shard}`}`, SYSTEM_NAMESPACE)}`);
}

/**
 * The double-entry ledger over ledger-account streams. An entry's legs are decided and appended in ONE transaction,
 * so either every leg is posted or none is; writers of one account queue on its stream lock (taken in account-id
 * order so two entries touching the same accounts cannot deadlock).
 */
export class LedgerService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly executor: CommandExecutor<EntityManager>,
  ) {}

  async open(tx: EntityManager, account: OpenAccount, now: string): Promise<void> {
    await this.run(tx, account.accountId, account.platformId, { type: 'Open', ...account, now });
  }

  /**
   * Posts a balanced entry; idempotent by entryId (a replay posts nothing and answers undefined). `claim` (an
   * Idempotency-Key) commits with it. The legs' accounts are locked in one statement and checked on their folds
   * (they exist in this platform and mode, hold the entry's currency; `callerLegs`: none is a SYSTEM account), then
   * the entry is claimed, every leg decided (one refusal refuses the entry) and appended in one statement, and the
   * read models written once for all legs. Answers every account of the entry as posted.
   */
  async postEntry(platformId: string, mode: Mode, entry: JournalEntry, now: string, options: PostOptions = {}): Promise<ReadonlyMap<string, LedgerAccountState> | undefined> {
    const invalid = checkEntry(entry);
    if (invalid) throw invalid;
    const { systemAccounts = [], claim, callerLegs = [] } = options;
    // A system account opens on its first entry (opening an open one decides nothing), in the entry's statements.
    // Every account's lock is taken at the start, in one statement: a hot system shard's lock is held for the
    // entry's few statements (claim, append, postings, balances), each one statement whatever the number of legs.
    const opening = new Map(systemAccounts.map((l) => [l.accountId, l]));
    const commands = [...new Set([...opening.keys(), ...entry.legs.map((l) => l.accountId)])].flatMap((accountId) => {
      const open = opening.get(accountId);
      const leg = entry.legs.find((l) => l.accountId === accountId);
      const counterparty = entry.legs.find((l) => l.accountId !== accountId)!.accountId;
      return [
        ...(open ? [{ streamId: accountId, command: { type: 'Open', accountId, platformId, mode, owner: 'SYSTEM', currency: open.currency, purpose: 'SYSTEM', now } as const }] : []),
        ...(leg ? [{ streamId: accountId, command: { type: 'Post', entryId: entry.entryId, reference: entry.reference, amount: leg.amount, counterpartyAccountId: counterparty, kind: entry.kind, holdId: leg.holdId, now } as const }] : []),
      ];
    });
    const results = await this.inTransaction((tx) =>
      this.executor.decideAndAppendAll<LedgerAccountState, LedgerAccountCommand, LedgerAccountEvent>(tx, {
        decider: ledgerAccountDecider,
        platformId,
        commands,
        admit: async (admitTx, states) => {
          assertLegs(states, { platformId, mode }, entry.legs, opening, new Set(callerLegs));
          const first = await this.claimEntry(admitTx, platformId, mode, entry);
          await claim?.(admitTx);
          return first; // false: a replay of the same legs, posted already with this very entry
        },
        projectAlongside: ledgerAccountStatements,
      }),
    );
    return results && new Map([...results].map(([accountId, result]) => [accountId, result.state]));
  }

  /**
   * `alsoInTransaction` commits with the hold (e.g. its expiry timer); on a replay (the hold exists) it runs on its
   * own, so it must be idempotent. Through `execute`, so concurrent holds on one account share a fold and a commit.
   */
  async placeHold(
    platformId: string,
    accountId: string,
    hold: { holdId: string; amount: number; reference: string; expiresAt?: string },
    now: string,
    alsoInTransaction?: (tx: EntityManager) => Promise<void>,
    caller?: CallerScope,
  ): Promise<LedgerAccountState> {
    const result = await this.executor.execute({
      decider: ledgerAccountDecider,
      streamId: accountId,
      platformId,
      command: { type: 'PlaceHold', ...hold, now, caller },
      projectAlongside: ledgerAccountAlongside,
      ...(alsoInTransaction ? { project: (tx: EntityManager) => alsoInTransaction(tx) } : {}),
    });
    if (result.events.length === 0 && alsoInTransaction) await this.inTransaction(alsoInTransaction);
    return result.state;
  }

  /** The account after the release (as it is, when the hold was closed already). */
  async releaseHold(platformId: string, accountId: string, holdId: string, outcome: 'RELEASED' | 'EXPIRED', now: string, caller?: CallerScope): Promise<LedgerAccountState> {
    const result = await this.executor.execute({ decider: ledgerAccountDecider, streamId: accountId, platformId, command: { type: 'ReleaseHold', holdId, outcome, now, caller }, projectAlongside: ledgerAccountAlongside });
    return result.state;
  }

  /** The inverse legs of a posted entry (a returned payment): idempotent by the reversal's own entry id. */
  /**
   * Posts the inverse of an entry. With `shortfallTo`, what a debited customer or platform account can no longer give
   * back is taken from that system account instead (a bank return of money already spent), read under no lock and
   * posted under the entry's: a balance spent meanwhile refuses the post, which is computed again (bounded). A
   * reversal already posted answers undefined, as a replay does, whatever the balances are now.
   */
  async reverse(platformId: string, mode: Mode, originalEntryId: string, reversalEntryId: string, now: string, shortfallTo?: LedgerSystemPurpose): Promise<ReadonlyMap<string, LedgerAccountState> | undefined> {
    const legs: { account_id: string; currency: string; amount: string }[] = await this.dataSource.query(
      `SELECT account_id, currency, amount FROM journal_postings WHERE entry_id = $1 AND platform_id = $2 AND mode = $3`,
      [originalEntryId, platformId, mode],
    );
    if (legs.length === 0) throw new DomainError('NOT_FOUND', `entry ${originalEntryId} does not exist`);
    const inverse: Leg[] = legs.map((l) => ({ accountId: l.account_id, currency: l.currency, amount: -Number(l.amount) }));
    const entry = (entryLegs: Leg[]): JournalEntry => ({ entryId: reversalEntryId, reference: originalEntryId, kind: 'REVERSAL', legs: entryLegs });
    if (!shortfallTo) return this.postEntry(platformId, mode, entry(inverse), now);
    for (let attempt = 1; ; attempt++) {
      const [posted] = await this.dataSource.query(`SELECT 1 FROM journal_entries WHERE platform_id = $1 AND mode = $2 AND entry_id = $3`, [platformId, mode, reversalEntryId]);
      if (posted) return undefined;
      const { legs: covered, systemLegs } = await this.coverShortfall(platformId, mode, inverse, shortfallTo, reversalEntryId);
      try {
        return await this.postEntry(platformId, mode, entry(covered), now, { systemAccounts: systemLegs });
      } catch (error) {
        if (!(error instanceof DomainError && error.code === 'INSUFFICIENT_FUNDS') || attempt >= 5) throw error;
      }
    }
  }

  /** The legs with each short debit cut to the account's available balance and the rest on the shortfall account. */
  private async coverShortfall(platformId: string, mode: Mode, legs: Leg[], purpose: LedgerSystemPurpose, entryId: string): Promise<{ legs: Leg[]; systemLegs: Leg[] }> {
    const debited = legs.filter((l) => l.amount < 0).map((l) => l.accountId);
    const rows: { account_id: string; available: string }[] = await this.dataSource.query(
      `SELECT account_id, (total - held)::text AS available FROM ledger_accounts WHERE account_id = ANY($1::text[]) AND owner <> 'SYSTEM'`,
      [debited],
    );
    const available = new Map(rows.map((r) => [r.account_id, Math.max(0, Number(r.available))]));
    const out: Leg[] = [];
    const shortBy = new Map<string, number>();
    for (const leg of legs) {
      const has = available.get(leg.accountId);
      if (leg.amount >= 0 || has === undefined || has >= -leg.amount) {
        out.push(leg);
        continue;
      }
      if (has > 0) out.push({ ...leg, amount: -has });
      shortBy.set(leg.currency, (shortBy.get(leg.currency) ?? 0) + (-leg.amount - has));
    }
    const systemLegs = [...shortBy].map(([currency, amount]) => ({ accountId: systemAccountId(platformId, mode, purpose, currency, entryId), currency, amount: -amount }));
    return { legs: [...out, ...systemLegs], systemLegs };
  }

  /**
   * Entry ids are the caller's references: one id is one entry in a platform and mode. A replay (the same legs)
   * passes and its legs post nothing; the same id with other legs, or a second reversal of an entry, is 409.
   * The row is written inside the entry's transaction, so two racing first calls cannot both succeed.
   */
  /** True for the entry's first posting; false for a replay of the same legs (nothing to post). */
  private async claimEntry(tx: EntityManager, platformId: string, mode: Mode, entry: JournalEntry): Promise<boolean> {
    const legs = entry.legs.map((l) => `${l.accountId}=${l.amount}`).sort().join(',');
    const reverses = entry.kind === 'REVERSAL' ? entry.reference : null;
    let claimed: unknown[];
    try {
      claimed = await queryPrepared(tx,
        `INSERT INTO journal_entries (platform_id, mode, entry_id, kind, legs, reverses) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (platform_id, mode, entry_id) DO NOTHING RETURNING 1`,
        [platformId, mode, entry.entryId, entry.kind, legs, reverses],
      );
    } catch (error) {
      if ((error as { code?: string; driverError?: { code?: string } }).code === '23505' || (error as { driverError?: { code?: string } }).driverError?.code === '23505') {
        throw new DomainError('CONFLICT', `entry ${entry.reference} was already reversed`);
      }
      throw error;
    }
    if (claimed.length === 1) return true;
    const [existing] = await queryPrepared(tx, `SELECT legs FROM journal_entries WHERE platform_id = $1 AND mode = $2 AND entry_id = $3`, [platformId, mode, entry.entryId]);
    if (existing.legs !== legs) throw new DomainError('CONFLICT', `entry ${entry.entryId} was posted with other legs`);
    return false;
  }

  private async run(tx: EntityManager, accountId: string, platformId: string, command: LedgerAccountCommand): Promise<LedgerAccountState> {
    const result = await this.executor.decideAndAppend(tx, { decider: ledgerAccountDecider, streamId: accountId, platformId, command, projectAlongside: ledgerAccountAlongside });
    return result.state;
  }

  private inTransaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return retryOnConflict(() => this.dataSource.transaction(work), 5);
  }
}

/**
 * The legs' accounts as folded under their locks: each exists in the entry's platform and mode (a system account
 * being opened by this entry too), a caller's leg is none of the SYSTEM accounts, and each holds the leg's currency.
 * Every leg is checked for existence before any for its currency, as the RPC commands always did.
 */
function assertLegs(states: ReadonlyMap<string, LedgerAccountState>, scope: CallerScope, legs: readonly Leg[], opening: ReadonlyMap<string, Leg>, callerLegs: ReadonlySet<string>): void {
  const currencyOf = (accountId: string): string | undefined => {
    const state = states.get(accountId);
    if (state?.status !== 'OPEN') return opening.get(accountId)?.currency;
    if (state.platformId !== scope.platformId || state.mode !== scope.mode) return undefined;
    if (callerLegs.has(accountId) && !visibleTo(scope, state)) return undefined;
    return state.currency;
  };
  for (const leg of legs) if (currencyOf(leg.accountId) === undefined) throw new DomainError('NOT_FOUND', `account ${leg.accountId} not found`);
  for (const leg of legs) {
    const currency = currencyOf(leg.accountId);
    if (currency !== leg.currency) throw new DomainError('INVALID_CURRENCY', `account ${leg.accountId} holds ${currency}, not ${leg.currency}`);
  }
}
