import { createHash } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { v5 as uuidv5, v7 as uuidv7 } from 'uuid';
import {
  ApiError,
  CallerContext,
  Card,
  CARD_CURRENCIES,
  CardFundingSourceRef,
  CardRevealResponse,
  CreateCardRequest,
  isCardId,
  ListCardsQuery,
  notConfigured,
  Page,
  SignedBody,
  SignedOutcome,
  SignedRequestChallenge,
  UpdateCardRequest,
} from '@payments/contracts';
import { ClaimInTransaction, CommandExecutor, CommandRequest, DomainError, EventMetadata, fold, IdempotencyClaims, PostgresEventStore, queryRows, ScheduleTimer, TimerHandler, TimerRow } from '@payments/eventsourcing';
import { idempotencyScopeOf, keysetBodyPage, SqlWhere } from '@payments/runtime';
import type { CardPeers } from '../peers';
import { CardCommand, cardDecider } from './card.decider';
import { CardEvent, CardTerms, FundingSourceBinding, ProvisionedCard } from './card.events';
import { projectCard } from './card.projection';
import { CardSecrets, REVEAL_TTL_MS, RevealClaims } from './card-secrets';
import { CardState, ExistingCard } from './card.state';
import { toCard } from './card.view';
import { DELAYED_ACTIVATION_MS, issuerPlanOf, last4Of, sandboxIneligibleSource } from './sandbox-issuer';

export const CARD_ISSUER_TIMER = 'cards.card.issuer';
/** Runs after a close: the card's open authorizations expire (card-network.ts registers the handler). */
export const CARD_CLOSED_TIMER = 'cards.card.closed';
const FUNDING_SOURCE_NAMESPACE = '8d2f6a91-3c47-4b0e-a5d2-71e9c4b3f068';
const CARD_VALIDITY_YEARS = 3;

type Scope = Pick<CallerContext, 'platformId' | 'mode'>;

const notFound = () => new ApiError('CARD_NOT_FOUND', 'card not found');
const ineligible = (index: number, message: string) => new ApiError('FUNDING_SOURCE_INELIGIBLE', `fundingSources[${index}] ${message}`, { errors: [{ field: `fundingSources[${index}]`, message }] });
/** Stable per card and account: binding the same account again gives the same funding source id. */
export const fundingSourceIdOf = (cardId: string, accountId: string) => `CardFundingSource:${uuidv5(`${cardId}/${accountId}`, FUNDING_SOURCE_NAMESPACE)}`;
export const cardStreamOf = (cardId: string) => cardId;

/** A card row as Authorization Decisioning reads it. */
export interface CardRecord {
  cardId: string;
  platformId: string;
  mode: 'SANDBOX' | 'PRODUCTION';
  cardholderId: string;
  state: string;
  currency: string;
  maxSpend: number | null;
  bindings: FundingSourceBinding[];
}

/**
 * Cards (docs/cards.md): issue with the sandbox issuer's answer on a durable timer, list and get from the read model,
 * update (a signed retry when an Embedded Wallet funds the card), reveal (an HMAC-signed URL, audited), and the
 * funding-source lookup wallet-auth's delegated keys use.
 */
export class CardService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: PostgresEventStore,
    private readonly executor: CommandExecutor<EntityManager>,
    private readonly timers: { schedule(tx: EntityManager, timer: ScheduleTimer): Promise<string> },
    private readonly claims: IdempotencyClaims,
    private readonly peers: CardPeers,
    private readonly secrets: CardSecrets,
  ) {}

  /** One card per Idempotency-Key: a retry (also after a crash) answers the card as it is now. */
  create(caller: CallerContext, request: CreateCardRequest, now: string): Promise<Card> {
    const cardId = `Card:${uuidv7()}`;
    return this.claims.run(idempotencyScopeOf(caller), 'card-create', cardId, (claim) => this.createNew(caller, request, cardId, now, claim), (existing) => this.get(caller, existing));
  }

  private async createNew(caller: CallerContext, request: CreateCardRequest, cardId: string, now: string, claim: ClaimInTransaction): Promise<Card> {
    // No card issuer is configured for production: nothing is issued rather than a card that can never work.
    if (caller.mode === 'PRODUCTION') throw notConfigured('CARD_ISSUER', 'no card issuer is configured for production on this deployment', 'a card issuer (not available in this release)');
    const cardholder = await this.peers.customer(caller, request.cardholderId).catch((error: unknown) => {
      if (error instanceof ApiError && (error.status === 404 || error.status === 410)) {
        throw new ApiError('INVALID_INPUT', 'cardholderId is not a customer of this platform', { errors: [{ field: 'cardholderId', message: 'no such customer' }] });
      }
      throw error;
    });
    const kyc = cardholder.kycStatus ?? cardholder.kybStatus;
    if (kyc !== 'APPROVED') throw new ApiError('CARDHOLDER_KYC_NOT_APPROVED', `the cardholder's KYC status is ${kyc ?? 'not set'}, not APPROVED`);
    const { bindings, currency } = await this.bindings(caller, cardId, request.cardholderId, request.fundingSources);
    const issuanceKey = request.platformCardId ?? request.cardholderId;
    const terms: CardTerms = {
      cardId,
      platformId: caller.platformId,
      mode: caller.mode,
      cardholderId: request.cardholderId,
      platformCardId: request.platformCardId ?? cardId.slice('Card:'.length),
      form: request.form,
      currency,
      fundingSources: bindings,
      maxSpendPerTransaction: request.maxSpendPerTransaction ?? null,
      issuerPlan: issuerPlanOf(issuanceKey),
      issuanceKey,
      requestedAt: now,
    };
    const result = await this.executor.execute({
      ...this.request(caller.platformId, cardId, { type: 'RequestCard', terms }, this.metadata(caller)),
      claim,
      newStream: true,
      project: async (tx, events, state) => {
        await projectCard(tx, events, state);
        if (terms.issuerPlan === 'STAY_PROCESSING') return;
        const delayMs = terms.issuerPlan === 'ACTIVATE_LATER' ? DELAYED_ACTIVATION_MS : 0;
        await this.timers.schedule(tx, { id: uuidv5(`${cardId}/issuer`, FUNDING_SOURCE_NAMESPACE), name: CARD_ISSUER_TIMER, delayMs, realTime: delayMs === 0, streamId: cardId, platformId: caller.platformId, payload: { cardId } });
      },
    });
    return this.view(result.state);
  }

  async get(caller: Scope, cardId: string): Promise<Card> {
    const rows = isCardId(cardId) ? await queryRows<{ body: Card }>(this.dataSource, `SELECT body FROM cards WHERE card_id = $1 AND platform_id = $2 AND mode = $3`, [cardId, caller.platformId, caller.mode]) : [];
    if (!rows[0]) throw notFound();
    return rows[0].body;
  }

  list(caller: Scope, query: ListCardsQuery): Promise<Page<Card>> {
    const where = new SqlWhere()
      .add('platform_id = ?', caller.platformId)
      .add('mode = ?', caller.mode)
      .add('cardholder_id = ?', query.cardholderId)
      .add('platform_card_id = ?', query.platformCardId)
      .add('state = ?', query.state)
      .add('card_id IN (SELECT card_id FROM card_funding_sources WHERE account_id = ?)', query.accountId);
    return keysetBodyPage<Card>({ db: this.dataSource, table: 'cards', keyColumn: 'card_id', where, order: query.sortOrder ?? 'desc', limit: query.limit, cursor: query.cursor });
  }

  /**
   * PATCH /cards/{id}. When an Embedded Wallet funds the card (now, or after the change) the change is a signed
   * retry signed by a session of that wallet; a card funded by custodial accounts only is changed at once.
   */
  async update(caller: CallerContext, body: SignedBody<{ cardId: string } & UpdateCardRequest>, now: string): Promise<SignedOutcome<Card, SignedRequestChallenge>> {
    const { signature, cardId, ...request } = body;
    const card = await this.load(caller, cardId);
    const update = (fundingSources?: FundingSourceBinding[]): CardCommand => ({ type: 'UpdateCard', state: request.state, fundingSources, maxSpendPerTransaction: request.maxSpendPerTransaction, by: caller.clientId, now });
    // What the card refuses whichever accounts are named (no field, CLOSED with another field, a move it cannot make,
    // a CLOSED card) is answered first: before the accounts are checked and before a cardholder is asked to sign a
    // change that cannot happen. The command decides again on the card as it is then.
    const refused = cardDecider.decide(update(request.fundingSources && card.fundingSources), card);
    if (refused instanceof DomainError) throw refused;
    const next = request.fundingSources === undefined ? undefined : (await this.bindings(caller, cardId, card.cardholderId, request.fundingSources, card.currency)).bindings;
    const command = update(next);
    const wallet = [...card.fundingSources, ...(next ?? [])].find((b) => b.embeddedWallet);
    if (wallet) {
      const outcome = await this.peers.authorizeSignedRequest(caller, {
        accountId: wallet.accountId,
        operation: 'UPDATE_CARD',
        target: cardId,
        request,
        activity: 'ACTIVITY_TYPE_UPDATE_CARD',
        parameters: { cardId, ...request },
        signature,
      });
      if (outcome.challenge) return { challenge: outcome.challenge };
    }
    const result = await this.executor.execute({
      ...this.request(caller.platformId, cardId, command, this.metadata(caller)),
      project: async (tx, events, state) => {
        await projectCard(tx, events, state);
        if (events.some((e) => e.type === 'CardClosed.v1')) {
          await this.timers.schedule(tx, { id: uuidv5(`${cardId}/closed`, FUNDING_SOURCE_NAMESPACE), name: CARD_CLOSED_TIMER, delayMs: 0, realTime: true, streamId: cardId, platformId: caller.platformId, payload: { cardId } });
        }
      },
    });
    return { result: this.view(result.state) };
  }

  /** Mints a panEmbedUrl for the gateway's reveal page; the audit record (who, until when) is an event of the card. */
  async reveal(caller: CallerContext, cardId: string, origin: string, now: Date): Promise<CardRevealResponse> {
    const card = await this.load(caller, cardId);
    if (!caller.clientId) throw new ApiError('FORBIDDEN', 'a reveal needs an attributable credential');
    const expiresAt = now.getTime() + REVEAL_TTL_MS;
    await this.executor.execute(this.request(caller.platformId, card.cardId, { type: 'Reveal', actor: caller.clientId, expiresAt: new Date(expiresAt).toISOString(), now: now.toISOString() }, this.metadata(caller)));
    const token = this.secrets.revealToken({ cardId: card.cardId, platformId: caller.platformId, mode: caller.mode, expiresAt });
    return { panEmbedUrl: `${origin}/card-reveal/${token}`, expiresAt: new Date(expiresAt).toISOString() };
  }

  /**
   * The reveal page's data, for a valid unexpired token of a card that is still ACTIVE or FROZEN, once: the token is
   * spent here (card_reveal_uses), and of two concurrent opens only the one whose insert wins gets the details.
   */
  async openReveal(token: string, now: number): Promise<{ pan: string; cvv: string; expMonth: number; expYear: number }> {
    const { card, claims } = await this.revealable(token, now);
    const digest = createHash('sha256').update(token).digest('hex');
    const spent = await this.dataSource.query(
      `INSERT INTO card_reveal_uses (token_sha256, expires_at) VALUES ($1, to_timestamp($2 / 1000.0)) ON CONFLICT (token_sha256) DO NOTHING RETURNING token_sha256`,
      [digest, claims.expiresAt],
    );
    if (spent.length === 0) throw revealLinkNotValid();
    // Digests of links that have expired anyway are dropped as new ones are spent (indexed; a handful each time).
    await this.dataSource.query(`DELETE FROM card_reveal_uses WHERE expires_at < to_timestamp($1 / 1000.0)`, [now]);
    const p = card.provisioned!;
    return { pan: this.secrets.pan(card.cardId, p.last4), cvv: this.secrets.cvv(card.cardId), expMonth: p.expMonth, expYear: p.expYear };
  }

  /** HEAD of the reveal page: 404 when openReveal would be, without spending the link. */
  async checkReveal(token: string, now: number): Promise<{ valid: true }> {
    await this.revealable(token, now);
    const digest = createHash('sha256').update(token).digest('hex');
    const used = await this.dataSource.query(`SELECT 1 FROM card_reveal_uses WHERE token_sha256 = $1`, [digest]);
    if (used.length > 0) throw revealLinkNotValid();
    return { valid: true };
  }

  private async revealable(token: string, now: number): Promise<{ card: ExistingCard; claims: RevealClaims }> {
    const claims = this.secrets.openRevealToken(token, now);
    if (!claims) throw revealLinkNotValid();
    const card = await this.load({ platformId: claims.platformId, mode: claims.mode }, claims.cardId);
    if (!card.provisioned || (card.state !== 'ACTIVE' && card.state !== 'FROZEN')) throw revealLinkNotValid();
    return { card, claims };
  }

  /** For wallet-auth: the binding of `internalAccountId` on the caller's card, 404 when the card does not bind it. */
  async fundingSource(caller: Scope, cardId: string, internalAccountId: string): Promise<CardFundingSourceRef> {
    const card = await this.load(caller, cardId);
    const binding = card.fundingSources.find((b) => b.accountId === internalAccountId);
    if (!binding) throw new ApiError('REFERENCE_NOT_FOUND', 'the card has no funding source of this internal account');
    return { fundingSourceId: binding.fundingSourceId, cardId, accountId: binding.accountId, cardholderId: card.cardholderId, embeddedWallet: binding.embeddedWallet };
  }

  /** The card Authorization Decisioning reads: its state and bindings now (the read model, committed). */
  async record(caller: Scope, cardId: string): Promise<CardRecord> {
    const rows = isCardId(cardId)
      ? await queryRows<{ platform_id: string; mode: 'SANDBOX' | 'PRODUCTION'; cardholder_id: string; state: string; currency: string; max_spend: string | null; bindings: FundingSourceBinding[] }>(
          this.dataSource,
          `SELECT platform_id, mode, cardholder_id, state, currency, max_spend, bindings FROM cards WHERE card_id = $1 AND platform_id = $2 AND mode = $3`,
          [cardId, caller.platformId, caller.mode],
        )
      : [];
    const row = rows[0];
    if (!row) throw notFound();
    return { cardId, platformId: row.platform_id, mode: row.mode, cardholderId: row.cardholder_id, state: row.state, currency: row.currency, maxSpend: row.max_spend === null ? null : Number(row.max_spend), bindings: row.bindings };
  }

  timerHandlers(): Record<string, TimerHandler> {
    return { [CARD_ISSUER_TIMER]: (timer) => this.issuerAnswers(timer) };
  }

  /** The sandbox issuer provisions (or rejects) the card; a repeat changes nothing. */
  private async issuerAnswers(timer: TimerRow): Promise<void> {
    const { cardId } = timer.payload as { cardId: string };
    const card = await this.fold(cardId);
    if (card.status === 'NONE' || card.state !== 'PROCESSING') return;
    const now = new Date();
    const command: CardCommand = card.issuerPlan === 'REJECT' ? { type: 'RejectIssue', now: now.toISOString() } : { type: 'Provision', provisioned: provisionedBy(card, this.secrets, now) };
    await this.executor.execute(this.request(timer.platform_id, cardId, command, { correlationId: cardId, causationId: timer.id, actor: 'issuer' }));
  }

  private async bindings(caller: CallerContext, cardId: string, cardholderId: string, accountIds: string[], cardCurrency?: string): Promise<{ bindings: FundingSourceBinding[]; currency: string }> {
    const bindings: FundingSourceBinding[] = [];
    let currency = cardCurrency;
    for (const [i, accountId] of accountIds.entries()) {
      const first = accountIds.indexOf(accountId);
      if (first < i) throw ineligible(i, `repeats fundingSources[${first}]`);
      const account = await this.peers.accountCurrency(caller, accountId).catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 404) return undefined;
        throw error;
      });
      if (!account || account.kind !== 'INTERNAL' || account.owner !== 'CUSTOMER' || account.customerId !== cardholderId) throw ineligible(i, 'is not an internal account of the cardholder');
      if (account.status !== 'ACTIVE') throw ineligible(i, `is ${account.status}`);
      if (!(CARD_CURRENCIES as readonly string[]).includes(account.currency)) throw ineligible(i, `is in ${account.currency}; cards transact in ${CARD_CURRENCIES.join(', ')}`);
      currency ??= account.currency;
      if (account.currency !== currency) throw ineligible(i, `is in ${account.currency}, not the card currency ${currency}`);
      if (caller.mode === 'SANDBOX' && sandboxIneligibleSource(accountId)) throw ineligible(i, 'was refused by the issuer (sandbox suffix 002/003)');
      bindings.push({ accountId, fundingSourceId: fundingSourceIdOf(cardId, accountId), embeddedWallet: account.internalType === 'EMBEDDED_WALLET' });
    }
    return { bindings, currency: currency! };
  }

  private async load(caller: Scope, cardId: string): Promise<ExistingCard> {
    if (!isCardId(cardId)) throw notFound();
    const state = await this.fold(cardId);
    if (state.status === 'NONE' || state.platformId !== caller.platformId || state.mode !== caller.mode) throw notFound();
    return state;
  }

  private async fold(cardId: string): Promise<CardState> {
    return fold(cardDecider, (await this.store.readStream(this.dataSource, cardStreamOf(cardId))) as unknown as CardEvent[]);
  }

  private request(platformId: string | null, cardId: string, command: CardCommand, metadata: EventMetadata): CommandRequest<EntityManager, CardState, CardCommand, CardEvent> {
    return { decider: cardDecider, streamId: cardStreamOf(cardId), platformId, metadata, command, project: projectCard };
  }

  private metadata(caller: CallerContext): EventMetadata {
    return { correlationId: caller.correlationId, actor: caller.clientId };
  }

  private view(state: CardState): Card {
    if (state.status === 'NONE') throw notFound();
    return toCard(state);
  }
}

/** What the (sandbox) issuer gives a card it provisions: the PAN tail, a 3-year expiry and its references. */
function provisionedBy(s: ExistingCard, secrets: CardSecrets, now: Date): ProvisionedCard {
  return {
    brand: 'VISA',
    last4: last4Of(s.issuanceKey),
    expMonth: now.getUTCMonth() + 1,
    expYear: now.getUTCFullYear() + CARD_VALIDITY_YEARS,
    processorRef: secrets.reference('processor', s.cardId),
    issuerRef: secrets.reference('issuer', s.cardId),
    at: now.toISOString(),
  };
}

/** Unknown, forged, expired, used, or of a card that cannot be revealed now: one answer for all (the page's 404). */
function revealLinkNotValid(): ApiError {
  return new ApiError('NOT_FOUND', 'this card reveal link is not valid, has expired or was used');
}
