import { AccountsRpc, ApiError, CallerContext, CustomersRpc, EMBEDDED_WALLET_CONFIG_DEFAULTS, EmbeddedWalletConfig, IdentityRpc } from '@payments/contracts';
import { ServiceClient } from '@payments/runtime';

export type EffectiveWalletConfig = EmbeddedWalletConfig & typeof EMBEDDED_WALLET_CONFIG_DEFAULTS;

/** An Embedded Wallet internal account of the caller, and its customer's contacts now. */
export interface WalletOwner {
  accountId: string;
  customerId: string;
  email?: string;
  phoneNumber?: string;
}

/**
 * What wallet-auth asks the services that own accounts (is this the caller's Embedded Wallet account?) and customers
 * (where do its OTPs go?). Asked when a wallet is first used and when an OTP credential is added, so a contact
 * changed a moment ago is the one used.
 */
export class WalletDirectory {
  private readonly accounts: ServiceClient;
  private readonly identity: ServiceClient;

  constructor(endpoints: { accounts: { host: string; port: number }; identity: { host: string; port: number } }, timeoutMs: number) {
    this.accounts = new ServiceClient({ name: 'accounts', ...endpoints.accounts }, timeoutMs);
    this.identity = new ServiceClient({ name: 'identity', ...endpoints.identity }, timeoutMs);
  }

  /** 404 unless the account is an EMBEDDED_WALLET internal account of a customer of the caller's platform and mode. */
  async owner(caller: CallerContext, accountId: string): Promise<WalletOwner> {
    const account = await this.accounts.call(AccountsRpc.getAccountCurrency, { caller, body: { accountId } });
    if (account.kind !== 'INTERNAL' || account.internalType !== 'EMBEDDED_WALLET' || !account.customerId) {
      throw new ApiError('REFERENCE_NOT_FOUND', 'no Embedded Wallet internal account with this id');
    }
    const customer = await this.identity.call(CustomersRpc.get, { caller, body: { customerId: account.customerId } });
    return { accountId, customerId: account.customerId, ...(customer.email ? { email: customer.email } : {}), ...(customer.phoneNumber ? { phoneNumber: customer.phoneNumber } : {}) };
  }

  /** The platform's embeddedWalletConfig over the published defaults (OTP length, alphabet, lifetime, sender). */
  async walletConfig(caller: CallerContext): Promise<EffectiveWalletConfig> {
    const config = await this.identity.call(IdentityRpc.getConfig, { caller, body: {} });
    return { ...EMBEDDED_WALLET_CONFIG_DEFAULTS, ...config.embeddedWalletConfig };
  }

  async close(): Promise<void> {
    await Promise.all([this.accounts.close(), this.identity.close()]);
  }
}
