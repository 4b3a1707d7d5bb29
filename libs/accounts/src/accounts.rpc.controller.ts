import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AccountCurrency, AccountsRpc, FundInternalAccountRequest, InternalAccount, ListInternalAccountsQuery, ListPlatformInternalAccountsQuery, Page, RpcRequest } from '@payments/contracts';
import type { Accounts } from './accounts';
import { accountCurrency } from './account-currency';
import { fundingInstructions, PaymentInstructions } from './internal-accounts/funding-instructions';
import { ACCOUNTS } from './accounts.tokens';

/** Thin RPC adapter of the accounts service. */
@Controller()
export class AccountsRpcController {
  constructor(@Inject(ACCOUNTS) private readonly accounts: Accounts) {}

  @MessagePattern(AccountsRpc.listCustomerInternalAccounts)
  list(@Payload() r: RpcRequest<ListInternalAccountsQuery>): Promise<Page<InternalAccount>> {
    return this.accounts.internalAccounts.listForCustomers(r.caller, r.body);
  }

  @MessagePattern(AccountsRpc.listPlatformInternalAccounts)
  listPlatform(@Payload() r: RpcRequest<ListPlatformInternalAccountsQuery>): Promise<{ data: InternalAccount[] }> {
    return this.accounts.internalAccounts.listForPlatform(r.caller, r.body);
  }

  @MessagePattern(AccountsRpc.sandboxFund)
  fund(@Payload() r: RpcRequest<{ accountId: string } & FundInternalAccountRequest>): Promise<InternalAccount> {
    return this.accounts.internalAccounts.fund(r.caller, r.body.accountId, r.body.amount, new Date().toISOString());
  }

  @MessagePattern(AccountsRpc.getAccountCurrency)
  currency(@Payload() r: RpcRequest<{ accountId: string }>): Promise<AccountCurrency> {
    return accountCurrency(this.accounts.host.dataSource, r.caller, r.body.accountId);
  }

  /** For quoting: where a customer pays a REALTIME_FUNDING quote in (the platform's collection details, reference per quote). */
  @MessagePattern(AccountsRpc.realtimeFundingInstructions)
  realtimeFunding(@Payload() r: RpcRequest<{ reference: string; currency: string }>): PaymentInstructions[] {
    return fundingInstructions(r.body.reference, r.body.currency, r.caller.mode, true);
  }

  @MessagePattern(AccountsRpc.ping)
  async ping(): Promise<string> {
    await this.accounts.host.dataSource.query('SELECT 1');
    return 'pong';
  }
}
