import { AccountsRpc, ApiError, CallerContext, CardFundingSourceRef, CardsRpc, CustomersRpc, EMBEDDED_WALLET_CONFIG_DEFAULTS, EmbeddedWalletConfig, IdentityRpc } from '@payments/contracts';
import { ServiceClient } from '@payments/runtime';

export type EffectiveWalletConfig = EmbeddedWalletConfig & typeof EMBEDDED_WALLET_CONFIG_DEFAULTS;

/** An Embedded Wallet internal account of the caller, and its customer's contacts now. */
export interface WalletOwner {
  accountId: string;
  customerId: string;
  email?: string;
  phoneNumber?: string;
}

export interface DirectoryEndpoints {
  accounts: { host: string; port: number };
  identity: { host: string; port: number };
  cards: { host: string; port: number };
}

/**
 * What wallet-auth asks the services that own accounts (is this the caller's Embedded Wallet account?), customers
 * (where do its OTPs go?) and cards (which funding source of a card is this account?). Accounts and identity are
 * asked when a wallet is first used and when an OTP credential is added, so a contact changed a moment ago is the one
 * used; cards on every leg of a delegated key creation.
 */
export class WalletDirectory {
  private readonly accounts: ServiceClient;
  private readonly identity: ServiceClient;
  private readonly cards: ServiceClient;

  constructor(endpoints: DirectoryEndpoints, timeoutMs: number) {
    this.accounts = new ServiceClient({ name: 'accounts', ...endpoints.accounts }, timeoutMs);
    this.identity = new ServiceClient({ name: 'identity', ...endpoints.identity }, timeoutMs);
    this.cards = new ServiceClient({ name: 'cards', ...endpoints.cards }, timeoutMs);
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

  /**
   * The funding source binding `internalAccountId` to `cardId`, when it is an Embedded Wallet of the caller's card;
   * 404 otherwise (cards answers 404 for another tenant's card or an account the card does not bind).
   */
  async fundingSource(caller: CallerContext, cardId: string, internalAccountId: string): Promise<CardFundingSourceRef> {
    const source = await this.cards.call(CardsRpc.getFundingSource, { caller, body: { cardId, internalAccountId } });
    if (!source.embeddedWallet || source.accountId !== internalAccountId || source.cardId !== cardId) {
      throw new ApiError('REFERENCE_NOT_FOUND', 'the card has no Embedded Wallet funding source of this internal account');
    }
    return source;
  }

  async close(): Promise<void> {
    await Promise.all([this.accounts.close(), this.identity.close(), this.cards.close()]);
  }
}
