import type { DataSource, EntityManager } from 'typeorm';
import { v5 as uuidv5, v7 as uuidv7 } from 'uuid';
import {
  ApiError,
  CallerContext,
  canonicalJson,
  CardDeclineReason,
  CardSimulationBody,
  isCardTransactionId,
  SandboxCardSimulationResponse,
} from '@payments/contracts';
import { CommandExecutor, DomainError, EventMetadata, fold, IdempotencyClaims, PostgresEventStore, queryRows, ScheduleTimer, TimerHandler, TimerRow } from '@payments/eventsourcing';
import { idempotencyScopeOf } from '@payments/runtime';
import { CARD_CLOSED_TIMER, CardRecord, CardService } from '../cards/card.service';
import { descriptorOutcome, DELAYED_PULL_MS } from '../cards/sandbox-issuer';
import { CardPeers, systemCaller } from '../peers';
import { CardTransactionCommand, cardTransactionDecider } from './card-transaction.decider';
import { AuthorizationKind, AuthorizedData, CardTransactionEvent, CardTransactionTerms, NetworkMessage, NetworkMessageKind, Pull, PullPlan } from './card-transaction.events';
import { effectsOf } from './card-transaction.effects';
import { projectCardTransaction } from './card-transaction.projection';
import { CardTransactionState, isOpen, OpenCardTransaction } from './card-transaction.state';

export const CARD_STEP_TIMER = 'cards.transaction.step';
export const CARD_PULL_TIMER = 'cards.transaction.pull';
const TIMER_NAMESPACE = '3e7c1b5a-92d4-4f6e-8a1b-c05d7f2e9a34';
/** Safety net when the request could not finish applying what it recorded: real time. */
const STEP_RETRY_MS = 2_000;
/** An authorization's hold lives a day at most: its pull is made within seconds, or 30 s (scaled) for descriptor 005. */
const AUTHORIZATION_HOLD_MS = 24 * 3_600_000;
/**
 * A closed card's open authorization expires after the messages still arriving for it. Each attempt lost is a network
 * message recorded first, so the close keeps trying while they flow (a timer retry would leave them a backoff's
 * head start); past this the timer retries.
 */
const CLOSE_EXPIRY_ATTEMPTS = 500;
/** Open authorizations of a closed card expired at once (each holds a database connection while it records). */
const CLOSE_EXPIRY_CONCURRENCY = 4;

const AUTHORIZATIONS: Partial<Record<CardSimulationBody['simulation'], AuthorizationKind>> = {
  authorization: 'AUTHORIZATION',
  financial_authorization: 'FINANCIAL',
  balance_inquiry: 'BALANCE_INQUIRY',
  credit_authorization: 'CREDIT',
  credit_authorization_advice: 'CREDIT',
  financial_credit_authorization: 'FINANCIAL_CREDIT',
};

const now = () => new Date().toISOString();
const ids = {
  hold: (t: string) => `${t}/hold`,
  pull: (t: string, n: number) => `${t}/pull/${n}`,
  release: (t: string, n: number) => `${t}/release/${n}`,
  credit: (t: string, n: number) => `${t}/credit/${n}`,
  refund: (t: string, n: number) => `${t}/refund/${n}`,
};
const txNotFound = () => new ApiError('CARD_TRANSACTION_NOT_FOUND', 'card transaction not found');
const isCode = (error: unknown, ...codes: string[]) => error instanceof ApiError && codes.includes(error.code);
function pullPlanOf(descriptor: string): PullPlan {
  const outcome = descriptorOutcome(descriptor);
  return outcome === 'PULL_LATER' ? 'LATER' : outcome === 'PULL_FAILS' ? 'FAIL' : 'NOW';
}

/**
 * The card network as the sandbox simulates it (docs/cards.md): each simulated message is recorded on its card
 * transaction with a safety-net timer in one commit, then applied at once through the ledger (holds on the funding
 * account, pulls into the CARD_NETWORK system account, releases, refunds), and its outcome recorded. Ledger calls are
 * idempotent by ids derived from the transaction, so a step that runs again (the timer after a crash) has one effect.
 */
export class CardNetwork {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: PostgresEventStore,
    private readonly executor: CommandExecutor<EntityManager>,
    private readonly timers: { schedule(tx: EntityManager, timer: ScheduleTimer): Promise<string> },
    private readonly claims: IdempotencyClaims,
    private readonly peers: CardPeers,
    private readonly cards: CardService,
    private readonly log: (message: string, error?: unknown) => void = () => undefined,
  ) {}

  /** A simulated network message; one per Idempotency-Key (a retry answers the first one's token). */
  async simulate(caller: CallerContext, body: CardSimulationBody): Promise<SandboxCardSimulationResponse> {
    if (caller.mode !== 'SANDBOX') throw new ApiError('NOT_FOUND', 'card simulations exist in the sandbox only');
    const card = await this.cards.record(caller, body.cardId);
    const token = `itx_${uuidv7().replace(/-/g, '')}`;
    const transactionId = await this.claims.run(
      idempotencyScopeOf(caller),
      `card-simulate-${body.simulation}`,
      `${token}`,
      async (claim) => {
        const kind = AUTHORIZATIONS[body.simulation];
        const id = kind ? await this.receiveAuthorization(caller, card, kind, body, token, claim) : await this.receiveMessage(caller, card, body, token, claim);
        // Recorded: from here the message will be applied, now or by its timer if a peer is down; its webhook tells.
        await this.step(id, { correlationId: caller.correlationId, actor: caller.clientId }).catch((error: unknown) => this.log(`cards: ${id} is applied by its timer`, error));
        return token;
      },
      async (existing) => existing,
    );
    return { issuerTransactionToken: transactionId };
  }

  timerHandlers(): Record<string, TimerHandler> {
    return {
      [CARD_STEP_TIMER]: (timer) => this.step((timer.payload as { transactionId: string }).transactionId, this.timerMetadata(timer)),
      [CARD_PULL_TIMER]: (timer) => this.completePull(timer),
      [CARD_CLOSED_TIMER]: (timer) => this.reconcileClosedCard(timer),
    };
  }

  private async receiveAuthorization(caller: CallerContext, card: CardRecord, kind: AuthorizationKind, body: CardSimulationBody, token: string, claim: (tx: EntityManager) => Promise<void>): Promise<string> {
    if (kind !== 'BALANCE_INQUIRY' && body.currency?.code !== card.currency) {
      throw new ApiError('INVALID_CURRENCY', `the card transacts in ${card.currency}`, { errors: [{ field: 'currency.code', message: `must be ${card.currency}` }] });
    }
    const customer = await this.peers.customer(caller, card.cardholderId);
    const transactionId = `CardTransaction:${uuidv7()}`;
    const merchant = body.merchant!;
    const terms: CardTransactionTerms = {
      transactionId,
      cardId: card.cardId,
      platformId: caller.platformId,
      mode: caller.mode,
      customerId: card.cardholderId,
      platformCustomerId: customer.platformCustomerId,
      currency: card.currency,
      kind,
      direction: kind === 'CREDIT' || kind === 'FINANCIAL_CREDIT' ? 'CREDIT' : 'DEBIT',
      amount: kind === 'BALANCE_INQUIRY' ? 0 : body.amount!,
      merchant: { descriptor: merchant.descriptor, ...(merchant.mcc ? { mcc: merchant.mcc } : {}), ...(merchant.country ? { country: merchant.country } : {}) },
      issuerTransactionToken: token,
      pullPlan: pullPlanOf(merchant.descriptor),
      receivedAt: now(),
    };
    await this.record(transactionId, caller.platformId, { type: 'ReceiveAuthorization', terms }, { correlationId: caller.correlationId, actor: caller.clientId }, { claim, newStream: true, retryStep: 1 });
    return transactionId;
  }

  private async receiveMessage(caller: CallerContext, card: CardRecord, body: CardSimulationBody, token: string, claim: (tx: EntityManager) => Promise<void>): Promise<string> {
    const transactionId = body.cardTransactionId!;
    const state = await this.load(transactionId);
    if (!isOpen(state) || state.platformId !== caller.platformId || state.mode !== caller.mode || state.cardId !== card.cardId) throw txNotFound();
    const kind: NetworkMessageKind = body.simulation === 'clearing' ? (body.amount === 0 ? 'EXPIRY' : 'CLEARING') : body.simulation === 'authorization_advice' ? 'ADVICE' : body.simulation === 'return' ? 'RETURN' : 'RETURN_REVERSAL';
    const message: Omit<NetworkMessage, 'n'> = { kind, amount: body.amount ?? 0, issuerTransactionToken: token, at: now() };
    await this.record(transactionId, caller.platformId, { type: 'ReceiveMessage', message }, { correlationId: caller.correlationId, actor: caller.clientId }, { claim, retryStep: state.nextN });
    return transactionId;
  }

  /** Applies what the transaction waits for: its authorization decision, or its pending network message. */
  private async step(transactionId: string, metadata: EventMetadata): Promise<void> {
    const state = await this.load(transactionId);
    if (state.status === 'RECEIVED') return this.authorize(state, metadata);
    if (isOpen(state) && state.pending) return this.apply(state, state.pending, metadata);
  }

  private async authorize(t: CardTransactionTerms, metadata: EventMetadata): Promise<void> {
    const caller = systemCaller(t.platformId, t.mode);
    const record = (command: CardTransactionCommand) => this.record(t.transactionId, t.platformId, command, metadata);
    const card = await this.cards.record(caller, t.cardId).catch((error: unknown) => (isCode(error, 'CARD_NOT_FOUND') ? undefined : Promise.reject(error)));
    const decline = (reason: CardDeclineReason) => record({ type: 'Decline', reason, at: now() });
    const outcome = descriptorOutcome(t.merchant.descriptor);
    if (!card || card.state !== 'ACTIVE' || outcome === 'DECLINE_CARD_PAUSED') return void (await decline('CARD_PAUSED'));
    if (outcome === 'DECLINE_INSUFFICIENT_FUNDS') return void (await decline('INSUFFICIENT_FUNDS'));
    if (t.direction === 'DEBIT' && card.maxSpend !== null && t.amount > card.maxSpend) return void (await decline('SPEND_LIMIT_EXCEEDED'));
    const authorized = t.direction === 'CREDIT' || t.kind === 'BALANCE_INQUIRY' ? await this.creditOrInquiry(t, card) : await this.holdAndPull(t, card);
    if (!authorized) return void (await decline('INSUFFICIENT_FUNDS'));
    const state = await record({ type: 'Authorize', authorized });
    // The pull out of the hold, at once unless the descriptor delays it (its timer then makes it).
    if (t.pullPlan === 'NOW' && isOpen(state)) await this.pullNow(state, 1, metadata);
  }

  /**
   * Debits: the first funding source (in priority order) that can hold the whole amount. The pull out of the hold is
   * made after the authorization is recorded (completePull), so a repeat of this step never picks a second source
   * once one was chosen; a crash between the hold and the record leaves only a hold, which expires.
   */
  private async holdAndPull(t: CardTransactionTerms, card: CardRecord): Promise<AuthorizedData | undefined> {
    const caller = systemCaller(t.platformId, t.mode);
    for (const source of card.bindings) {
      const delegatedKeyId = await this.delegatedSigner(t, source);
      if (delegatedKeyId === null) continue; // an Embedded Wallet without an ACTIVE delegated key cannot fund it
      try {
        await this.peers.ledger.placeHold(caller, { accountId: source.accountId, holdId: ids.hold(t.transactionId), amount: t.amount, currency: t.currency, expiresInMs: AUTHORIZATION_HOLD_MS, reference: t.transactionId });
      } catch (error) {
        if (isCode(error, 'INSUFFICIENT_FUNDS')) continue;
        // Released by an earlier run of this step that failed the pull (descriptor 006): this is the source it chose.
        if (!(isCode(error, 'HOLD_ALREADY_CLOSED') && t.pullPlan === 'FAIL')) {
          if (isCode(error, 'HOLD_ALREADY_CLOSED')) continue;
          throw error;
        }
      }
      if (t.pullPlan === 'FAIL') await this.peers.ledger.releaseHold(caller, { accountId: source.accountId, holdId: ids.hold(t.transactionId) }).catch(ignore('HOLD_ALREADY_CLOSED'));
      const pull: Pull = { n: 1, amount: t.amount, status: t.pullPlan === 'FAIL' ? 'FAILED' : 'PENDING', fromHold: true };
      return { accountId: source.accountId, fundingSourceId: source.fundingSourceId, ...(delegatedKeyId ? { delegatedKeyId } : {}), pull, settled: t.kind === 'FINANCIAL' ? t.amount : 0, credited: 0, at: now() };
    }
    return undefined;
  }

  /** Credits and balance inquiries go to the first funding source; a single-message credit is paid at once. */
  private async creditOrInquiry(t: CardTransactionTerms, card: CardRecord): Promise<AuthorizedData | undefined> {
    const source = card.bindings[0];
    if (!source) return undefined;
    const base = { accountId: source.accountId, fundingSourceId: source.fundingSourceId, settled: 0, credited: 0, at: now() };
    if (t.kind === 'BALANCE_INQUIRY') return { ...base, closedReason: 'BALANCE_INQUIRY' };
    if (t.kind !== 'FINANCIAL_CREDIT') return base;
    await this.pay(t, source.accountId, ids.credit(t.transactionId, 1), t.amount, 'CARD_CREDIT');
    return { ...base, settled: t.amount, credited: t.amount };
  }

  /** The delegated key that signed the pull for an Embedded Wallet source, null when it has none, undefined for others. */
  private async delegatedSigner(t: CardTransactionTerms, source: CardRecord['bindings'][number]): Promise<string | null | undefined> {
    if (!source.embeddedWallet) return undefined;
    const payload = canonicalJson({ type: 'CARD_PULL', transactionId: t.transactionId, accountId: source.accountId, amount: t.amount, currency: t.currency });
    try {
      return (await this.peers.signWithDelegatedKey(systemCaller(t.platformId, t.mode), source.accountId, source.fundingSourceId, payload)).delegatedKeyId;
    } catch (error) {
      if (isCode(error, 'DELEGATED_KEY_NOT_FOUND')) return null;
      throw error;
    }
  }

  private async apply(s: OpenCardTransaction, m: NetworkMessage, metadata: EventMetadata): Promise<void> {
    const caller = systemCaller(s.platformId, s.mode);
    // Pulls still pending are made and recorded first: what the message gives back depends on how they went, and a
    // repeat of this step (after a crash) must compute the same entries from the same recorded state.
    const pending = effectsOf(s, m).confirmPending;
    if (pending.length > 0) {
      for (const pull of pending) await this.pullNow(s, pull.n, metadata);
      const after = await this.load(s.transactionId);
      if (isOpen(after) && after.pending?.n === m.n && effectsOf(after, m).confirmPending.length === 0) await this.apply(after, m, metadata);
      return;
    }
    const pulls: Pull[] = [];
    const e = effectsOf(s, m);
    for (const pull of e.cancelPending) {
      if (pull.fromHold) await this.peers.ledger.releaseHold(caller, { accountId: s.accountId, holdId: ids.hold(s.transactionId) }).catch(ignore('HOLD_ALREADY_CLOSED'));
      pulls.push({ ...pull, status: 'CANCELLED' });
    }
    let newPull: Pull | undefined;
    if (e.newPull) {
      const pull: Pull = { n: e.newPull.n, amount: e.newPull.amount, status: 'PENDING', fromHold: false };
      newPull = { ...pull, status: e.newPull.plan === 'FAIL' ? 'FAILED' : e.newPull.plan === 'LATER' ? 'PENDING' : await this.makePull(s, pull) };
    }
    if (e.release > 0) await this.pay(s, s.accountId, ids.release(s.transactionId, m.n), e.release, 'CARD_RELEASE');
    if (e.credit > 0) await this.pay(s, s.accountId, ids.credit(s.transactionId, m.n), e.credit, 'CARD_CREDIT');
    if (e.refund) await this.pay(s, s.accountId, ids.refund(s.transactionId, e.refund.n), e.refund.amount, 'CARD_REFUND');
    let reversedRefund: { n: number; amount: number; failed: boolean } | undefined;
    if (e.reverseRefund) {
      const { n, amount } = e.reverseRefund;
      const failed = await this.peers.ledger.reverse(caller, { originalEntryId: ids.refund(s.transactionId, n), reversalEntryId: `${ids.refund(s.transactionId, n)}/reversal` }).then(
        () => false,
        (error: unknown) => (isCode(error, 'INSUFFICIENT_FUNDS') ? true : Promise.reject(error)),
      );
      reversedRefund = { n, amount, failed };
    }
    await this.record(
      s.transactionId,
      s.platformId,
      {
        type: 'ApplyMessage',
        applied: {
          n: m.n,
          pulls,
          ...(newPull ? { newPull } : {}),
          settled: e.settle,
          released: e.release,
          credited: e.credit,
          ...(e.refund ? { refund: e.refund } : {}),
          ...(reversedRefund ? { reversedRefund } : {}),
          ...(e.authorizedAmount !== undefined ? { authorizedAmount: e.authorizedAmount } : {}),
          ...(e.closedReason ? { closedReason: e.closedReason } : {}),
          at: now(),
        },
      },
      metadata,
    );
  }

  /** A pending pull made now: the hold captured (the first), or a transfer (post-hoc); FAILED when the funds are not there. */
  private async makePull(s: Pick<CardTransactionTerms, 'transactionId' | 'platformId' | 'mode' | 'currency'>, pull: Pull, accountId = (s as OpenCardTransaction).accountId): Promise<'CONFIRMED' | 'FAILED'> {
    return pull.fromHold ? this.pullFromHold(s, accountId, pull) : this.transferPull(s, accountId, pull);
  }

  private async pullFromHold(s: Pick<CardTransactionTerms, 'transactionId' | 'platformId' | 'mode'>, accountId: string, pull: Pull): Promise<'CONFIRMED' | 'FAILED'> {
    const caller = systemCaller(s.platformId, s.mode);
    try {
      await this.peers.ledger.captureHold(caller, { accountId, holdId: ids.hold(s.transactionId), amount: pull.amount, entryId: ids.pull(s.transactionId, pull.n), toPurpose: 'CARD_NETWORK', reference: s.transactionId, kind: 'CARD_PULL' });
      return 'CONFIRMED';
    } catch (error) {
      // A repeat of a capture replays its entry without error: a closed or missing hold was released or expired.
      if (isCode(error, 'HOLD_EXPIRED', 'HOLD_NOT_FOUND', 'HOLD_ALREADY_CLOSED')) return 'FAILED';
      throw error;
    }
  }

  private async transferPull(s: Pick<CardTransactionTerms, 'transactionId' | 'platformId' | 'mode' | 'currency'>, accountId: string, pull: Pull): Promise<'CONFIRMED' | 'FAILED'> {
    try {
      await this.peers.ledger.transfer(systemCaller(s.platformId, s.mode), {
        entryId: ids.pull(s.transactionId, pull.n),
        legs: [{ accountId, currency: s.currency, amount: -pull.amount }, { purpose: 'CARD_NETWORK', currency: s.currency, amount: pull.amount }],
        reference: s.transactionId,
        kind: 'CARD_PULL',
      });
      return 'CONFIRMED';
    } catch (error) {
      if (isCode(error, 'INSUFFICIENT_FUNDS')) return 'FAILED';
      throw error;
    }
  }

  /** Pays the funding account from the card network (a release, a credit, a refund). */
  private async pay(s: Pick<CardTransactionTerms, 'transactionId' | 'platformId' | 'mode' | 'currency'>, accountId: string, entryId: string, amount: number, kind: string): Promise<void> {
    await this.peers.ledger.transfer(systemCaller(s.platformId, s.mode), {
      entryId,
      legs: [{ accountId, currency: s.currency, amount }, { purpose: 'CARD_NETWORK', currency: s.currency, amount: -amount }],
      reference: s.transactionId,
      kind,
    });
  }

  private async completePull(timer: TimerRow): Promise<void> {
    const { transactionId, n } = timer.payload as { transactionId: string; n: number };
    const s = await this.load(transactionId);
    if (isOpen(s)) await this.pullNow(s, n, this.timerMetadata(timer));
  }

  /** Makes a pending pull (repeatable: the ledger replays its entry) and records how it went. */
  private async pullNow(s: OpenCardTransaction, n: number, metadata: EventMetadata): Promise<void> {
    const pull = s.pulls.find((p) => p.n === n && p.status === 'PENDING');
    if (!pull) return;
    const status = await this.makePull(s, pull);
    await this.record(s.transactionId, s.platformId, { type: 'CompletePull', n, status, at: now() }, metadata);
  }

  /** A closed card's open authorizations expire: what was pulled and not settled goes back to its funding account. */
  private async reconcileClosedCard(timer: TimerRow): Promise<void> {
    const { cardId } = timer.payload as { cardId: string };
    const open = await queryRows<{ transaction_id: string }>(this.dataSource, `SELECT transaction_id FROM card_transactions WHERE card_id = $1 AND status IN ('AUTHORIZED', 'PARTIALLY_SETTLED')`, [cardId]);
    const metadata = this.timerMetadata(timer);
    // A few side by side: one authorization that messages keep busy does not hold back the expiry of the others.
    const queue = open.map((r) => r.transaction_id);
    const failures: unknown[] = [];
    const worker = async () => {
      for (let transactionId = queue.shift(); transactionId; transactionId = queue.shift()) {
        await this.expireOnClose(transactionId, `close_${timer.id}`, metadata).catch((error: unknown) => failures.push(error));
      }
    };
    await Promise.all(Array.from({ length: Math.min(CLOSE_EXPIRY_CONCURRENCY, queue.length) }, worker));
    if (failures.length > 0) throw failures[0]; // the timer retries the card; those expired already are skipped then
  }

  /**
   * Expires one open authorization of a closed card. A network message still being applied (the request that
   * brought it, or its timer) is applied first and the expiry follows it: the close never leaves the rest open.
   */
  private async expireOnClose(transactionId: string, token: string, metadata: EventMetadata): Promise<void> {
    for (let attempt = 0; attempt < CLOSE_EXPIRY_ATTEMPTS; attempt++) {
      const s = await this.load(transactionId);
      if (!isOpen(s)) return;
      if (s.pending) {
        await this.step(transactionId, metadata);
        continue;
      }
      if (s.status !== 'AUTHORIZED' && s.status !== 'PARTIALLY_SETTLED') return;
      const message: Omit<NetworkMessage, 'n'> = { kind: 'EXPIRY', amount: 0, issuerTransactionToken: token, at: now() };
      // Another message may arrive between reading and recording: apply it, then expire.
      const recorded = await this.record(transactionId, s.platformId, { type: 'ReceiveMessage', message, reconcile: true }, metadata, { retryStep: s.nextN }).then(
        () => true,
        (error: unknown) => (error instanceof DomainError && error.code === 'CONFLICT' ? false : Promise.reject(error)),
      );
      if (recorded) await this.step(transactionId, metadata);
    }
    throw new Error(`${transactionId}: still open after ${CLOSE_EXPIRY_ATTEMPTS} attempts to expire it on the card's close`); // the timer retries
  }

  private async record(
    transactionId: string,
    platformId: string,
    command: CardTransactionCommand,
    metadata: EventMetadata,
    options: { claim?: (tx: EntityManager) => Promise<void>; newStream?: boolean; retryStep?: number } = {},
  ): Promise<CardTransactionState> {
    const result = await this.executor.execute({
      decider: cardTransactionDecider,
      streamId: transactionId,
      platformId,
      metadata,
      command,
      claim: options.claim,
      newStream: options.newStream,
      project: async (tx, events, state) => {
        await projectCardTransaction(tx, events, state);
        if (events.length === 0) return;
        if (options.retryStep !== undefined) await this.schedule(tx, transactionId, platformId, CARD_STEP_TIMER, `step/${options.retryStep}`, STEP_RETRY_MS, true, {});
        // A delayed pull (descriptor 005) waits 30 s (scaled); any other pending pull is made at once, this timer is its safety net.
        const later = state.status !== 'NONE' && 'pullPlan' in state && state.pullPlan === 'LATER';
        for (const pull of newlyPending(events)) await this.schedule(tx, transactionId, platformId, CARD_PULL_TIMER, `pull/${pull.n}`, later ? DELAYED_PULL_MS : STEP_RETRY_MS, !later, { n: pull.n });
      },
    });
    return result.state;
  }

  private schedule(tx: EntityManager, transactionId: string, platformId: string, name: string, key: string, delayMs: number, realTime: boolean, payload: Record<string, unknown>): Promise<string> {
    return this.timers.schedule(tx, { id: uuidv5(`${transactionId}/${key}`, TIMER_NAMESPACE), name, delayMs, realTime, streamId: transactionId, platformId, payload: { transactionId, ...payload } });
  }

  private async load(transactionId: string): Promise<CardTransactionState> {
    if (!isCardTransactionId(transactionId)) return { status: 'NONE' };
    return fold(cardTransactionDecider, (await this.store.readStream(this.dataSource, transactionId)) as unknown as CardTransactionEvent[]);
  }

  private timerMetadata(timer: TimerRow): EventMetadata {
    return { correlationId: timer.stream_id ?? undefined, causationId: timer.id, actor: 'timer' };
  }
}

/** Pulls a change left PENDING: each gets its delayed-pull timer. */
function newlyPending(events: readonly { type: string; data: unknown }[]): Pull[] {
  const pulls: Pull[] = [];
  for (const e of events) {
    if (e.type === 'CardTransactionAuthorized.v1') {
      const p = (e.data as AuthorizedData).pull;
      if (p?.status === 'PENDING') pulls.push(p);
    }
    if (e.type === 'CardNetworkMessageApplied.v1') {
      const p = (e.data as { newPull?: Pull }).newPull;
      if (p?.status === 'PENDING') pulls.push(p);
    }
  }
  return pulls;
}

const ignore =
  (...codes: string[]) =>
  (error: unknown): undefined => {
    if (isCode(error, ...codes)) return undefined;
    throw error;
  };
