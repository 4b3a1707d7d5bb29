import type { DataSource, EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { AccountCurrency, ApiError, CallerContext, CreateQuoteRequest, isQuoteId, Quote } from '@payments/contracts';
import { CommandExecutor, CommandRequest, EventMetadata, queryRows, ScheduleTimer, TimerHandler, TimerRow } from '@payments/eventsourcing';
import type { AccountDirectory } from '../accounts/account-directory';
import type { CurrencyLimits } from '../platform-config/identity-events.consumer';
import { feeSchedule, NO_PLATFORM_FEES } from '../rates/fee-schedule';
import type { RateSource } from '../rates/rate-source';
import { AmountRange, QuoteCommand, quoteDecider } from './quote.decider';
import { QuoteEvent } from './quote.events';
import { projectQuote } from './quote.projection';
import { QuoteState } from './quote.state';
import { toQuote } from './quote.view';

export const QUOTE_EXPIRY_TIMER = 'quoting.quote.expire';

export interface QuoteServiceOptions {
  /** How long a quote's rate and fees hold (the spec: instant rails 1 to 5 minutes). Real time, never scaled. */
  quoteTtlMs: number;
  /** How long a create waits for the platform's currency config from identity (a platform created a moment ago). */
  configArrivalWaitMs: number;
}

const notFound = () => new ApiError('QUOTE_NOT_FOUND', 'quote not found');

/** Quotes: priced and locked by the decider, read from `quotes`, expired by a durable timer. */
export class QuoteService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly executor: CommandExecutor<EntityManager>,
    private readonly timers: { schedule(tx: EntityManager, timer: ScheduleTimer): Promise<string> },
    private readonly rates: RateSource,
    private readonly accounts: AccountDirectory,
    private readonly options: QuoteServiceOptions,
  ) {}

  async create(caller: CallerContext, request: CreateQuoteRequest, now: string): Promise<Quote> {
    const source = await this.account(caller, request.source.accountId, 'source.accountId');
    const destination = await this.account(caller, request.destination.accountId, 'destination.accountId');
    if (source.kind !== 'INTERNAL') {
      throw new ApiError('INVALID_INPUT', 'the source must be an internal account', { errors: [{ field: 'source.accountId', message: 'not an internal account' }] });
    }
    if (source.currency === destination.currency) {
      throw new ApiError('SAME_CURRENCY', `both accounts hold ${source.currency}: use a same-currency transfer`);
    }
    const rate = this.rates.rate(source.currency, destination.currency, now);
    if (!rate) throw new ApiError('INVALID_CURRENCY', `${source.currency} to ${destination.currency} cannot be quoted`);
    const limits = await this.limits(caller, source.currency, destination.currency);
    const quoteId = `Quote:${uuidv7()}`;
    const command: QuoteCommand = {
      type: 'CreateQuote',
      quoteId,
      transactionId: `Transaction:${uuidv7()}`,
      platformId: caller.platformId,
      mode: caller.mode,
      sourceAccountId: source.accountId,
      destinationAccountId: destination.accountId,
      customerId: source.customerId ?? null,
      sendingCurrency: source.currency,
      receivingCurrency: destination.currency,
      lockedCurrencySide: request.lockedCurrencySide,
      lockedCurrencyAmount: request.lockedCurrencyAmount,
      description: request.description ?? null,
      rate: { midRate: rate.midRate, sourcePerBtc: rate.sourcePerBtc },
      fees: feeSchedule(source.currency, NO_PLATFORM_FEES),
      limits,
      now,
      expiresAt: new Date(Date.parse(now) + this.options.quoteTtlMs).toISOString(),
    };
    const result = await this.executor.execute({
      ...this.request(caller.platformId, quoteId, command, { correlationId: caller.correlationId, actor: caller.clientId }),
      project: async (tx, events, state) => {
        await projectQuote(tx, events, state);
        await this.timers.schedule(tx, { name: QUOTE_EXPIRY_TIMER, delayMs: this.options.quoteTtlMs, realTime: true, streamId: quoteId, platformId: caller.platformId, payload: { quoteId } });
      },
    });
    if (result.state.status === 'NONE') throw notFound();
    return toQuote(result.state);
  }

  async get(caller: Pick<CallerContext, 'platformId' | 'mode'>, quoteId: string): Promise<Quote> {
    const rows = isQuoteId(quoteId)
      ? await queryRows<{ body: Quote }>(this.dataSource, `SELECT body FROM quotes WHERE quote_id = $1 AND platform_id = $2 AND mode = $3`, [quoteId, caller.platformId, caller.mode])
      : [];
    if (!rows[0]) throw notFound();
    return rows[0].body;
  }

  /** For ServiceHost's durable timers. */
  timerHandlers(): Record<string, TimerHandler<EntityManager>> {
    return { [QUOTE_EXPIRY_TIMER]: (tx, timer) => this.expire(tx, timer) };
  }

  private async expire(tx: EntityManager, timer: TimerRow): Promise<void> {
    const { quoteId } = timer.payload as { quoteId: string };
    const metadata = { correlationId: quoteId, causationId: timer.id, actor: 'timer' };
    await this.executor.decideAndAppend(tx, this.request(timer.platform_id, quoteId, { type: 'ExpireQuote', now: new Date().toISOString() }, metadata));
  }

  private async account(caller: CallerContext, accountId: string, field: string): Promise<AccountCurrency> {
    try {
      return await this.accounts.accountCurrency(caller, accountId);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'NOT_FOUND') throw new ApiError('NOT_FOUND', 'account not found', { errors: [{ field, message: 'no such account' }] });
      throw error;
    }
  }

  /** The platform's limits of the sending currency (it must be configured) and of the receiving one when configured. */
  private async limits(caller: CallerContext, sending: string, receiving: string): Promise<{ sending: AmountRange; receiving?: AmountRange }> {
    const deadline = Date.now() + this.options.configArrivalWaitMs;
    for (;;) {
      const rows = await queryRows<{ configs: CurrencyLimits[] }>(this.dataSource, `SELECT configs FROM platform_currency_configs WHERE platform_id = $1 AND mode = $2`, [caller.platformId, caller.mode]);
      const configs = rows.flatMap((r) => r.configs);
      const range = (code: string): AmountRange | undefined => {
        const c = configs.find((x) => x.currencyCode === code);
        return c && Number.isSafeInteger(c.minAmount) && Number.isSafeInteger(c.maxAmount) ? { min: c.minAmount!, max: c.maxAmount! } : undefined;
      };
      const sendingRange = range(sending);
      if (sendingRange) return { sending: sendingRange, receiving: range(receiving) };
      if (rows.length > 0 || Date.now() >= deadline) {
        throw new ApiError('INVALID_CURRENCY', `${sending} is not a configured currency of the platform`, { errors: [{ field: 'source.accountId', message: `the platform config has no ${sending} limits` }] });
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  private request(platformId: string | null, streamId: string, command: QuoteCommand, metadata: EventMetadata): CommandRequest<EntityManager, QuoteState, QuoteCommand, QuoteEvent> {
    return { decider: quoteDecider, streamId, platformId, metadata, command, project: projectQuote };
  }
}
