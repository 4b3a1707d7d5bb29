import { ApiError, CallerContext, CreateQuoteRequest, hasProductionRail, isExternalAccountLookupId, noProductionRail, notConfigured, QuoteDestination, QuoteSource } from '@payments/contracts';
import type { AccountDirectory } from '../accounts/account-directory';
import type { CustomerDirectory } from '../platform-config/customer-directory';

/** Resolves a UMA receiver lookup (GET /receiver/uma/{address}) by its id: 404 LOOKUP_REQUEST_NOT_FOUND otherwise. */
export interface UmaLookupResolver {
  resolve(caller: CallerContext, lookupId: string): Promise<{ lookupId: string; receiverUmaAddress: string; currencies: string[] }>;
}

/** Who pays, who receives and in which currencies: what a quote request names, checked against its owners. */
export interface QuoteParties {
  source: QuoteSource;
  destination: QuoteDestination;
  sendingCurrency: string;
  receivingCurrency: string;
  /** The paying customer (source account owner or realtime-funding customer); null for a platform account. */
  customerId: string | null;
  /** The source is an Embedded Wallet: the quote is executed with the wallet's signature. */
  walletSource: boolean;
  /** The destination is a payout to someone else: an untrusted external account or a UMA address (an SCA PAYOUT round). */
  payoutToBeneficiary: { externalAccountId?: string } | null;
}

const fieldError = (code: string, message: string, field: string) => new ApiError(code, message, { errors: [{ field, message }] });

const noUmaClient = () =>
  notConfigured('UMA_PROTOCOL_CLIENT', 'production UMA payments need a UMA protocol client, which this deployment does not have (docs/uma.md): pay an account instead', 'a UMA protocol client (not available in this release)');

function forbidFields(object: object, fields: string[], variant: string, prefix: string): void {
  for (const field of fields) {
    if ((object as Record<string, unknown>)[field] !== undefined) throw fieldError('INVALID_INPUT', `${field} does not go with ${variant}`, `${prefix}.${field}`);
  }
}

export class QuotePartiesResolver {
  constructor(
    private readonly accounts: AccountDirectory,
    private readonly customers: CustomerDirectory,
    private readonly umaLookups: UmaLookupResolver | undefined,
  ) {}

  async resolve(caller: CallerContext, request: CreateQuoteRequest): Promise<QuoteParties> {
    const payer = await this.source(caller, request);
    const payee = await this.destination(caller, request);
    return { ...payer, ...payee };
  }

  private async source(caller: CallerContext, request: CreateQuoteRequest): Promise<Pick<QuoteParties, 'source' | 'sendingCurrency' | 'customerId' | 'walletSource'>> {
    const s = request.source;
    if (s.sourceType === 'REALTIME_FUNDING') {
      forbidFields(s, ['accountId'], 'sourceType REALTIME_FUNDING', 'source');
      const customer = await this.customers.get(caller, s.customerId!, 'source.customerId');
      return { source: { sourceType: 'REALTIME_FUNDING', customerId: customer.customerId, currency: s.currency! }, sendingCurrency: s.currency!, customerId: customer.customerId, walletSource: false };
    }
    forbidFields(s, ['customerId', 'currency'], 'sourceType ACCOUNT', 'source');
    const account = await this.account(caller, s.accountId!, 'source.accountId');
    if (account.kind !== 'INTERNAL') throw fieldError('INVALID_INPUT', 'the source must be an internal account (external sources fund through REALTIME_FUNDING)', 'source.accountId');
    const customerId = account.owner === 'CUSTOMER' ? (account.customerId ?? null) : null;
    return { source: { sourceType: 'ACCOUNT', accountId: account.accountId }, sendingCurrency: account.currency, customerId, walletSource: account.internalType === 'EMBEDDED_WALLET' };
  }

  private async destination(caller: CallerContext, request: CreateQuoteRequest): Promise<Pick<QuoteParties, 'destination' | 'receivingCurrency' | 'payoutToBeneficiary'>> {
    const d = request.destination;
    if (d.destinationType === 'UMA_ADDRESS') {
      forbidFields(d, ['accountId', 'paymentRail'], 'destinationType UMA_ADDRESS', 'destination');
      if (caller.mode === 'PRODUCTION') throw noUmaClient();
      if (!request.lookupId) throw fieldError('INVALID_INPUT', 'a UMA_ADDRESS destination needs the lookupId of GET /receiver/uma/{address}', 'lookupId');
      if (!this.umaLookups) throw new ApiError('NOT_IMPLEMENTED', 'UMA destinations are not available');
      const lookup = await this.umaLookups.resolve(caller, request.lookupId);
      if (lookup.receiverUmaAddress.toLowerCase() !== d.umaAddress!.toLowerCase()) throw fieldError('INVALID_INPUT', `lookup ${lookup.lookupId} is for ${lookup.receiverUmaAddress}, not ${d.umaAddress}`, 'destination.umaAddress');
      const currency = d.currency ?? lookup.currencies[0];
      if (!currency || !lookup.currencies.includes(currency)) throw fieldError('INVALID_CURRENCY', `the receiver accepts ${lookup.currencies.join(', ') || 'no currency'}`, 'destination.currency');
      return { destination: { destinationType: 'UMA_ADDRESS', umaAddress: lookup.receiverUmaAddress, currency }, receivingCurrency: currency, payoutToBeneficiary: {} };
    }
    forbidFields(d, ['umaAddress', 'currency'], 'destinationType ACCOUNT', 'destination');
    // An ACCOUNT destination takes the lookupId of GET /receiver/external-account/{accountId}, of this platform and mode.
    if (request.lookupId !== undefined && !isExternalAccountLookupId(request.lookupId, caller, d.accountId!)) {
      throw fieldError('INVALID_INPUT', `lookupId is not a lookup of ${d.accountId} by this platform (GET /receiver/external-account/{accountId})`, 'lookupId');
    }
    const account = await this.account(caller, d.accountId!, 'destination.accountId');
    const destination: QuoteDestination = { destinationType: 'ACCOUNT', accountId: account.accountId, ...(d.paymentRail ? { paymentRail: d.paymentRail } : {}) };
    if (account.kind === 'INTERNAL') return { destination, receivingCurrency: account.currency, payoutToBeneficiary: null };
    // A quote production could not pay out is refused now, not failed after its execution.
    if (caller.mode === 'PRODUCTION' && !hasProductionRail(account.currency, 'PAYOUT', d.paymentRail)) throw noProductionRail(account.currency, 'PAYOUT');
    const external = await this.accounts.externalAccount(caller, account.accountId);
    return { destination, receivingCurrency: account.currency, payoutToBeneficiary: external.trustedBeneficiary ? null : { externalAccountId: account.accountId } };
  }

  /**
   * Before a production quote is executed: its destination can still be paid (a quote created before a rail went
   * away, or before this check existed, is refused with the same 501 rather than failed after its execution).
   */
  async assertPayable(caller: CallerContext, destination: QuoteDestination): Promise<void> {
    if (caller.mode !== 'PRODUCTION') return;
    if (destination.destinationType === 'UMA_ADDRESS') throw noUmaClient();
    const account = await this.account(caller, destination.accountId!, 'destination.accountId');
    if (account.kind !== 'INTERNAL' && !hasProductionRail(account.currency, 'PAYOUT', destination.paymentRail)) throw noProductionRail(account.currency, 'PAYOUT');
  }

  private async account(caller: CallerContext, accountId: string, field: string) {
    try {
      return await this.accounts.accountCurrency(caller, accountId);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'REFERENCE_NOT_FOUND') throw fieldError('REFERENCE_NOT_FOUND', 'account not found', field);
      throw error;
    }
  }
}
