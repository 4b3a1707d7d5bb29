import { Controller, Inject } from '@nestjs/common';
import {
  AccountCurrency,
  AccountIdBody,
  AccountsRpc,
  FundingAccountMatch,
  MatchFundingRequest,
  InternalAccount,
  ListInternalAccountsQuery,
  ListPlatformInternalAccountsQuery,
  Page,
  PlatformInternalAccounts,
  RealtimeFundingInstructionsBody,
  RpcRequest,
  SandboxFundBody,
  SignedBody,
  SignedOutcome,
  SignedRequestChallenge,
  UpdateInternalAccountBody,
} from '@payments/contracts';
import { Handles } from '@payments/runtime';
import type { Accounts } from './accounts';
import { accountCurrency } from './account-currency';
import { fundingInstructions, PaymentInstructions } from './internal-accounts/funding-instructions';
import { ACCOUNTS } from './accounts.tokens';

/** Thin RPC adapter of the accounts service. */
@Controller()
export class AccountsRpcController {
  constructor(@Inject(ACCOUNTS) private readonly accounts: Accounts) {}

  @Handles(AccountsRpc.listCustomerInternalAccounts)
  list(r: RpcRequest<ListInternalAccountsQuery>): Promise<Page<InternalAccount>> {
    return this.accounts.internalAccounts.listForCustomers(r.caller, r.body);
  }

  @Handles(AccountsRpc.listPlatformInternalAccounts)
  listPlatform(r: RpcRequest<ListPlatformInternalAccountsQuery>): Promise<PlatformInternalAccounts> {
    return this.accounts.internalAccounts.listForPlatform(r.caller, r.body);
  }

  @Handles(AccountsRpc.sandboxFund)
  fund(r: RpcRequest<SandboxFundBody>): Promise<InternalAccount> {
    return this.accounts.internalAccounts.fund(r.caller, r.body.accountId, r.body.amount, new Date().toISOString());
  }

  @Handles(AccountsRpc.updateInternalAccount)
  update(r: RpcRequest<SignedBody<UpdateInternalAccountBody>>): Promise<SignedOutcome<InternalAccount, SignedRequestChallenge>> {
    return this.accounts.internalAccountSettings.update(r.caller, r.body, new Date().toISOString());
  }

  @Handles(AccountsRpc.getAccountCurrency)
  currency(r: RpcRequest<AccountIdBody>): Promise<AccountCurrency> {
    return accountCurrency(this.accounts.host.dataSource, r.caller, r.body.accountId);
  }

  /** For payments: the production account an incoming credit (or an operator) names; raw, across platforms. */
  @Handles(AccountsRpc.matchFunding)
  matchFunding(r: MatchFundingRequest): Promise<FundingAccountMatch | null> {
    return this.accounts.internalAccounts.funding.match(r);
  }

  /** For quoting: where a customer pays a REALTIME_FUNDING quote in (the platform's collection details, reference per quote). */
  @Handles(AccountsRpc.realtimeFundingInstructions)
  realtimeFunding(r: RpcRequest<RealtimeFundingInstructionsBody>): PaymentInstructions[] {
    return fundingInstructions(r.body.reference, r.body.currency, r.caller.mode, true);
  }

  @Handles(AccountsRpc.ping)
  async ping(): Promise<'pong'> {
    await this.accounts.host.dataSource.query('SELECT 1');
    return 'pong';
  }
}
