import type { Page } from '../pagination';
import { rawRpc, operatorRpc } from '../rpc/rpc-contract';
import type { EmptyBody } from '../rpc/rpc';
import type { AuditEvent } from './audit';
import type { OperatorPrincipal } from './operator';
import type { ListAuditEventsQuery, ListOperatorPlatformsQuery, OperatorPlatformView, OperatorView } from './operator-core.dto';

export interface VerifyOperatorCredentialRequest {
  clientId: string;
  clientSecret: string;
}

/** Operators (identity): their credentials, themselves, the platforms they oversee and the audit log. */
export const OperatorRpc = {
  /** The gateway's check of operator HTTP Basic credentials (no caller: this is how one is made). 401 when wrong. */
  verifyCredential: rawRpc<VerifyOperatorCredentialRequest, OperatorPrincipal>('identity.operators.verifyCredential'),
  me: operatorRpc<EmptyBody, OperatorView>('identity.operators.me', 'VIEWER'),
  listPlatforms: operatorRpc<ListOperatorPlatformsQuery, Page<OperatorPlatformView>>('identity.operators.listPlatforms', 'VIEWER'),
  listAuditEvents: operatorRpc<ListAuditEventsQuery, Page<AuditEvent>>('identity.operators.listAuditEvents', 'VIEWER'),
} as const;
