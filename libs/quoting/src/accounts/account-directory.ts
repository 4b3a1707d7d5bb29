import { AccountCurrency, AccountsRpc, CallerContext, ExternalAccount, PaymentInstructions } from '@payments/contracts';
import { ServiceClient } from '@payments/runtime';

/** What quoting asks the accounts service, which owns accounts, their currencies and beneficiary trust. */
export interface AccountDirectory {
  /** The account's currency and owner; ApiError NOT_FOUND for none, another tenant's or a deleted one. */
  accountCurrency(caller: CallerContext, accountId: string): Promise<AccountCurrency>;
  /** An external account (for its trusted-beneficiary flag). */
  externalAccount(caller: CallerContext, externalAccountId: string): Promise<ExternalAccount>;
  /** Marks an external account a trusted beneficiary once the customer passed SCA for a payout to it. */
  trustBeneficiary(caller: CallerContext, externalAccountId: string): Promise<void>;
  /** Where to pay a REALTIME_FUNDING quote in; empty where no collection details exist (production today). */
  realtimeFundingInstructions(caller: CallerContext, reference: string, currency: string): Promise<PaymentInstructions[]>;
  close(): Promise<void>;
}

/**
 * AccountDirectory over the accounts RPC (the shared ServiceClient: deadline, error envelopes as ApiError). Asking at
 * quote time (instead of mirroring account events) sees an account created a moment ago and never a stale currency.
 */
export class RpcAccountDirectory implements AccountDirectory {
  private readonly client: ServiceClient;

  constructor(endpoint: { host: string; port: number }, timeoutMs: number) {
    this.client = new ServiceClient({ name: 'accounts', ...endpoint }, timeoutMs);
  }

  accountCurrency(caller: CallerContext, accountId: string): Promise<AccountCurrency> {
    return this.client.call(AccountsRpc.getAccountCurrency, { caller, body: { accountId } });
  }

  externalAccount(caller: CallerContext, externalAccountId: string): Promise<ExternalAccount> {
    return this.client.call(AccountsRpc.getExternalAccount, { caller, body: { externalAccountId } });
  }

  async trustBeneficiary(caller: CallerContext, externalAccountId: string): Promise<void> {
    await this.client.call(AccountsRpc.trustExternalAccount, { caller, body: { externalAccountId } });
  }

  realtimeFundingInstructions(caller: CallerContext, reference: string, currency: string): Promise<PaymentInstructions[]> {
    return this.client.call(AccountsRpc.realtimeFundingInstructions, { caller, body: { reference, currency } });
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
