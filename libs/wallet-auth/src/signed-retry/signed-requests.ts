import { AuthorizeSignedRequestBody, CallerContext, SignedOutcome, SignedRequestChallenge, VerifyPayloadSignatureBody, WalletSigner } from '@payments/contracts';
import type { WalletContext } from '../wallets/wallet-context';
import { liveSessions } from '../wallets/wallet.views';
import { checkSignedRetry, readStamp, signerOf } from './signed-retry';

/**
 * The signed retry and signature checks other services ask for: accounts (PATCH /internal-accounts), identity
 * (PATCH /customers changing a wallet's email or phone), quoting (executing a quote from an Embedded Wallet). The
 * effect is theirs; what is recorded here is that the challenge was answered, so it answers once.
 */
export class SignedRequests {
  constructor(private readonly ctx: WalletContext) {}

  async authorize(caller: CallerContext, body: AuthorizeSignedRequestBody, now: string): Promise<SignedOutcome<WalletSigner, SignedRequestChallenge>> {
    const wallet = await this.ctx.store.ofAccount(caller, body.accountId, now);
    const request = { operation: body.operation, target: body.target, body: body.request };
    const retry = checkSignedRetry(wallet, body.signature, request, now);
    if (retry === 'FIRST_LEG') {
      const spec = { ...request, signer: { kind: 'SESSION' as const }, activity: body.activity, parameters: body.parameters };
      return { challenge: await this.ctx.challenge(caller, wallet, spec, now) };
    }
    await this.ctx.store.change(caller, wallet.accountId, { type: 'AnswerChallenge', answer: retry.answer, now });
    return { result: { sessionId: retry.answer.signerSessionId ?? '' } };
  }

  /** A stamp over a payload the caller issued, by a live session of the wallet; 401 with the code of what is wrong. */
  async verifyPayload(caller: CallerContext, body: VerifyPayloadSignatureBody, now: string): Promise<WalletSigner> {
    const wallet = await this.ctx.store.ofAccount(caller, body.accountId, now);
    const stamp = readStamp(wallet, body.walletSignature);
    const session = signerOf(stamp, liveSessions(wallet, now), body.payloadToSign, 'the stamp is not by an active session of this Embedded Wallet');
    return { sessionId: session?.id ?? '' };
  }
}
