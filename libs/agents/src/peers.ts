import {
  AccountCurrency,
  AccountsRpc,
  CallerContext,
  CreateExternalAccountRequest,
  CreateQuoteRequest,
  Customer,
  CustomersRpc,
  ExternalAccount,
  InternalAccount,
  ListExternalAccountsQuery,
  ListInternalAccountsQuery,
  ListTransactionsQuery,
  Mode,
  Page,
  PaymentsRpc,
  Quote,
  QuotingRpc,
  Transaction,
  TransferInRequest,
  TransferOutRequest,
} from '@payments/contracts';
import { ServiceClient } from '@payments/runtime';

export const systemCaller = (platformId: string, mode: Mode, extra: Partial<CallerContext> = {}): CallerContext => ({ platformId, mode, clientId: 'agents', permissions: ['VIEW', 'TRANSACT', 'MANAGE'], ...extra });

type Endpoint = { host: string; port: number };

/**
 * What agents asks the services that own the resources an agent acts on: identity (its customer), accounts (the
 * customer's accounts), quoting (quotes, rates) and payments (transfers, transactions). Calls are made as the platform,
 * after the policy allowed them; the agent's customer scopes every one.
 */
export class AgentPeers {
  private readonly identity: ServiceClient;
  private readonly accounts: ServiceClient;
  private readonly quoting: ServiceClient;
  private readonly payments: ServiceClient;

  constructor(endpoints: { identity: Endpoint; accounts: Endpoint; quoting: Endpoint; payments: Endpoint }, timeoutMs: number) {
    this.identity = new ServiceClient({ name: 'identity', ...endpoints.identity }, timeoutMs);
    this.accounts = new ServiceClient({ name: 'accounts', ...endpoints.accounts }, timeoutMs);
    this.quoting = new ServiceClient({ name: 'quoting', ...endpoints.quoting }, timeoutMs);
    this.payments = new ServiceClient({ name: 'payments', ...endpoints.payments }, timeoutMs);
  }

  customer(caller: CallerContext, customerId: string): Promise<Customer> {
    return this.identity.call(CustomersRpc.get, { caller, body: { customerId } });
  }

  accountCurrency(caller: CallerContext, accountId: string): Promise<AccountCurrency> {
    return this.accounts.call(AccountsRpc.getAccountCurrency, { caller, body: { accountId } });
  }

  internalAccounts(caller: CallerContext, query: ListInternalAccountsQuery): Promise<Page<InternalAccount>> {
    return this.accounts.call(AccountsRpc.listCustomerInternalAccounts, { caller, body: query });
  }

  externalAccounts(caller: CallerContext, query: ListExternalAccountsQuery): Promise<Page<ExternalAccount>> {
    return this.accounts.call(AccountsRpc.listExternalAccounts, { caller, body: query });
  }

  createExternalAccount(caller: CallerContext, body: CreateExternalAccountRequest): Promise<ExternalAccount> {
    return this.accounts.call(AccountsRpc.createExternalAccount, { caller, body });
  }

  externalAccount(caller: CallerContext, externalAccountId: string): Promise<ExternalAccount> {
    return this.accounts.call(AccountsRpc.getExternalAccount, { caller, body: { externalAccountId } });
  }

  deleteExternalAccount(caller: CallerContext, externalAccountId: string): Promise<null> {
    return this.accounts.call(AccountsRpc.deleteExternalAccount, { caller, body: { externalAccountId } });
  }

  createQuote(caller: CallerContext, body: CreateQuoteRequest): Promise<Quote> {
    return this.quoting.call(QuotingRpc.createQuote, { caller, body });
  }

  quote(caller: CallerContext, quoteId: string): Promise<Quote> {
    return this.quoting.call(QuotingRpc.getQuote, { caller, body: { quoteId } });
  }

  executeQuote(caller: CallerContext, quoteId: string, walletSignature?: string): Promise<Quote> {
    return this.quoting.call(QuotingRpc.executeQuote, { caller, body: { quoteId, ...(walletSignature ? { walletSignature } : {}) } });
  }

  /** Units of `to` per unit of `from` (major units), null when the pair cannot be quoted. */
  async midRate(caller: CallerContext, from: string, to: string): Promise<number | null> {
    const answer = await this.quoting.call(QuotingRpc.midRates, { caller, body: { pairs: [{ from, to }] } });
    return answer.rates[0]?.rate ?? null;
  }

  transferIn(caller: CallerContext, body: TransferInRequest): Promise<Transaction> {
    return this.payments.call(PaymentsRpc.transferIn, { caller, body });
  }

  transferOut(caller: CallerContext, body: TransferOutRequest): Promise<Transaction> {
    return this.payments.call(PaymentsRpc.transferOut, { caller, body });
  }

  transactions(caller: CallerContext, query: ListTransactionsQuery): Promise<Page<Transaction>> {
    return this.payments.call(PaymentsRpc.listTransactions, { caller, body: query });
  }

  transaction(caller: CallerContext, transactionId: string): Promise<Transaction> {
    return this.payments.call(PaymentsRpc.getTransaction, { caller, body: { transactionId } });
  }

  async close(): Promise<void> {
    await Promise.all([this.identity.close(), this.accounts.close(), this.quoting.close(), this.payments.close()]);
  }
}
