import { createHash } from 'node:crypto';
import { ApiError, canonicalJson, WalletSignatureHeaders } from '@payments/contracts';
import { ParsedStamp, parseStamp, samePublicKey, verifyStamp } from '@payments/wallet-crypto';
import type { Answer } from '../wallets/wallet.decider';
import type { ChallengeSigner, PendingChallenge, SessionRecord, WalletOperation } from '../wallets/wallet.events';
import type { ActiveWallet } from '../wallets/wallet.state';

/** The sandbox's legacy literal: accepted as a signature there, never in production. */
export const SANDBOX_SIGNATURE = 'sandbox-valid-signature';

/** What a request is, as far as its challenge is concerned: the operation, its target and its body. */
export interface SignedRequest {
  operation: WalletOperation;
  target: string | null;
  /** The request body without the signature headers; hashed canonically. */
  body: unknown;
}

/** A verified signed retry: the decider's Answer and the key that signed (a session's, or the challenge's own key). */
export interface VerifiedRetry {
  answer: Answer;
  challenge: PendingChallenge;
  signerPublicKey: string | null;
}

const unauthorized = (code: string, message: string) => new ApiError(code, message, { reason: message });
const after = (iso: string, now: string) => Date.parse(iso) > Date.parse(now);

export const bodySha256 = (body: unknown): string => createHash('sha256').update(canonicalJson(body)).digest('hex');

/**
 * The signed-retry check, one place for every operation that needs it: which leg a request is, and for a retry
 * whether its headers answer a pending challenge of this wallet with this request's body, signed by a key allowed
 * to sign it. Each failure is its own 401 code. The challenge is used up by the decider (WalletChallengeAnswered),
 * in the same append as the effect, so two concurrent retries cannot both succeed.
 */
export function checkSignedRetry(wallet: ActiveWallet, headers: WalletSignatureHeaders, request: SignedRequest, now: string): VerifiedRetry | 'FIRST_LEG' {
  const { walletSignature, requestId } = headers;
  if (walletSignature === undefined && requestId === undefined) return 'FIRST_LEG';
  if (walletSignature === undefined) throw unauthorized('WALLET_SIGNATURE_MISSING', 'the signed retry needs the Service-Wallet-Signature header with the Request-Id');
  if (requestId === undefined) throw unauthorized('REQUEST_ID_MISSING', 'the signed retry needs the Request-Id header with the Service-Wallet-Signature');
  const stamp = readStamp(wallet, walletSignature);
  const challenge = wallet.challenges.find((c) => c.requestId === requestId);
  if (!challenge || !after(challenge.expiresAt, now) || challenge.operation !== request.operation || challenge.target !== request.target) {
    throw unauthorized('UNAUTHORIZED', 'the Request-Id is unknown, already used or expired: start the request again');
  }
  if (challenge.bodySha256 !== bodySha256(request.body)) throw unauthorized('WALLET_SIGNATURE_BODY_MISMATCH', 'the signed retry must repeat the body of the first request');
  const signer = signerOf(stamp, signersOf(wallet, challenge.signer, now), challenge.payloadToSign, signerProblem(challenge.signer));
  return { answer: answerOf(challenge, signer?.session), challenge, signerPublicKey: signer?.publicKey ?? null };
}

/** The stamp of a `Service-Wallet-Signature` header, or null for the sandbox literal (sandbox wallets only); 401 MALFORMED otherwise. */
export function readStamp(wallet: ActiveWallet, header: string): ParsedStamp | null {
  if (wallet.mode === 'SANDBOX' && header === SANDBOX_SIGNATURE) return null;
  const parsed = parseStamp(header);
  if (!parsed.ok) throw unauthorized('WALLET_SIGNATURE_MALFORMED', `Service-Wallet-Signature is not an API-key stamp: ${parsed.reason}`);
  return parsed.stamp;
}

/**
 * Which allowed signer made the stamp over `payload` (for the sandbox literal: the first allowed one, if any); 401
 * WALLET_SIGNATURE_INVALID for a key that may not sign (`problem` says which may) or a signature that does not verify.
 */
export function signerOf<T extends { publicKey: string }>(stamp: ParsedStamp | null, candidates: T[], payload: string, problem: string): T | undefined {
  if (stamp === null) return candidates[0];
  const signer = candidates.find((c) => samePublicKey(c.publicKey, stamp.publicKey));
  if (!signer) throw unauthorized('WALLET_SIGNATURE_INVALID', problem);
  if (!verifyStamp(stamp, payload)) throw unauthorized('WALLET_SIGNATURE_INVALID', 'the signature does not verify over payloadToSign');
  return signer;
}

function answerOf(challenge: PendingChallenge, session: SessionRecord | undefined): Answer {
  return { requestId: challenge.requestId, operation: challenge.operation, target: challenge.target, ...(session ? { signerSessionId: session.id } : {}) };
}

/** The keys that may sign: the live sessions the rule allows, or the one key the challenge names. */
function signersOf(wallet: ActiveWallet, rule: ChallengeSigner, now: string): { publicKey: string; session?: SessionRecord }[] {
  if (rule.kind === 'KEY') return [{ publicKey: rule.publicKey }];
  if (rule.kind === 'PASSKEY') return [];
  return wallet.sessions
    .filter((s) => after(s.expiresAt, now))
    .filter((s) => !rule.notOfCredentialId || s.credentialId !== rule.notOfCredentialId)
    .filter((s) => !rule.sessionId || s.id === rule.sessionId)
    .map((session) => ({ publicKey: session.publicKey, session }));
}

function signerProblem(rule: ChallengeSigner): string {
  if (rule.kind === 'KEY') return 'the stamp is not by the key this login was started with';
  if (rule.kind === 'PASSKEY') return 'this challenge is answered with a passkey assertion, not a stamp';
  if (rule.sessionId) return 'the stamp must be by the session being refreshed, while it is active';
  if (rule.notOfCredentialId) return 'the stamp must be by an active session of another credential of this account';
  return 'the stamp is not by an active session of this account';
}

/**
 * payloadToSign of a signed retry: an activity-shaped JSON string (type, timestampMs, organizationId, parameters),
 * plus what binds it to this one request (its requestId and body digest). Clients sign it as opaque bytes.
 */
export function activityPayload(input: { activity: string; organizationId: string; parameters: Record<string, unknown>; requestId: string; bodySha256: string; now: string }): string {
  return JSON.stringify({
    type: input.activity,
    timestampMs: String(Date.parse(input.now)),
    organizationId: input.organizationId,
    parameters: input.parameters,
    request: { requestId: input.requestId, bodySha256: input.bodySha256 },
  });
}
