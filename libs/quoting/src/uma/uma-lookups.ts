import type { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { ApiError, CallerContext, isLookupId, notConfigured, ReceiverLookupQuery, ResolvedUmaLookup, UmaReceiverLookup } from '@payments/contracts';
import { queryRows } from '@payments/eventsourcing';
import { isSandboxUmaDomain, parseUmaAddress, sandboxUmaReceiver, SandboxUmaReceiver } from '@payments/uma';
import type { CurrencyLimits } from '../platform-config/identity-events.consumer';
import type { KnownCustomer } from '../platform-config/customer-directory';
import type { RateBooks } from '../rates/rate-source';
import { limitsOf, receiverCurrency } from './uma-receiver-currencies';

type Scope = Pick<CallerContext, 'platformId' | 'mode'>;

/** Where a lookup finds the sending customer's currencies (quoting's customer directory). */
export interface CustomerCurrencies {
  get(scope: Scope, customerId: string, field?: string): Promise<Pick<KnownCustomer, 'currencies'>>;
}

const invalidAddress = (field: string) => new ApiError('INVALID_UMA_ADDRESS', `${field} is not a UMA address ($user@domain)`, { errors: [{ field, message: 'must be $user@domain: user of a-z 0-9 . _ - (1 to 64), domain a host name' }] });
const lookupNotFound = () => new ApiError('LOOKUP_REQUEST_NOT_FOUND', 'lookup not found');

/**
 * GET /receiver/uma/{address}: who the receiver is, which currencies it takes at which estimated rate, within which
 * limits. Every answer is stored in `uma_lookups`, so a quote to a UMA address can require its `lookupId` (`resolve`).
 * Sandbox mode knows the seed's sandbox receivers only; production has no UMA protocol client yet (501).
 */
export class UmaLookups {
  constructor(
    private readonly dataSource: DataSource,
    private readonly rates: RateBooks,
    private readonly customers: CustomerCurrencies,
  ) {}

  async lookup(caller: CallerContext, address: string, query: ReceiverLookupQuery, now = new Date().toISOString()): Promise<UmaReceiverLookup> {
    const parsed = parseUmaAddress(address);
    if (!parsed) throw invalidAddress('receiverUmaAddress');
    if (query.senderUmaAddress !== undefined && !parseUmaAddress(query.senderUmaAddress)) throw invalidAddress('senderUmaAddress');
    const receiver = this.receiver(caller, parsed.address, parsed.domain);
    const configs = await this.currencyConfigs(caller);
    const sending = await this.sendingCurrency(caller, query, configs, receiver.currency);
    const sendingLimits = limitsOf(configs, sending) ?? { min: 1, max: Number.MAX_SAFE_INTEGER };
    const found = sending === receiver.currency ? undefined : (await this.rates.book(caller.mode, now)).lookup(sending, receiver.currency);
    const rate = found === undefined ? 1 : found.ok ? Number(found.rate.midRate) : NaN;
    const supportedCurrencies = Number.isFinite(rate) ? [receiverCurrency(receiver.currency, rate, limitsOf(configs, receiver.currency), { code: sending, limits: sendingLimits })] : [];
    const lookupId = `Lookup:${uuidv7()}`;
    await queryRows(
      this.dataSource,
      `INSERT INTO uma_lookups (lookup_id, platform_id, mode, receiver_uma_address, currencies, sending_currency, created_at) VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7)`,
      [lookupId, caller.platformId, caller.mode, parsed.address, JSON.stringify(supportedCurrencies.map((c) => c.currency.code)), sending, now],
    );
    return { receiverUmaAddress: parsed.address, supportedCurrencies, lookupId };
  }

  /** A stored lookup of this platform and mode, for quote creation; 404 LOOKUP_REQUEST_NOT_FOUND otherwise. */
  async resolve(caller: Scope, lookupId: string): Promise<ResolvedUmaLookup> {
    if (!isLookupId(lookupId)) throw lookupNotFound();
    const [row] = await queryRows<{ receiver_uma_address: string; currencies: string[] }>(
      this.dataSource,
      `SELECT receiver_uma_address, currencies FROM uma_lookups WHERE lookup_id = $1 AND platform_id = $2 AND mode = $3`,
      [lookupId, caller.platformId, caller.mode],
    );
    if (!row) throw lookupNotFound();
    return { lookupId, receiverUmaAddress: row.receiver_uma_address, currencies: row.currencies };
  }

  /** Sandbox: the seed's receivers, nobody else. Production: the sandbox domain does not exist; others need a UMA client. */
  private receiver(caller: Scope, address: string, domain: string): SandboxUmaReceiver {
    const notFound = new ApiError('UMA_NOT_FOUND', `no UMA receiver ${address}`);
    if (caller.mode === 'SANDBOX') {
      const receiver = sandboxUmaReceiver(address);
      if (!receiver) throw notFound;
      return receiver;
    }
    if (isSandboxUmaDomain(domain)) throw notFound;
    throw notConfigured('UMA_PROTOCOL_CLIENT', 'production UMA lookups need a UMA protocol client, which this deployment does not have (docs/uma.md)', 'a UMA protocol client (not available in this release)');
  }

  /**
   * The currency the estimate is from: the customer's first currency (customerId), else the sandbox sender's currency
   * (senderUmaAddress of a sandbox receiver), else the platform's first configured currency, else the receiver's own.
   */
  private async sendingCurrency(caller: Scope, query: ReceiverLookupQuery, configs: readonly CurrencyLimits[], fallback: string): Promise<string> {
    if (query.customerId !== undefined) {
      const customer = await this.customers.get(caller, query.customerId);
      if (customer.currencies.length > 0) return customer.currencies[0];
    }
    const sender = caller.mode === 'SANDBOX' && query.senderUmaAddress !== undefined ? sandboxUmaReceiver(query.senderUmaAddress) : undefined;
    return sender?.currency ?? configs[0]?.currencyCode ?? fallback;
  }

  private async currencyConfigs(caller: Scope): Promise<CurrencyLimits[]> {
    const rows = await queryRows<{ configs: CurrencyLimits[] }>(this.dataSource, `SELECT configs FROM platform_currency_configs WHERE platform_id = $1 AND mode = $2`, [caller.platformId, caller.mode]);
    return rows.flatMap((r) => r.configs);
  }
}
