import type {
  AuthorizeSignedRequestBody,
  AuthCredentialList,
  AuthMethodResponse,
  AuthSession,
  AuthSignedRequestChallenge,
  ChangeCustomerContactBody,
  CustomerContactChanged,
  RestoreCustomerContactBody,
  ChallengeAuthCredentialRequest,
  CreateAuthCredentialRequest,
  ExportInternalAccountRequest,
  InternalAccountExportResponse,
  PasskeyAuthChallenge,
  RefreshAuthSessionRequest,
  SessionList,
  SignedBody,
  SignedOutcome,
  SignedRequestChallenge,
  VerifyAuthCredentialRequest,
  VerifyPayloadSignatureBody,
  WalletAccountQuery,
  WalletSigner,
  CreateDelegatedKeyRequest,
  DelegatedKey,
  DelegatedKeyList,
  DelegatedSignature,
  DelegatedSignatureRequest,
  ListDelegatedKeysQuery,
} from '../wallet-auth';
import { pingRpc } from './rpc';
import { rpc } from './rpc-contract';

/** RPC contracts of the wallet-auth service (Embedded Wallet credentials, sessions, signed retries, export). */
export const WalletAuthRpc = {
  createCredential: rpc<SignedBody<CreateAuthCredentialRequest>, SignedOutcome<AuthMethodResponse, AuthSignedRequestChallenge>>('wallet-auth.credentials.create'),
  listCredentials: rpc<WalletAccountQuery, AuthCredentialList>('wallet-auth.credentials.list'),
  revokeCredential: rpc<SignedBody<CredentialIdBody>, SignedOutcome<null, AuthSignedRequestChallenge>>('wallet-auth.credentials.revoke'),
  challengeCredential: rpc<CredentialIdBody & ChallengeAuthCredentialRequest, AuthMethodResponse | PasskeyAuthChallenge>('wallet-auth.credentials.challenge'),
  verifyCredential: rpc<SignedBody<CredentialIdBody & VerifyAuthCredentialRequest>, SignedOutcome<AuthSession, AuthSignedRequestChallenge>>('wallet-auth.credentials.verify'),
  listSessions: rpc<WalletAccountQuery, SessionList>('wallet-auth.sessions.list'),
  revokeSession: rpc<SignedBody<SessionIdBody>, SignedOutcome<null, AuthSignedRequestChallenge>>('wallet-auth.sessions.revoke'),
  refreshSession: rpc<SignedBody<SessionIdBody & RefreshAuthSessionRequest>, SignedOutcome<AuthSession, SignedRequestChallenge>>('wallet-auth.sessions.refresh'),
  exportWallet: rpc<SignedBody<WalletAccountIdBody & ExportInternalAccountRequest>, SignedOutcome<InternalAccountExportResponse, SignedRequestChallenge>>('wallet-auth.wallets.export'),
  /** For other services: the signed retry of their requests on an Embedded Wallet (PATCH /internal-accounts, PATCH /customers). */
  authorizeSignedRequest: rpc<AuthorizeSignedRequestBody, SignedOutcome<WalletSigner, SignedRequestChallenge>>('wallet-auth.signed-requests.authorize'),
  /** For quoting: a stamp over a payload it issued (an EMBEDDED_WALLET quote's payloadToSign), by a live session. */
  verifyPayloadSignature: rpc<VerifyPayloadSignatureBody, WalletSigner>('wallet-auth.signatures.verify'),
  /** For identity: a customer's email or phone change, signed when a wallet credential is tied to it. */
  changeCustomerContact: rpc<ChangeCustomerContactBody, SignedOutcome<CustomerContactChanged, SignedRequestChallenge>>('wallet-auth.customer-contact.change'),
  /** For identity: undo a contact change wallet-auth made when identity could not record its own. */
  restoreCustomerContact: rpc<RestoreCustomerContactBody, CustomerContactChanged>('wallet-auth.customer-contact.restore'),
  /** POST /auth/delegated-keys: three legs (202, 202, 201) signed by a session of the funding wallet. */
  createDelegatedKey: rpc<SignedBody<CreateDelegatedKeyRequest>, SignedOutcome<DelegatedKey, SignedRequestChallenge>>('wallet-auth.delegated-keys.create'),
  listDelegatedKeys: rpc<ListDelegatedKeysQuery, DelegatedKeyList>('wallet-auth.delegated-keys.list'),
  getDelegatedKey: rpc<DelegatedKeyIdBody, DelegatedKey>('wallet-auth.delegated-keys.get'),
  revokeDelegatedKey: rpc<DelegatedKeyIdBody, null>('wallet-auth.delegated-keys.revoke'),
  /** For cards: the funding source's ACTIVE delegated key signs a card pull (404 DELEGATED_KEY_NOT_FOUND when none is ACTIVE). */
  signWithDelegatedKey: rpc<DelegatedSignatureRequest, DelegatedSignature>('wallet-auth.delegated-keys.sign'),
  ping: pingRpc('wallet-auth.ping'),
} as const;

export interface CredentialIdBody {
  credentialId: string;
}

export interface SessionIdBody {
  sessionId: string;
}

export interface WalletAccountIdBody {
  accountId: string;
}

export interface DelegatedKeyIdBody {
  delegatedKeyId: string;
}
