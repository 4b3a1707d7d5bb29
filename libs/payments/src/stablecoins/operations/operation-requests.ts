import { findCurrency } from '@payments/money';
import {
  AccountCurrency,
  ApiError,
  CallerContext,
  ExternalAccount,
  invalidInput,
  StablecoinBurnRequest,
  StablecoinEstimatedDelivery,
  StablecoinMintRequest,
  StablecoinOperationSource,
  StablecoinPayoutRail,
} from '@payments/contracts';
import { assertCustomerReady, CustomerDirectory } from '../../customers/customer-directory';
import type { Peers } from '../../rpc/peers';
import { PULL_RAILS, railsOf } from '../../transfers/external-rails';
import type { StablecoinTerms } from '../registry/stablecoin.decider';
import { fiatAmountOf } from './fiat-amount';
import type { OperationTerms } from './operation.events';

/** The fields each source variant takes beside `type`; any other is refused rather than ignored. */
const MINT_FUNDING_FIELDS: Record<string, string[]> = {
  WIRE: [],
  ACH_DEBIT: ['externalAccountId'],
  SAME_DAY_ACH_DEBIT: ['externalAccountId'],
  GRID_INTERNAL_ACCOUNT: ['accountId'],
  PROVIDER_INTERNAL_BALANCE: ['sourceTokenIdentifier', 'cryptoNetwork'],
};
const BURN_SOURCE_FIELDS: Record<string, string[]> = { EXTERNAL_ACCOUNT: [], GRID_INTERNAL_ACCOUNT: ['accountId'], PROVIDER_INTERNAL_BALANCE: [] };
const PAYOUT_TIMING: Record<StablecoinPayoutRail, string> = { WIRE: 'same business day', ACH_CREDIT: '1-3 business days', SAME_DAY_ACH_CREDIT: 'same business day', RTP_CREDIT: 'within seconds' };
const NOT_ENABLED = 'needs the stablecoin enabled for Grid operations (gridOperationsStatus is NOT_ENABLED)';

type Common = Omit<OperationTerms, 'operationType' | 'source' | 'destination' | 'fundingRequired'>;

/**
 * Turns a validated mint or burn request into the operation's terms: every account it names is checked with accounts
 * (the caller's, ACTIVE, the right kind and currency) before anything is recorded.
 */
export class OperationRequests {
  constructor(
    private readonly peers: Peers,
    private readonly customers: CustomerDirectory,
  ) {}

  async mintTerms(caller: CallerContext, stablecoin: StablecoinTerms, request: StablecoinMintRequest, common: Common): Promise<OperationTerms> {
    const funding = request.fundingSource;
    onlyFields(funding as unknown as Record<string, unknown>, MINT_FUNDING_FIELDS[funding.type], 'fundingSource', funding.type);
    const source: StablecoinOperationSource = { ...funding };
    let heldAccountId: string | undefined;
    let heldCustomerId: string | undefined;
    let pulledCustomerId: string | undefined;
    if (funding.type === 'ACH_DEBIT' || funding.type === 'SAME_DAY_ACH_DEBIT') {
      const bank = await this.external(caller, funding.externalAccountId!, 'fundingSource.externalAccountId');
      assertFiatAccount(bank, stablecoin.baseCurrency, 'fundingSource.externalAccountId');
      pulledCustomerId = bank.customerId;
      if (!railsOf(bank).some((r) => PULL_RAILS.includes(r))) throw new ApiError('SOURCE_NOT_PULL_CAPABLE', `external account ${bank.id} cannot be debited: pulls need one of ${PULL_RAILS.join(', ')}`);
    }
    if (funding.type === 'GRID_INTERNAL_ACCOUNT') {
      const account = await this.internal(caller, funding.accountId!, 'fundingSource.accountId');
      if (account.currency !== stablecoin.baseCurrency) throw new ApiError('CURRENCY_MISMATCH', `fundingSource.accountId holds ${account.currency}; this stablecoin is backed by ${stablecoin.baseCurrency}`);
      heldAccountId = account.accountId;
      heldCustomerId = account.customerId;
    }
    const destinationId = request.destination.accountId;
    if (destinationId.startsWith('InternalAccount:')) throw invalidInput('destination.accountId', `an internal account destination ${NOT_ENABLED}`);
    const wallet = await this.external(caller, destinationId, 'destination.accountId');
    if (wallet.accountInfo.accountType !== 'SPARK_WALLET' || typeof wallet.accountInfo.address !== 'string') throw invalidInput('destination.accountId', 'destination.accountId must be a Spark wallet (SPARK_WALLET) external account: the stablecoin lives on Spark');
    await this.readyCustomers(caller, [wallet.customerId, heldCustomerId, pulledCustomerId]);
    return { ...common, operationType: 'MINT', source, destination: { accountId: wallet.id }, tokenDestinationAddress: wallet.accountInfo.address, fundingRequired: funding.type === 'WIRE', ...(heldAccountId ? { heldAccountId } : {}) };
  }

  async burnTerms(caller: CallerContext, stablecoin: StablecoinTerms, request: StablecoinBurnRequest, common: Common): Promise<OperationTerms> {
    const source = request.source;
    onlyFields(source as unknown as Record<string, unknown>, BURN_SOURCE_FIELDS[source.type], 'source', source.type);
    if (source.type === 'GRID_INTERNAL_ACCOUNT') throw invalidInput('source.accountId', `an internal account source ${NOT_ENABLED}`);
    const bank = await this.external(caller, request.destination.externalAccountId, 'destination.externalAccountId');
    assertFiatAccount(bank, stablecoin.baseCurrency, 'destination.externalAccountId');
    await this.readyCustomers(caller, [bank.customerId]);
    const rail = request.destination.rail;
    const estimatedDelivery: StablecoinEstimatedDelivery = { rail, amount: String(common.fiatAmount), currency: common.fiatCurrency, timing: PAYOUT_TIMING[rail] };
    return {
      ...common,
      operationType: 'BURN',
      source: { type: source.type },
      destination: { accountId: bank.id, rail },
      payoutAccountInfo: bank.accountInfo,
      estimatedDelivery,
      fundingRequired: source.type === 'EXTERNAL_ACCOUNT',
    };
  }

  /** The fiat side of `amount` in the base currency (whole cents, else 400 INVALID_AMOUNT). */
  fiatAmount(stablecoin: StablecoinTerms, amount: string): number {
    const currency = findCurrency(stablecoin.baseCurrency);
    if (!currency) throw new ApiError('INVALID_CURRENCY', `the stablecoin's base currency ${stablecoin.baseCurrency} is not supported`);
    return fiatAmountOf(amount, stablecoin.decimals, currency.decimals);
  }

  /** Production money only for APPROVED customers: every customer whose account the operation moves money with. */
  private async readyCustomers(caller: CallerContext, customerIds: readonly (string | null | undefined)[]): Promise<void> {
    for (const customerId of new Set(customerIds)) await assertCustomerReady(this.customers, caller, customerId);
  }

  private async external(caller: CallerContext, id: string, field: string): Promise<ExternalAccount> {
    if (!id.startsWith('ExternalAccount:')) throw invalidInput(field, `${field} must be an ExternalAccount id`);
    return (await this.peers.payableExternalAccount(caller, id)).account;
  }

  private async internal(caller: CallerContext, id: string, field: string): Promise<AccountCurrency> {
    if (!id.startsWith('InternalAccount:')) throw invalidInput(field, `${field} must be an InternalAccount id`);
    const account = await this.peers.accountCurrency(caller, id);
    if (account.kind !== 'INTERNAL') throw invalidInput(field, `${field} must be an internal account`);
    if (account.status !== 'ACTIVE') throw invalidInput(field, `${field} is ${account.status}`);
    return account;
  }
}

function onlyFields(value: Record<string, unknown>, allowed: string[], prefix: string, type: string): void {
  for (const field of Object.keys(value)) {
    if (field !== 'type' && !allowed.includes(field) && value[field] !== undefined) throw invalidInput(`${prefix}.${field}`, `${prefix}.${field} is not a field of ${type}`);
  }
}

/** A bank account in the stablecoin's base currency (wallets cannot send or receive fiat). */
function assertFiatAccount(account: ExternalAccount, currency: string, field: string): void {
  const type = String(account.accountInfo.accountType ?? '');
  if (type.endsWith('_WALLET') || type === 'LIGHTNING') throw invalidInput(field, `${field} must be a bank account, not a ${type}`);
  if (account.currency !== currency) throw new ApiError('CURRENCY_MISMATCH', `${field} is a ${account.currency} account; this stablecoin is backed by ${currency}`);
}
