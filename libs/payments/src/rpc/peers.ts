import { AccountCurrency, AccountsRpc, CallerContext, ExternalAccount, FundingAccountMatch, FundQuoteRequest, MatchFundingRequest, InternalAccount, Mode, PayableExternalAccount, Quote, QuotingRpc, RecordRailVerificationRequest, TransferAccounts, TransferAccountsBody } from '@payments/contracts';
import { LedgerClient, ServiceClient } from '@payments/runtime';

/** The caller payments acts as when its own saga (a timer, a consumer) moves money for a platform. */
export const systemCaller = (platformId: string, mode: Mode): CallerContext => ({ platformId, mode, clientId: 'payments', permissions: ['TRANSACT'] });

/**
 * What payments asks other services over RPC: accounts (currencies, external accounts, the ledger) and quoting
 * (funding a quote). Every ledger call is idempotent by the id payments derives from the transaction id.
 */
export class Peers {
  /** Ledger commands (holds, transfers, reversals) on accounts. */
  readonly ledger: LedgerClient;

  constructor(
    private readonly accounts: ServiceClient,
    private readonly quoting: ServiceClient,
  ) {
    this.ledger = new LedgerClient(accounts);
  }

  accountCurrency(caller: CallerContext, accountId: string): Promise<AccountCurrency> {
    return this.accounts.call(AccountsRpc.getAccountCurrency, { caller, body: { accountId } });
  }

  /** The customer's ACTIVE internal account in `currency`, if any (UMA receive credits it). */
  async customerInternalAccount(caller: CallerContext, customerId: string, currency: string): Promise<InternalAccount | undefined> {
    const page = await this.accounts.call(AccountsRpc.listCustomerInternalAccounts, { caller, body: { customerId, currency, limit: 100 } });
    return page.data.find((a) => a.status === 'ACTIVE');
  }

  /** A transfer's two accounts and its external side as a payee, in one call; null for no such account of the caller. */
  transferAccounts(caller: CallerContext, body: TransferAccountsBody): Promise<TransferAccounts> {
    return this.accounts.call(AccountsRpc.getTransferAccounts, { caller, body });
  }

  /** The account and its sandbox suffix; 400 EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED unless ACTIVE; 404 if none. */
  payableExternalAccount(caller: CallerContext, externalAccountId: string): Promise<PayableExternalAccount> {
    return this.accounts.call(AccountsRpc.assertExternalAccountCanReceive, { platformId: caller.platformId, mode: caller.mode, externalAccountId });
  }

  async sandboxSuffix(caller: CallerContext, externalAccountId: string): Promise<string | null> {
    const answer = await this.accounts.call(AccountsRpc.getExternalAccountSandboxSuffix, { caller, body: { externalAccountId } });
    return answer.suffix;
  }

  /** The rails' verdict on an external account awaiting its payout rail (an ACH prenote settled or returned). */
  recordRailVerification(body: RecordRailVerificationRequest): Promise<ExternalAccount> {
    return this.accounts.call(AccountsRpc.recordRailVerification, body);
  }

  /** The production account an incoming credit (or an operator) names, across platforms; null for none. */
  matchFunding(body: MatchFundingRequest): Promise<FundingAccountMatch | null> {
    return this.accounts.call(AccountsRpc.matchFunding, body);
  }

  fundQuote(caller: CallerContext, body: FundQuoteRequest): Promise<Quote> {
    return this.quoting.call(QuotingRpc.fundQuote, { caller, body });
  }

  async close(): Promise<void> {
    await this.accounts.close();
    await this.quoting.close();
  }
}
