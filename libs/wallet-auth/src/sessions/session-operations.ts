import { ApiError, AuthSession, AuthSignedRequestChallenge, CallerContext, InternalAccountExportResponse, RefreshAuthSessionRequest, SessionList, SignedOutcome, SignedRequestChallenge, WalletSignatureHeaders } from '@payments/contracts';
import { exportBundle, parseP256PublicKey } from '@payments/wallet-crypto';
import { createHash } from 'node:crypto';
import { notFoundAsNone } from '../credentials/credential-operations';
import { checkSignedRetry } from '../signed-retry/signed-retry';
import type { WalletContext } from '../wallets/wallet-context';
import type { ActiveWallet } from '../wallets/wallet.state';
import { liveSessions, toAuthSession } from '../wallets/wallet.views';

const notFound = () => new ApiError('REFERENCE_NOT_FOUND', 'session not found (unknown, revoked or expired)');

/** Sessions of an Embedded Wallet (list, revoke, refresh) and the export of its mnemonic: all signed by a session. */
export class SessionOperations {
  constructor(private readonly ctx: WalletContext) {}

  async list(caller: CallerContext, accountId: string, now: string): Promise<SessionList> {
    const wallet = await this.ctx.store.ofAccount(caller, accountId, now).catch(notFoundAsNone);
    return { data: wallet ? liveSessions(wallet, now).map((s) => toAuthSession(wallet, s)) : [] };
  }

  /** Any live session of the account may sign, the one being revoked included. */
  async revoke(caller: CallerContext, sessionId: string, signature: WalletSignatureHeaders, now: string): Promise<SignedOutcome<null, AuthSignedRequestChallenge>> {
    const wallet = await this.ctx.store.ofId(caller, sessionId, 'session');
    const session = liveSessions(wallet, now).find((s) => s.id === sessionId);
    if (!session) throw notFound();
    const body = { sessionId };
    const retry = checkSignedRetry(wallet, signature, { operation: 'REVOKE_SESSION', target: sessionId, body }, now);
    if (retry === 'FIRST_LEG') {
      const spec = { operation: 'REVOKE_SESSION' as const, target: sessionId, body, signer: { kind: 'SESSION' as const }, activity: 'ACTIVITY_TYPE_DELETE_API_KEYS', parameters: { apiKeyIds: [sessionId], userId: wallet.accountId } };
      return { challenge: { ...(await this.ctx.challenge(caller, wallet, spec, now)), type: session.type } };
    }
    await this.ctx.store.change(caller, wallet.accountId, { type: 'RevokeSession', answer: retry.answer, sessionId, now });
    return { result: null };
  }

  /** A new session for `clientPublicKey`, signed by the session being refreshed while it is live. */
  async refresh(caller: CallerContext, sessionId: string, request: RefreshAuthSessionRequest & { signature: WalletSignatureHeaders }, now: string): Promise<SignedOutcome<AuthSession, SignedRequestChallenge>> {
    const { signature, ...rest } = request;
    const wallet = await this.ctx.store.ofId(caller, sessionId, 'session');
    const session = liveSessions(wallet, now).find((s) => s.id === sessionId);
    if (!session) throw notFound();
    const body = { sessionId, ...rest };
    const retry = checkSignedRetry(wallet, signature, { operation: 'REFRESH_SESSION', target: sessionId, body }, now);
    if (retry === 'FIRST_LEG') {
      const parameters = { targetPublicKey: rest.clientPublicKey, expirationSeconds: String(Math.round(this.ctx.config.sessionTtlMs / 1000)), userId: wallet.accountId };
      const spec = { operation: 'REFRESH_SESSION' as const, target: sessionId, body, signer: { kind: 'SESSION' as const, sessionId }, activity: 'ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2', parameters };
      return { challenge: await this.ctx.challenge(caller, wallet, spec, now) };
    }
    const input = { credentialId: session.credentialId, type: session.type, clientPublicKey: rest.clientPublicKey, answer: retry.answer };
    return { result: await this.ctx.openSession(caller, wallet, input, now) };
  }

  /** The mnemonic, HPKE-sealed to a fresh uncompressed key that is then spent; signed by a live session. */
  async export(caller: CallerContext, accountId: string, request: { clientPublicKey: string; signature: WalletSignatureHeaders }, now: string): Promise<SignedOutcome<InternalAccountExportResponse, SignedRequestChallenge>> {
    const { signature, ...rest } = request;
    const wallet = await this.ctx.store.ofAccount(caller, accountId, now);
    const key = parseP256PublicKey(rest.clientPublicKey);
    if (!key) throw new ApiError('INVALID_INPUT', 'clientPublicKey is not a point of P-256', { errors: [{ field: 'clientPublicKey', message: 'not a P-256 public key' }] });
    const keyDigest = createHash('sha256').update(key.uncompressed).digest('hex');
    if (wallet.exportKeyDigests.includes(keyDigest)) {
      throw new ApiError('INVALID_INPUT', 'this key was already used for an export: generate a fresh one', { errors: [{ field: 'clientPublicKey', message: 'used before' }] });
    }
    const body = { accountId, ...rest };
    const retry = checkSignedRetry(wallet, signature, { operation: 'EXPORT', target: accountId, body }, now);
    if (retry === 'FIRST_LEG') {
      const spec = { operation: 'EXPORT' as const, target: accountId, body, signer: { kind: 'SESSION' as const }, activity: 'ACTIVITY_TYPE_EXPORT_WALLET', parameters: { targetPublicKey: key.uncompressed, walletId: wallet.organizationId } };
      return { challenge: await this.ctx.challenge(caller, wallet, spec, now) };
    }
    await this.ctx.store.change(caller, accountId, { type: 'ExportWallet', answer: retry.answer, keyDigest, now });
    // The sandbox has no attested enclave: its bundle carries empty dataSignature and enclaveQuorumPublic.
    const signer = wallet.mode === 'SANDBOX' ? undefined : this.ctx.keys.signer;
    return { result: { id: accountId, encryptedWalletCredentials: await exportBundle(this.exportedMnemonic(wallet), key.uncompressed, wallet.organizationId, signer) } };
  }

  private exportedMnemonic(wallet: ActiveWallet): string {
    return this.ctx.store.mnemonicOf(wallet);
  }
}
