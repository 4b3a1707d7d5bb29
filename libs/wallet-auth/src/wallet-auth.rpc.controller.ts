import { Controller, Inject } from '@nestjs/common';
import {
  AuthorizeSignedRequestBody,
  AuthCredentialChallenge,
  AuthCredentialList,
  AuthMethodResponse,
  AuthSession,
  AuthSignedRequestChallenge,
  ChallengeAuthCredentialRequest,
  ChangeCustomerContactBody,
  CustomerContactChanged,
  RestoreCustomerContactBody,
  CreateAuthCredentialRequest,
  CreateDelegatedKeyRequest,
  CredentialIdBody,
  DelegatedKey,
  DelegatedKeyIdBody,
  DelegatedKeyList,
  DelegatedSignature,
  DelegatedSignatureRequest,
  ExportInternalAccountRequest,
  InternalAccountExportResponse,
  ListDelegatedKeysQuery,
  RefreshAuthSessionRequest,
  RpcRequest,
  SessionIdBody,
  SessionList,
  SignedBody,
  SignedOutcome,
  SignedRequestChallenge,
  VerifyAuthCredentialRequest,
  VerifyPayloadSignatureBody,
  WalletAccountIdBody,
  WalletAccountQuery,
  WalletAuthRpc,
  WalletSigner,
} from '@payments/contracts';
import { Handles } from '@payments/runtime';
import type { WalletAuth } from './wallet-auth';
import { WALLET_AUTH } from './wallet-auth.tokens';

const now = () => new Date().toISOString();

/** Thin RPC adapter of the wallet-auth service. */
@Controller()
export class WalletAuthRpcController {
  constructor(@Inject(WALLET_AUTH) private readonly auth: WalletAuth) {}

  @Handles(WalletAuthRpc.createCredential)
  createCredential(r: RpcRequest<SignedBody<CreateAuthCredentialRequest>>): Promise<SignedOutcome<AuthMethodResponse, AuthSignedRequestChallenge>> {
    return this.auth.credentials.create(r.caller, r.body, now());
  }

  @Handles(WalletAuthRpc.listCredentials)
  listCredentials(r: RpcRequest<WalletAccountQuery>): Promise<AuthCredentialList> {
    return this.auth.credentials.list(r.caller, r.body.accountId, now());
  }

  @Handles(WalletAuthRpc.revokeCredential)
  revokeCredential(r: RpcRequest<SignedBody<CredentialIdBody>>): Promise<SignedOutcome<null, AuthSignedRequestChallenge>> {
    return this.auth.credentials.revoke(r.caller, r.body.credentialId, r.body.signature, now());
  }

  @Handles(WalletAuthRpc.challengeCredential)
  challengeCredential(r: RpcRequest<CredentialIdBody & ChallengeAuthCredentialRequest>): Promise<AuthCredentialChallenge> {
    return this.auth.credentials.challenge(r.caller, r.body.credentialId, r.body, now());
  }

  @Handles(WalletAuthRpc.verifyCredential)
  verifyCredential(r: RpcRequest<SignedBody<CredentialIdBody & VerifyAuthCredentialRequest>>): Promise<SignedOutcome<AuthSession, AuthSignedRequestChallenge>> {
    return this.auth.verification.verify(r.caller, r.body, now());
  }

  @Handles(WalletAuthRpc.listSessions)
  listSessions(r: RpcRequest<WalletAccountQuery>): Promise<SessionList> {
    return this.auth.sessions.list(r.caller, r.body.accountId, now());
  }

  @Handles(WalletAuthRpc.revokeSession)
  revokeSession(r: RpcRequest<SignedBody<SessionIdBody>>): Promise<SignedOutcome<null, AuthSignedRequestChallenge>> {
    return this.auth.sessions.revoke(r.caller, r.body.sessionId, r.body.signature, now());
  }

  @Handles(WalletAuthRpc.refreshSession)
  refreshSession(r: RpcRequest<SignedBody<SessionIdBody & RefreshAuthSessionRequest>>): Promise<SignedOutcome<AuthSession, SignedRequestChallenge>> {
    const { sessionId, ...rest } = r.body;
    return this.auth.sessions.refresh(r.caller, sessionId, rest, now());
  }

  @Handles(WalletAuthRpc.exportWallet)
  exportWallet(r: RpcRequest<SignedBody<WalletAccountIdBody & ExportInternalAccountRequest>>): Promise<SignedOutcome<InternalAccountExportResponse, SignedRequestChallenge>> {
    const { accountId, ...rest } = r.body;
    return this.auth.sessions.export(r.caller, accountId, rest, now());
  }

  @Handles(WalletAuthRpc.authorizeSignedRequest)
  authorizeSignedRequest(r: RpcRequest<AuthorizeSignedRequestBody>): Promise<SignedOutcome<WalletSigner, SignedRequestChallenge>> {
    return this.auth.signedRequests.authorize(r.caller, r.body, now());
  }

  @Handles(WalletAuthRpc.verifyPayloadSignature)
  verifyPayloadSignature(r: RpcRequest<VerifyPayloadSignatureBody>): Promise<WalletSigner> {
    return this.auth.signedRequests.verifyPayload(r.caller, r.body, now());
  }

  @Handles(WalletAuthRpc.changeCustomerContact)
  changeCustomerContact(r: RpcRequest<ChangeCustomerContactBody>): Promise<SignedOutcome<CustomerContactChanged, SignedRequestChallenge>> {
    return this.auth.customerContacts.change(r.caller, r.body, now());
  }

  @Handles(WalletAuthRpc.restoreCustomerContact)
  restoreCustomerContact(r: RpcRequest<RestoreCustomerContactBody>): Promise<CustomerContactChanged> {
    return this.auth.customerContacts.restore(r.caller, r.body, now());
  }

  @Handles(WalletAuthRpc.createDelegatedKey)
  createDelegatedKey(r: RpcRequest<SignedBody<CreateDelegatedKeyRequest>>): Promise<SignedOutcome<DelegatedKey, SignedRequestChallenge>> {
    return this.auth.delegatedKeys.create(r.caller, r.body, now());
  }

  @Handles(WalletAuthRpc.listDelegatedKeys)
  listDelegatedKeys(r: RpcRequest<ListDelegatedKeysQuery>): Promise<DelegatedKeyList> {
    return this.auth.delegatedKeys.list(r.caller, r.body);
  }

  @Handles(WalletAuthRpc.getDelegatedKey)
  getDelegatedKey(r: RpcRequest<DelegatedKeyIdBody>): Promise<DelegatedKey> {
    return this.auth.delegatedKeys.get(r.caller, r.body.delegatedKeyId);
  }

  @Handles(WalletAuthRpc.revokeDelegatedKey)
  revokeDelegatedKey(r: RpcRequest<DelegatedKeyIdBody>): Promise<null> {
    return this.auth.delegatedKeys.revoke(r.caller, r.body.delegatedKeyId, now());
  }

  @Handles(WalletAuthRpc.signWithDelegatedKey)
  signWithDelegatedKey(r: RpcRequest<DelegatedSignatureRequest>): Promise<DelegatedSignature> {
    return this.auth.delegatedKeys.sign(r.caller, r.body);
  }

  @Handles(WalletAuthRpc.ping)
  async ping(): Promise<'pong'> {
    await this.auth.host.dataSource.query('SELECT 1');
    return 'pong';
  }
}
