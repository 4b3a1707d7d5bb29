import type { AuthMethod, AuthSession, DelegatedKey } from '@payments/contracts';
import type { SessionRecord } from './wallet.events';
import type { ActiveWallet, CredentialState, DelegatedKeyState } from './wallet.state';

export function toAuthMethod(wallet: ActiveWallet, credential: CredentialState): AuthMethod {
  return {
    id: credential.id,
    accountId: wallet.accountId,
    type: credential.type,
    ...(credential.passkey ? { credentialId: credential.passkey.credentialId } : {}),
    nickname: credential.nickname,
    createdAt: credential.createdAt,
    updatedAt: credential.updatedAt,
  };
}

/** A session as the API shows it: the fields of the credential that opened it, its own id and expiry; never a key. */
export function toAuthSession(wallet: ActiveWallet, session: SessionRecord): AuthSession {
  const credential = wallet.credentials.find((c) => c.id === session.credentialId);
  return {
    id: session.id,
    accountId: wallet.accountId,
    type: session.type,
    ...(credential?.passkey ? { credentialId: credential.passkey.credentialId } : {}),
    nickname: credential?.nickname ?? session.type,
    createdAt: session.createdAt,
    updatedAt: session.createdAt,
    expiresAt: session.expiresAt,
  };
}

/** Unexpired sessions, oldest first. */
export function liveSessions(wallet: ActiveWallet, now: string): SessionRecord[] {
  return wallet.sessions.filter((s) => Date.parse(s.expiresAt) > Date.parse(now));
}

/** A delegated key as the API shows it: never its private key. */
export function toDelegatedKey(wallet: ActiveWallet, key: DelegatedKeyState): DelegatedKey {
  return {
    id: key.id,
    cardId: key.cardId,
    fundingSourceId: key.fundingSourceId,
    accountId: wallet.accountId,
    publicKey: key.publicKey,
    nickname: key.nickname,
    status: key.status,
    createdAt: key.createdAt,
    updatedAt: key.updatedAt,
  };
}
