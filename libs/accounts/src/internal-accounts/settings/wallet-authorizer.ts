import { ApiError, AuthorizeSignedRequestBody, CallerContext, SignedOutcome, SignedRequestChallenge, WalletAuthRpc, WalletSigner } from '@payments/contracts';
import { ServiceClient } from '@payments/runtime';

/** The signed retry of a request on an Embedded Wallet: wallet-auth owns sessions, keys and challenges. */
export interface SignedRequestAuthorizer {
  /** Without signature headers `{challenge}`; with valid ones `{result: {sessionId}}`, the challenge used up; else a 401. */
  authorize(caller: CallerContext, body: AuthorizeSignedRequestBody): Promise<SignedOutcome<WalletSigner, SignedRequestChallenge>>;
  close(): Promise<void>;
}

/**
 * WalletAuthRpc.authorizeSignedRequest over RPC, as the caller (wallet-auth scopes the wallet by its platform and
 * mode). Accounts starts before wallet-auth, so the client only connects when an update asks.
 */
export class RpcSignedRequestAuthorizer implements SignedRequestAuthorizer {
  private readonly client: ServiceClient;

  constructor(endpoint: { host: string; port: number }, timeoutMs: number) {
    this.client = new ServiceClient({ name: 'wallet-auth', ...endpoint }, timeoutMs);
  }

  authorize(caller: CallerContext, body: AuthorizeSignedRequestBody): Promise<SignedOutcome<WalletSigner, SignedRequestChallenge>> {
    return this.client.call(WalletAuthRpc.authorizeSignedRequest, { caller, body });
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

/** Where no wallet-auth endpoint is configured (the admin CLI): a signed request cannot be authorized. */
export const NO_SIGNED_REQUESTS: SignedRequestAuthorizer = {
  authorize: () => Promise.reject(new ApiError('SERVICE_UNAVAILABLE', 'the wallet-auth service is not configured for accounts')),
  close: () => Promise.resolve(),
};
