import { WalletAuthRpc } from '../rpc/wallet-auth.rpc';
import {
  ChallengeAuthCredentialRequest,
  CreateAuthCredentialRequest,
  ExportInternalAccountRequest,
  RefreshAuthSessionRequest,
  VerifyAuthCredentialRequest,
  WalletAccountQuery,
} from '../wallet-auth/auth.dto';
import { CreateDelegatedKeyRequest, ListDelegatedKeysQuery } from '../wallet-auth/delegated-keys';
import { operation } from './http-operation';

const TAG = 'Embedded Wallet Auth';
const AUTH_CHALLENGE = { challenge: 'AuthSignedRequestChallenge' } as const;
const CHALLENGE = { challenge: 'SignedRequestChallenge' } as const;

const SIGNED =
  ' Signed retry: the first call answers 202 with `payloadToSign`, `requestId` and `expiresAt` (5 minutes); repeat the ' +
  'same request with the API-key stamp over `payloadToSign` in `Service-Wallet-Signature` and the `requestId` in ' +
  '`Request-Id`. 401 WALLET_SIGNATURE_MISSING, REQUEST_ID_MISSING (one header without the other), ' +
  'WALLET_SIGNATURE_MALFORMED (not a stamp), WALLET_SIGNATURE_BODY_MISMATCH (another body than the first call) and ' +
  'WALLET_SIGNATURE_INVALID (a bad signature, or a key that may not sign this); 401 UNAUTHORIZED for an unknown, used ' +
  'or expired requestId. A challenge answers once.';
const CREATE =
  'Adds a credential to an Embedded Wallet internal account: SMS_OTP (the customer\'s phone), OAUTH (`oidcToken`: ' +
  'issuer, audience and subject become the credential), PASSKEY (`nickname`, `challenge`, WebAuthn `attestation`), or ' +
  'EMAIL_OTP again after it was removed. At most one EMAIL_OTP and one SMS_OTP per account (400 ' +
  'EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS / SMS_OTP_CREDENTIAL_ALREADY_EXISTS); a passkey registered twice is 400 ' +
  'PASSKEY_CREDENTIAL_ALREADY_EXISTS. Signed by a session of another verified credential of the account; the signed ' +
  'retry answers 201 and, for an OTP credential, sends the OTP (`otpEncryptionTargetBundle`).' + SIGNED;
const VERIFY =
  'Authenticates a credential and opens a 15-minute session. EMAIL_OTP / SMS_OTP: `encryptedOtpBundle` (the OTP and ' +
  'the client key, HPKE-sealed to `otpEncryptionTargetBundle`) answers 202 with a verification token to sign with that ' +
  'client key; the signed retry answers 200 with the session (sandbox OTP: 000000). OAUTH: a fresh `oidcToken` (iat ' +
  'under 60 s, nonce = hex SHA-256 of `clientPublicKey`) and `clientPublicKey`, in one call. PASSKEY: the WebAuthn ' +
  '`assertion` of the challenge, with its `Request-Id`. A compressed `clientPublicKey` keeps the signing key on the ' +
  'client; an uncompressed one (deprecated) gets `encryptedSessionSigningKey`. A wrong OTP or token is 401 ' +
  'UNAUTHORIZED naming the failed check; repeated failures are 429 RATE_LIMITED with Retry-After.';

/** Embedded Wallet Auth (wallet-auth service) and the export of an Embedded Wallet's credentials. */
export const WALLET_AUTH_OPERATIONS = [
  operation({
    operationId: 'createAuthCredential',
    method: 'POST',
    path: '/auth/credentials',
    tag: TAG,
    summary: 'Create an authentication credential',
    description: CREATE,
    permission: 'TRANSACT',
    service: 'walletAuth',
    rpc: WalletAuthRpc.createCredential,
    body: CreateAuthCredentialRequest,
    status: 201,
    response: 'AuthMethodResponse',
    signedRetry: AUTH_CHALLENGE,
    errors: [404, 501],
    request: ({ body, signature }) => ({ ...body, signature }),
  }),
  operation({
    operationId: 'listAuthCredentials',
    method: 'GET',
    path: '/auth/credentials',
    tag: TAG,
    summary: 'List authentication credentials',
    description: 'The credentials of an Embedded Wallet internal account (not paginated); empty for an account that is not one of the caller\'s wallets.',
    permission: 'VIEW',
    service: 'walletAuth',
    rpc: WalletAuthRpc.listCredentials,
    query: WalletAccountQuery,
    status: 200,
    response: 'AuthCredentialList',
    request: ({ query }) => query,
  }),
  operation({
    operationId: 'revokeAuthCredential',
    method: 'DELETE',
    path: '/auth/credentials/{id}',
    tag: TAG,
    summary: 'Revoke an authentication credential',
    description:
      'Removes a credential and ends its sessions. Signed by a session of another credential of the account; the last ' +
      'credential cannot be revoked (400 INVALID_INPUT).' + SIGNED,
    permission: 'TRANSACT',
    service: 'walletAuth',
    rpc: WalletAuthRpc.revokeCredential,
    status: 204,
    signedRetry: AUTH_CHALLENGE,
    request: ({ params, signature }) => ({ credentialId: params.id, signature }),
  }),
  operation({
    operationId: 'challengeAuthCredential',
    method: 'POST',
    path: '/auth/credentials/{id}/challenge',
    tag: TAG,
    summary: 'Re-issue an authentication credential challenge',
    description:
      'EMAIL_OTP / SMS_OTP: sends a new OTP and answers the credential with a fresh `otpEncryptionTargetBundle` (earlier ' +
      'OTPs stop working). PASSKEY: `clientPublicKey` is required; answers the WebAuthn `challenge` (hex SHA-256 of the ' +
      'session-creation request, used UTF-8 encoded), its `requestId` and `expiresAt`. OAUTH has no challenge (400). ' +
      'Too many challenges are 429 RATE_LIMITED with Retry-After.',
    permission: 'TRANSACT',
    service: 'walletAuth',
    rpc: WalletAuthRpc.challengeCredential,
    body: ChallengeAuthCredentialRequest,
    bodyOptional: true,
    status: 200,
    response: 'AuthCredentialChallenge',
    errors: [501],
    request: ({ params, body }) => ({ ...(body ?? {}), credentialId: params.id }),
  }),
  operation({
    operationId: 'verifyAuthCredential', shownOnce: ['encryptedSessionSigningKey'],
    method: 'POST',
    path: '/auth/credentials/{id}/verify',
    tag: TAG,
    summary: 'Verify an authentication credential',
    description: VERIFY,
    permission: 'TRANSACT',
    service: 'walletAuth',
    rpc: WalletAuthRpc.verifyCredential,
    body: VerifyAuthCredentialRequest,
    status: 200,
    response: 'AuthSession',
    signedRetry: AUTH_CHALLENGE,
    request: ({ params, body, signature }) => ({ ...body, credentialId: params.id, signature }),
  }),
  operation({
    operationId: 'listAuthSessions',
    method: 'GET',
    path: '/auth/sessions',
    tag: TAG,
    summary: 'List active authentication sessions',
    description: 'The active sessions of an Embedded Wallet internal account (not paginated; never their keys); empty for an account that is not one of the caller\'s wallets.',
    permission: 'VIEW',
    service: 'walletAuth',
    rpc: WalletAuthRpc.listSessions,
    query: WalletAccountQuery,
    status: 200,
    response: 'SessionList',
    request: ({ query }) => query,
  }),
  operation({
    operationId: 'revokeAuthSession',
    method: 'DELETE',
    path: '/auth/sessions/{id}',
    tag: TAG,
    summary: 'Revoke an authentication session',
    description: 'Ends a session before its expiresAt. Signed by any active session of the account, this one included; an unknown, revoked or expired session is 404.' + SIGNED,
    permission: 'TRANSACT',
    service: 'walletAuth',
    rpc: WalletAuthRpc.revokeSession,
    status: 204,
    signedRetry: AUTH_CHALLENGE,
    request: ({ params, signature }) => ({ sessionId: params.id, signature }),
  }),
  operation({
    operationId: 'refreshAuthSession', shownOnce: ['encryptedSessionSigningKey'],
    method: 'POST',
    path: '/auth/sessions/{id}/refresh',
    tag: TAG,
    summary: 'Refresh an authentication session',
    description:
      'Opens a new 15-minute session for `clientPublicKey` (the same key on both legs), signed by the current session, ' +
      'which must still be active (404 otherwise). The old session stays valid until its own expiresAt.' + SIGNED,
    permission: 'TRANSACT',
    service: 'walletAuth',
    rpc: WalletAuthRpc.refreshSession,
    body: RefreshAuthSessionRequest,
    status: 201,
    response: 'AuthSession',
    signedRetry: CHALLENGE,
    request: ({ params, body, signature }) => ({ ...body, sessionId: params.id, signature }),
  }),
  operation({
    operationId: 'exportInternalAccount', shownOnce: ['encryptedWalletCredentials'],
    method: 'POST',
    path: '/internal-accounts/{id}/export',
    tag: 'Internal Accounts',
    summary: 'Export internal account wallet credentials',
    description:
      "Exports an Embedded Wallet's BIP-39 mnemonic, HPKE-sealed to `clientPublicKey` (a fresh uncompressed P-256 key, " +
      'used once: a key used before is 400), as `encryptedWalletCredentials`. Signed by a verified session of the ' +
      'account; the retry must carry the same key.' + SIGNED,
    permission: 'TRANSACT',
    service: 'walletAuth',
    rpc: WalletAuthRpc.exportWallet,
    body: ExportInternalAccountRequest,
    status: 200,
    response: 'InternalAccountExportResponse',
    signedRetry: CHALLENGE,
    request: ({ params, body, signature }) => ({ ...body, accountId: params.id, signature }),
  }),
  operation({
    operationId: 'createDelegatedKey',
    method: 'POST',
    path: '/auth/delegated-keys',
    tag: TAG,
    summary: 'Create a delegated signing key',
    description:
      'Gives a card funding source backed by an Embedded Wallet a server-custodied P-256 key that signs its card pulls. ' +
      'Three legs with the same body: the first answers 202; the signed retry (a verified session of that wallet) ' +
      'creates the key PENDING and answers a second 202; signing that one answers 201 with the key ACTIVE. A key left ' +
      'after the second leg stays PENDING and cannot sign. One ACTIVE key per funding source (409 ' +
      'DELEGATED_KEY_EXISTS); a card without that account among its funding sources, or an account that is not an ' +
      'Embedded Wallet, is 404.' + SIGNED,
    permission: 'TRANSACT',
    service: 'walletAuth',
    rpc: WalletAuthRpc.createDelegatedKey,
    body: CreateDelegatedKeyRequest,
    status: 201,
    response: 'DelegatedKey',
    signedRetry: CHALLENGE,
    errors: [404],
    request: ({ body, signature }) => ({ ...body, signature }),
  }),
  operation({
    operationId: 'listDelegatedKeys',
    method: 'GET',
    path: '/auth/delegated-keys',
    tag: TAG,
    summary: 'List delegated signing keys',
    description: 'The keys of an Embedded Wallet account and/or a card funding source (at least one filter), PENDING and REVOKED included; not paginated.',
    permission: 'VIEW',
    service: 'walletAuth',
    rpc: WalletAuthRpc.listDelegatedKeys,
    query: ListDelegatedKeysQuery,
    status: 200,
    response: 'DelegatedKeyList',
    request: ({ query }) => query,
  }),
  operation({
    operationId: 'getDelegatedKeyById',
    method: 'GET',
    path: '/auth/delegated-keys/{id}',
    tag: TAG,
    summary: 'Get a delegated signing key',
    permission: 'VIEW',
    service: 'walletAuth',
    rpc: WalletAuthRpc.getDelegatedKey,
    status: 200,
    response: 'DelegatedKey',
    request: ({ params }) => ({ delegatedKeyId: params.id }),
  }),
  operation({
    operationId: 'revokeDelegatedKey',
    method: 'DELETE',
    path: '/auth/delegated-keys/{id}',
    tag: TAG,
    summary: 'Revoke a delegated signing key',
    description: 'An ACTIVE key stops signing at once (204); a PENDING or REVOKED one is 400 DELEGATED_KEY_NOT_ACTIVE.',
    permission: 'TRANSACT',
    service: 'walletAuth',
    rpc: WalletAuthRpc.revokeDelegatedKey,
    status: 204,
    request: ({ params }) => ({ delegatedKeyId: params.id }),
  }),
];
