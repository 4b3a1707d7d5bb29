import type { Page } from '../pagination';
import type {
  BeneficialOwner,
  CreateBeneficialOwnerRequest,
  CreateVerificationRequest,
  ListBeneficialOwnersQuery,
  ListVerificationsQuery,
  UpdateBeneficialOwnerRequest,
  Verification,
} from '../verifications';
import { rpc } from './rpc-contract';

/** RPC contracts of the verification and beneficial-owner endpoints (identity service). */
export const VerificationsRpc = {
  submit: rpc<CreateVerificationRequest, Verification>('identity.verifications.submit'),
  list: rpc<ListVerificationsQuery, Page<Verification>>('identity.verifications.list'),
  get: rpc<VerificationIdBody, Verification>('identity.verifications.get'),
} as const;

export const BeneficialOwnersRpc = {
  create: rpc<CreateBeneficialOwnerRequest, BeneficialOwner>('identity.beneficial-owners.create'),
  list: rpc<ListBeneficialOwnersQuery, Page<BeneficialOwner>>('identity.beneficial-owners.list'),
  get: rpc<BeneficialOwnerIdBody, BeneficialOwner>('identity.beneficial-owners.get'),
  update: rpc<UpdateBeneficialOwnerBody, BeneficialOwner>('identity.beneficial-owners.update'),
} as const;

export interface VerificationIdBody {
  verificationId: string;
}

export interface BeneficialOwnerIdBody {
  beneficialOwnerId: string;
}

/** BeneficialOwnersRpc.update: PATCH /beneficial-owners/{beneficialOwnerId}. */
export interface UpdateBeneficialOwnerBody extends BeneficialOwnerIdBody {
  patch: UpdateBeneficialOwnerRequest;
}
