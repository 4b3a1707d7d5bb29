import { given } from '@payments/eventsourcing';
import { BeneficialOwnerCommand, beneficialOwnerDecider as decider } from './beneficial-owner.decider';
import { BeneficialOwnerAdded, BeneficialOwnerEvent, OwnerPersonalInfo } from './beneficial-owner.events';

const now = '2026-03-01T10:00:00.000Z';
const later = '2026-03-01T11:00:00.000Z';
const info = (lastName = 'Hopper', extra: Partial<OwnerPersonalInfo> = {}): OwnerPersonalInfo => ({
  firstName: 'Grace',
  lastName,
  birthDate: '1970-12-09',
  nationality: 'US',
  address: { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' },
  idType: 'SSN',
  identifier: '123-45-6789',
  ...extra,
});
const add = (personalInfo = info(), extra: Partial<Extract<BeneficialOwnerCommand, { type: 'AddBeneficialOwner' }>> = {}): BeneficialOwnerCommand => ({
  type: 'AddBeneficialOwner',
  beneficialOwnerId: 'BeneficialOwner:o',
  customerId: 'Customer:b',
  platformId: 'Platform:p',
  mode: 'SANDBOX',
  request: { roles: ['UBO', 'CONTROL_PERSON'], ownershipPercentage: 60, personalInfo },
  othersPercentage: 0,
  verifyAtOnce: false,
  now,
  ...extra,
});
const added = (personalInfo = info()): BeneficialOwnerAdded => ({
  type: 'BeneficialOwnerAdded.v1',
  data: { beneficialOwnerId: 'BeneficialOwner:o', customerId: 'Customer:b', platformId: 'Platform:p', mode: 'SANDBOX', roles: ['UBO', 'CONTROL_PERSON'], ownershipPercentage: 60, personalInfo, createdAt: now },
});
const statusChanged = (kycStatus: 'APPROVED' | 'REJECTED', verificationId?: string): BeneficialOwnerEvent => ({
  type: 'BeneficialOwnerKycStatusChanged.v1',
  data: { beneficialOwnerId: 'BeneficialOwner:o', customerId: 'Customer:b', kycStatus, previous: 'PENDING', ...(verificationId ? { verificationId } : {}), at: later },
});
const verify: BeneficialOwnerCommand = { type: 'VerifyBeneficialOwner', verificationId: 'Verification:v', now: later };
const fields = (error: { details?: Record<string, unknown> }) => (error.details!.errors as { field: string }[]).map((e) => e.field);

describe('beneficialOwnerDecider', () => {
  it('adds an owner, PENDING until its business is decided', () => {
    given(decider).when(add()).then([added()]);
    expect(given(decider, [added()]).state).toMatchObject({ status: 'ACTIVE', kycStatus: 'PENDING' });
  });

  it('refuses a future birthDate, a malformed SSN, a bad US address and more than 100 % in total', () => {
    const e = given(decider)
      .when(add(info('Hopper', { birthDate: '2030-01-01', identifier: '12345', address: { line1: 'x', city: 'y', postalCode: '1', country: 'US' } }), { othersPercentage: 50 }))
      .thenFails('INVALID_INPUT');
    expect(fields(e)).toEqual(['personalInfo.birthDate', 'personalInfo.identifier', 'personalInfo.address.state', 'personalInfo.address.postalCode', 'ownershipPercentage']);
    given(decider).when(add(info('Hopper', { idType: 'PASSPORT', identifier: 'X1234567', nationality: 'DE', countryOfIssuance: 'DE' }), { othersPercentage: 40 })).then([
      added(info('Hopper', { idType: 'PASSPORT', identifier: 'X1234567', nationality: 'DE', countryOfIssuance: 'DE' })),
    ]);
  });

  it('verifies by lastName suffix once the business is decided: other → APPROVED, 002 → REJECTED, 001 stays PENDING', () => {
    given(decider, [added()]).when(verify).then([statusChanged('APPROVED', 'Verification:v')]);
    given(decider, [added(info('Smith-002'))]).when(verify).then([statusChanged('REJECTED', 'Verification:v')]);
    given(decider, [added(info('Smith-001'))]).when(verify).then([]);
  });

  it('production: the decision names the outcome; no suffix applies', () => {
    given(decider, [added(info('Smith-002'))]).when({ ...verify, decided: 'APPROVED' }).then([statusChanged('APPROVED', 'Verification:v')]);
    given(decider, [added(info('Smith-001'))]).when({ ...verify, decided: 'REJECTED' }).then([statusChanged('REJECTED', 'Verification:v')]);
  });

  it('decides an owner once: a second verification appends nothing', () => {
    given(decider, [added(), statusChanged('APPROVED', 'Verification:v')]).when(verify).then([]);
  });

  it('verifies at once when added to a business decided already', () => {
    const rejected: BeneficialOwnerEvent = { type: 'BeneficialOwnerKycStatusChanged.v1', data: { beneficialOwnerId: 'BeneficialOwner:o', customerId: 'Customer:b', kycStatus: 'REJECTED', previous: 'PENDING', at: now } };
    given(decider).when(add(info('Doe002'), { verifyAtOnce: true })).then([added(info('Doe002')), rejected]);
    given(decider).when(add(info('Doe001'), { verifyAtOnce: true })).then([added(info('Doe001'))]);
  });

  it('updates only what changed, and checks the whole owner again', () => {
    const patch = (request: object, othersPercentage = 0): BeneficialOwnerCommand => ({ type: 'UpdateBeneficialOwner', request: request as never, othersPercentage, now: later });
    given(decider, [added()])
      .when(patch({ ownershipPercentage: 60, roles: ['UBO', 'CONTROL_PERSON'], personalInfo: { firstName: 'Grace', middleName: 'Brewster' } }))
      .then([{ type: 'BeneficialOwnerUpdated.v1', data: { changes: { personalInfo: { middleName: 'Brewster' } }, updatedAt: later } }]);
    given(decider, [added()]).when(patch({ ownershipPercentage: 60 })).then([]);
    expect(fields(given(decider, [added()]).when(patch({ ownershipPercentage: 70 }, 40)).thenFails('INVALID_INPUT'))).toEqual(['ownershipPercentage']);
    expect(fields(given(decider, [added()]).when(patch({ personalInfo: { idType: 'ITIN', identifier: 'ABCDEFG' } })).thenFails('INVALID_INPUT'))).toEqual(['personalInfo.identifier']);
    const updated = given(decider, [added()]).when(patch({ personalInfo: { lastName: 'Murray' } })).then([{ type: 'BeneficialOwnerUpdated.v1', data: { changes: { personalInfo: { lastName: 'Murray' } }, updatedAt: later } }]);
    expect(given(decider, [added(), ...updated]).state).toMatchObject({ personalInfo: { firstName: 'Grace', lastName: 'Murray', identifier: '123-45-6789' }, updatedAt: later });
  });

  it('knows no owner it has not added', () => {
    given(decider).when(verify).thenFails('REFERENCE_NOT_FOUND');
    given(decider).when({ type: 'UpdateBeneficialOwner', request: {}, othersPercentage: 0, now }).thenFails('REFERENCE_NOT_FOUND');
    given(decider, [added()]).when(add()).thenFails('CONFLICT');
  });
});
