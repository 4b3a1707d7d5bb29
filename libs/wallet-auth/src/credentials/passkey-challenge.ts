import { v7 as uuidv7 } from 'uuid';
import type { CallerContext, PasskeyAuthChallenge } from '@payments/contracts';
import { passkeyChallengeFor } from '@payments/wallet-crypto';
import type { WalletContext } from '../wallets/wallet-context';
import type { ActiveWallet, CredentialState } from '../wallets/wallet.state';
import { toAuthMethod } from '../wallets/wallet.views';

/**
 * A passkey login challenge: the lowercase hex SHA-256 of the session-creation request that embeds `clientPublicKey`
 * (so the assertion authorizes a session for exactly that key), answered by POST …/verify with its Request-Id.
 */
export async function passkeyChallenge(ctx: WalletContext, caller: CallerContext, wallet: ActiveWallet, credential: CredentialState, clientPublicKey: string, now: string): Promise<PasskeyAuthChallenge> {
  const requestId = `Request:${uuidv7()}`;
  const sessionCreation = JSON.stringify({
    type: 'ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2',
    timestampMs: String(Date.parse(now)),
    organizationId: wallet.organizationId,
    parameters: { targetPublicKey: clientPublicKey, expirationSeconds: String(Math.round(ctx.config.sessionTtlMs / 1000)), userId: wallet.accountId },
    request: { requestId },
  });
  const challenge = passkeyChallengeFor(sessionCreation);
  const expiresAt = ctx.expiry(now, ctx.config.challengeTtlMs);
  await ctx.store.change(caller, wallet.accountId, {
    type: 'IssueChallenge',
    challenge: {
      requestId,
      operation: 'VERIFY_PASSKEY',
      target: credential.id,
      bodySha256: '',
      payloadToSign: challenge,
      signer: { kind: 'PASSKEY', credentialId: credential.id },
      clientPublicKey,
      createdAt: now,
      expiresAt,
    },
    now,
  });
  return { ...toAuthMethod(wallet, credential), credentialId: credential.passkey!.credentialId, challenge, requestId, expiresAt };
}
