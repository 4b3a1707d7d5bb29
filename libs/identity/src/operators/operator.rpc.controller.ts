import { Controller, Inject } from '@nestjs/common';
import { AuditEvent, EmptyBody, ListAuditEventsQuery, ListOperatorPlatformsQuery, OperatorPlatformView, OperatorPrincipal, OperatorRpc, OperatorView, Page, RpcRequest, VerifyOperatorCredentialRequest } from '@payments/contracts';
import { Handles } from '@payments/runtime';
import { Identity } from '../identity';
import { IDENTITY } from '../identity.tokens';

/** Thin RPC adapter of the operator API's identity part: the operator, the platforms, the audit log. */
@Controller()
export class OperatorRpcController {
  constructor(@Inject(IDENTITY) private readonly identity: Identity) {}

  @Handles(OperatorRpc.verifyCredential)
  verifyCredential(request: VerifyOperatorCredentialRequest): Promise<OperatorPrincipal> {
    return this.identity.operators.verify(request);
  }

  @Handles(OperatorRpc.me)
  me(request: RpcRequest<EmptyBody>): Promise<OperatorView> {
    return this.identity.operators.me(request.caller);
  }

  @Handles(OperatorRpc.listPlatforms)
  listPlatforms(request: RpcRequest<ListOperatorPlatformsQuery>): Promise<Page<OperatorPlatformView>> {
    return this.identity.operators.listPlatforms(request.body);
  }

  @Handles(OperatorRpc.listAuditEvents)
  listAuditEvents(request: RpcRequest<ListAuditEventsQuery>): Promise<Page<AuditEvent>> {
    return this.identity.auditLog.list(request.body);
  }
}
