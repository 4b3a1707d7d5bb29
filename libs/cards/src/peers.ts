import {
  AccountCurrency,
  AccountsRpc,
  AuthorizeSignedRequestBody,
  CallerContext,
  Customer,
  CustomersRpc,
  DelegatedSignature,
  Mode,
  SignedOutcome,
  SignedRequestChallenge,
  WalletAuthRpc,
  WalletSigner,
} from '@payments/contracts';
import { LedgerClient, ServiceClient } from '@payments/runtime';

/** The caller cards acts as when its own saga (a timer, a simulated network message) moves money for a platform. */
export const systemCaller = (platformId: string, mode: Mode): CallerContext => ({ platformId, mode, clientId: 'cards', permissions: ['TRANSACT'] });

export interface PeerEndpoints {
  accounts: { host: string; port: number };
  identity: { host: string; port: number };
  walletAuth: { host: string; port: number };
}

/**
 * What cards asks other services over RPC: identity (the cardholder), accounts (funding accounts and the ledger) and
 * wallet-auth (signed retries of Embedded Wallet cards, delegated-key signatures). Every ledger call is idempotent by
 * an id derived from the card transaction.
 */
export class CardPeers {
  private readonly accounts: ServiceClient;
  private readonly identity: ServiceClient;
  private readonly walletAuth: ServiceClient;
  /** Ledger commands (holds, pulls, releases, refunds, reversals) on accounts. */
  readonly ledger: LedgerClient;

  constructor(endpoints: PeerEndpoints, timeoutMs: number) {
    this.accounts = new ServiceClient({ name: 'accounts', ...endpoints.accounts }, timeoutMs);
    this.ledger = new LedgerClient(this.accounts);
    this.identity = new ServiceClient({ name: 'identity', ...endpoints.identity }, timeoutMs);
    this.walletAuth = new ServiceClient({ name: 'wallet-auth', ...endpoints.walletAuth }, timeoutMs);
  }

  customer(caller: CallerContext, customerId: string): Promise<Customer> {
    return this.identity.call(CustomersRpc.get, { caller, body: { customerId } });
  }

  accountCurrency(caller: CallerContext, accountId: string): Promise<AccountCurrency> {
    return this.accounts.call(AccountsRpc.getAccountCurrency, { caller, body: { accountId } });
  }

  authorizeSignedRequest(caller: CallerContext, body: AuthorizeSignedRequestBody): Promise<SignedOutcome<WalletSigner, SignedRequestChallenge>> {
    return this.walletAuth.call(WalletAuthRpc.authorizeSignedRequest, { caller, body });
  }

  signWithDelegatedKey(caller: CallerContext, accountId: string, fundingSourceId: string, payload: string): Promise<DelegatedSignature> {
    return this.walletAuth.call(WalletAuthRpc.signWithDelegatedKey, { caller, body: { accountId, fundingSourceId, payload } });
  }

  async close(): Promise<void> {
    await this.accounts.close();
    await this.identity.close();
    await this.walletAuth.close();
  }
}
