import { isDeepStrictEqual } from 'node:util';
import type { CreateBeneficialOwnerRequest, FieldError, Mode, UpdateBeneficialOwnerRequest } from '@payments/contracts';
import { assertNever, Decider, DomainError } from '@payments/eventsourcing';
import { sandboxOutcome } from '../verifications/sandbox-outcomes';
import { BeneficialOwnerEvent, OwnerPersonalInfo } from './beneficial-owner.events';
import { ownershipErrors, personalInfoErrors } from './beneficial-owner.rules';
import { BeneficialOwnerRecord, BeneficialOwnerState, evolveBeneficialOwner } from './beneficial-owner.state';

export type BeneficialOwnerCommand =
  | {
      type: 'AddBeneficialOwner';
      beneficialOwnerId: string;
      customerId: string;
      platformId: string;
      mode: Mode;
      request: Omit<CreateBeneficialOwnerRequest, 'customerId'>;
      /** What the business's other owners hold together, read under the per-business lock. */
      othersPercentage: number;
      /** Sandbox, and the business's verification is decided already: the owner is verified as it is added. */
      verifyAtOnce: boolean;
      now: string;
    }
  | { type: 'UpdateBeneficialOwner'; request: UpdateBeneficialOwnerRequest; othersPercentage: number; now: string }
  /**
   * The business's verification was decided: `decided` is the owner's outcome in production (the provider's); without
   * it (the sandbox) the owner's lastName suffix decides its own status.
   */
  | { type: 'VerifyBeneficialOwner'; verificationId?: string; decided?: 'APPROVED' | 'REJECTED'; now: string };

type Active = Extract<BeneficialOwnerState, { status: 'ACTIVE' }>;

export const beneficialOwnerDecider: Decider<BeneficialOwnerState, BeneficialOwnerCommand, BeneficialOwnerEvent> = {
  initialState: { status: 'NONE' },
  evolve: evolveBeneficialOwner,
  decide(command, state) {
    switch (command.type) {
      case 'AddBeneficialOwner':
        return state.status === 'NONE' ? decideAdd(command) : new DomainError('CONFLICT', 'beneficial owner already exists');
      case 'UpdateBeneficialOwner':
        return state.status === 'ACTIVE' ? decideUpdate(command, state) : new DomainError('REFERENCE_NOT_FOUND', 'beneficial owner not found');
      case 'VerifyBeneficialOwner':
        return state.status === 'ACTIVE' ? verify(state, command.verificationId, command.now, command.decided) : new DomainError('REFERENCE_NOT_FOUND', 'beneficial owner not found');
      default:
        return assertNever(command);
    }
  },
};

function decideAdd(command: Extract<BeneficialOwnerCommand, { type: 'AddBeneficialOwner' }>): BeneficialOwnerEvent[] | DomainError {
  const { beneficialOwnerId, customerId, platformId, mode, request, now } = command;
  const personalInfo = plain(request.personalInfo) as OwnerPersonalInfo;
  const invalid = invalidInput([...personalInfoErrors(personalInfo, now.slice(0, 10)), ...ownershipErrors(request.ownershipPercentage, command.othersPercentage)]);
  if (invalid) return invalid;
  const added: BeneficialOwnerEvent = {
    type: 'BeneficialOwnerAdded.v1',
    data: { beneficialOwnerId, customerId, platformId, mode, roles: [...request.roles], ownershipPercentage: request.ownershipPercentage, personalInfo, createdAt: now },
  };
  if (!command.verifyAtOnce) return [added];
  const state = evolveBeneficialOwner({ status: 'NONE' }, added) as Active;
  return [added, ...verify(state, undefined, now)];
}

function decideUpdate(command: Extract<BeneficialOwnerCommand, { type: 'UpdateBeneficialOwner' }>, state: Active): BeneficialOwnerEvent[] | DomainError {
  const { personalInfo: infoPatch, ...ownership } = plain(command.request) as UpdateBeneficialOwnerRequest;
  const changes: Extract<BeneficialOwnerEvent, { type: 'BeneficialOwnerUpdated.v1' }>['data']['changes'] = {};
  if (ownership.roles !== undefined && !isDeepStrictEqual(ownership.roles, state.roles)) changes.roles = ownership.roles;
  if (ownership.ownershipPercentage !== undefined && ownership.ownershipPercentage !== state.ownershipPercentage) changes.ownershipPercentage = ownership.ownershipPercentage;
  const infoChanges = Object.fromEntries(Object.entries(infoPatch ?? {}).filter(([k, v]) => !isDeepStrictEqual(v, state.personalInfo[k as keyof OwnerPersonalInfo])));
  if (Object.keys(infoChanges).length > 0) changes.personalInfo = infoChanges;
  if (Object.keys(changes).length === 0) return [];
  const personalInfo = { ...state.personalInfo, ...infoChanges };
  const ownershipPercentage = changes.ownershipPercentage ?? state.ownershipPercentage;
  const invalid = invalidInput([...personalInfoErrors(personalInfo, command.now.slice(0, 10)), ...ownershipErrors(ownershipPercentage, command.othersPercentage)]);
  if (invalid) return invalid;
  return [{ type: 'BeneficialOwnerUpdated.v1', data: { changes, updatedAt: command.now } }];
}

/** Decided once: an owner no longer PENDING keeps its status; sandbox suffix 001 leaves it PENDING (manual review). */
function verify(state: BeneficialOwnerRecord, verificationId: string | undefined, now: string, decided?: 'APPROVED' | 'REJECTED'): BeneficialOwnerEvent[] {
  const outcome = decided ?? sandboxOutcome(state.personalInfo.lastName);
  if (state.kycStatus !== 'PENDING' || outcome === 'PENDING') return [];
  const { beneficialOwnerId, customerId } = state;
  return [{ type: 'BeneficialOwnerKycStatusChanged.v1', data: { beneficialOwnerId, customerId, kycStatus: outcome, previous: state.kycStatus, ...(verificationId ? { verificationId } : {}), at: now } }];
}

function invalidInput(errors: FieldError[]): DomainError | undefined {
  return errors.length > 0 ? new DomainError('INVALID_INPUT', 'the beneficial owner is invalid', { errors }) : undefined;
}

/** Plain data only: DTO instances become JSON-shaped objects and undefined fields disappear. */
function plain<T extends object>(value: T): T {
  return JSON.parse(JSON.stringify(value));
}
