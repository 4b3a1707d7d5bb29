import {
  AccountCurrency,
  AccountsRpc,
  AuthorizeSignedRequestBody,
  CallerContext,
  Customer,
  CustomersRpc,
  DelegatedSignature,
  LedgerAccountBalance,
  LedgerEntryResult,
  LedgerRpc,
  Mode,
  PlaceHoldRequest,
  CaptureHoldRequest,
  ReleaseHoldRequest,
  ReverseEntryRequest,
  SignedOutcome,
  SignedRequestChallenge,
  TransferRequest,
  WalletAuthRpc,
  WalletSigner,
} from '@payments/contracts';
import { ServiceClient } from '@payments/runtime';

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

  constructor(endpoints: PeerEndpoints, timeoutMs: number) {
    this.accounts = new ServiceClient({ name: 'accounts', ...endpoints.accounts }, timeoutMs);
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

  placeHold(caller: CallerContext, body: PlaceHoldRequest): Promise<LedgerAccountBalance> {
    return this.accounts.call(LedgerRpc.placeHold, { caller, body });
  }

  captureHold(caller: CallerContext, body: CaptureHoldRequest): Promise<LedgerAccountBalance> {
    return this.accounts.call(LedgerRpc.captureHold, { caller, body });
  }

  releaseHold(caller: CallerContext, body: ReleaseHoldRequest): Promise<LedgerAccountBalance> {
    return this.accounts.call(LedgerRpc.releaseHold, { caller, body });
  }

  transfer(caller: CallerContext, body: TransferRequest): Promise<LedgerEntryResult> {
    return this.accounts.call(LedgerRpc.transfer, { caller, body });
  }

  reverse(caller: CallerContext, body: ReverseEntryRequest): Promise<LedgerEntryResult> {
    return this.accounts.call(LedgerRpc.reverse, { caller, body });
  }

  async close(): Promise<void> {
    await this.accounts.close();
    await this.identity.close();
    await this.walletAuth.close();
  }
}
