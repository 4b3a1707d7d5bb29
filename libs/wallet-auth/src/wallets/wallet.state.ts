import type { DelegatedKeyStatus, Mode } from '@payments/contracts';
import { assertNever } from '@payments/eventsourcing';
import type { CredentialRecord, DelegatedKeyRecord, PendingChallenge, SessionRecord, WalletEvent } from './wallet.events';

/** The current OTP of a credential: its hash and expiry; the target key is derived from `issueId`. */
export interface OtpRecord {
  credentialId: string;
  issueId: string;
  codeHash: string;
  expiresAt: string;
}

export interface CredentialState extends CredentialRecord {
  updatedAt: string;
  /** When a session was first opened with it. */
  verifiedAt: string | null;
}

/** A delegated key and where it stands; a REVOKED key keeps no sealed private key (it never signs again). */
export interface DelegatedKeyState extends Omit<DelegatedKeyRecord, 'sealedPrivateKey'> {
  status: DelegatedKeyStatus;
  sealedPrivateKey?: string;
  updatedAt: string;
}

export interface ActiveWallet {
  status: 'ACTIVE';
  accountId: string;
  customerId: string;
  platformId: string;
  mode: Mode;
  organizationId: string;
  sealedMnemonic: string;
  credentials: CredentialState[];
  /** Unexpired, unrevoked sessions only: anything else is forgotten (and so answers 404 and signs nothing). */
  sessions: SessionRecord[];
  /** Unexpired, unanswered challenges only. */
  challenges: PendingChallenge[];
  otps: OtpRecord[];
  /** Recent OTP issues and failures per credential, for the rate limits (kept for their window only). */
  otpIssues: { credentialId: string; at: string }[];
  otpFailures: { credentialId: string; at: string }[];
  /** Digests of the keys the mnemonic was exported to: each key is used once. */
  exportKeyDigests: string[];
  /** Delegated keys of the card funding sources this wallet funds, every status (a few per card). */
  delegatedKeys: DelegatedKeyState[];
  createdAt: string;
  updatedAt: string;
}

export type WalletState = { status: 'NONE' } | ActiveWallet;

/** How long OTP issues and failures count against the limits (wallet.rules.ts). */
export const OTP_RATE_WINDOW_MS = 15 * 60_000;
/** Unanswered challenges kept per wallet. */
export const PENDING_CHALLENGES_MAX = 32;

const later = (iso: string, than: string) => Date.parse(iso) > Date.parse(than);
const within = (iso: string, now: string, ms: number) => Date.parse(now) - Date.parse(iso) < ms;

/** Forgets what the clock has made meaningless, so the state stays as small as what is live. */
function pruned(wallet: ActiveWallet, now: string): ActiveWallet {
  return {
    ...wallet,
    sessions: wallet.sessions.filter((s) => later(s.expiresAt, now)),
    challenges: wallet.challenges.filter((c) => later(c.expiresAt, now)),
    otps: wallet.otps.filter((o) => later(o.expiresAt, now)),
    otpIssues: wallet.otpIssues.filter((i) => within(i.at, now, OTP_RATE_WINDOW_MS)),
    otpFailures: wallet.otpFailures.filter((f) => within(f.at, now, OTP_RATE_WINDOW_MS)),
    updatedAt: now,
  };
}

export function evolveWallet(state: WalletState, event: WalletEvent): WalletState {
  if (event.type === 'WalletProvisioned.v1') {
    const { accountId, customerId, platformId, mode, organizationId, sealedMnemonic, at } = event.data;
    return {
      status: 'ACTIVE', accountId, customerId, platformId, mode, organizationId, sealedMnemonic,
      credentials: [], sessions: [], challenges: [], otps: [], otpIssues: [], otpFailures: [], exportKeyDigests: [], delegatedKeys: [], createdAt: at, updatedAt: at,
    };
  }
  if (state.status !== 'ACTIVE') return state;
  const wallet = pruned(state, event.data.at);
  switch (event.type) {
    case 'WalletCredentialAdded.v1':
      return { ...wallet, credentials: [...wallet.credentials, { ...event.data.credential, updatedAt: event.data.at, verifiedAt: null }] };
    case 'WalletCredentialRevoked.v1': {
      const { credentialId } = event.data;
      return {
        ...wallet,
        credentials: wallet.credentials.filter((c) => c.id !== credentialId),
        sessions: wallet.sessions.filter((s) => s.credentialId !== credentialId),
        otps: wallet.otps.filter((o) => o.credentialId !== credentialId),
      };
    }
    case 'WalletCredentialContactChanged.v1': {
      const { credentialId, contact, at } = event.data;
      const credentials = wallet.credentials.map((c) => (c.id === credentialId ? { ...c, contact, nickname: contact, updatedAt: at } : c));
      // An OTP sent to the old address stops working.
      return { ...wallet, credentials, otps: wallet.otps.filter((o) => o.credentialId !== credentialId) };
    }
    case 'WalletOtpIssued.v1': {
      const { credentialId, issueId, codeHash, expiresAt, at } = event.data;
      // A new OTP replaces the one before it: only the latest code works.
      const otps = [...wallet.otps.filter((o) => o.credentialId !== credentialId), { credentialId, issueId, codeHash, expiresAt }];
      const credentials = wallet.credentials.map((c) => (c.id === credentialId ? { ...c, updatedAt: at } : c));
      return { ...wallet, credentials, otps, otpIssues: [...wallet.otpIssues, { credentialId, at }] };
    }
    case 'WalletOtpAttemptFailed.v1':
      return { ...wallet, otpFailures: [...wallet.otpFailures, { credentialId: event.data.credentialId, at: event.data.at }] };
    case 'WalletOtpConsumed.v1':
      return { ...wallet, otps: wallet.otps.filter((o) => o.issueId !== event.data.issueId) };
    case 'WalletChallengeIssued.v1':
      // Bounded: a client that keeps starting requests without finishing them pushes out its oldest challenge.
      return { ...wallet, challenges: [...wallet.challenges, event.data.challenge].slice(-PENDING_CHALLENGES_MAX) };
    case 'WalletChallengeAnswered.v1':
      return { ...wallet, challenges: wallet.challenges.filter((c) => c.requestId !== event.data.requestId) };
    case 'WalletSessionOpened.v1': {
      const { session, at } = event.data;
      const credentials = wallet.credentials.map((c) => (c.id === session.credentialId && !c.verifiedAt ? { ...c, verifiedAt: at, updatedAt: at } : c));
      return { ...wallet, credentials, sessions: [...wallet.sessions, session] };
    }
    case 'WalletSessionRevoked.v1':
      return { ...wallet, sessions: wallet.sessions.filter((s) => s.id !== event.data.sessionId) };
    case 'WalletPasskeyUsed.v1': {
      const { credentialId, counter, at } = event.data;
      const credentials = wallet.credentials.map((c) => (c.id === credentialId && c.passkey ? { ...c, passkey: { ...c.passkey, counter }, updatedAt: at } : c));
      return { ...wallet, credentials };
    }
    case 'WalletExported.v1':
      return { ...wallet, exportKeyDigests: [...wallet.exportKeyDigests, event.data.keyDigest] };
    case 'WalletDelegatedKeyCreated.v1':
      return { ...wallet, delegatedKeys: [...wallet.delegatedKeys, { ...event.data.key, status: 'PENDING', updatedAt: event.data.at }] };
    case 'WalletDelegatedKeyActivated.v1': {
      const { delegatedKeyId, at } = event.data;
      return { ...wallet, delegatedKeys: wallet.delegatedKeys.map((k) => (k.id === delegatedKeyId ? { ...k, status: 'ACTIVE', updatedAt: at } : k)) };
    }
    case 'WalletDelegatedKeyRevoked.v1': {
      const { delegatedKeyId, at } = event.data;
      const revoke = (k: DelegatedKeyState): DelegatedKeyState => {
        const { sealedPrivateKey: _forgotten, ...rest } = k;
        return { ...rest, status: 'REVOKED', updatedAt: at };
      };
      return { ...wallet, delegatedKeys: wallet.delegatedKeys.map((k) => (k.id === delegatedKeyId ? revoke(k) : k)) };
    }
    default:
      return assertNever(event);
  }
}
