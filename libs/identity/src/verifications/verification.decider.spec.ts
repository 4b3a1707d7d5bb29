import type { Mode } from '@payments/contracts';
import { given } from '@payments/eventsourcing';
import { KycDecision } from './kyc-provider';
import { VerificationCommand, verificationDecider as decider } from './verification.decider';
import { VerificationEvent, VerificationSubmitted } from './verification.events';
import { CustomerSnapshot, OwnerSnapshot, VerificationInputs } from './verification-inputs';

const now = '2026-03-01T10:00:00.000Z';
const later = '2026-03-01T10:00:05.000Z';
const address = { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' };
const person = (fullName: string, extra: Partial<CustomerSnapshot> = {}): CustomerSnapshot => ({
  customerId: 'Customer:c', customerType: 'INDIVIDUAL', kycStatus: 'UNVERIFIED', fullName, birthDate: '1990-01-01', nationality: 'US', address, ...extra,
});
const business = (registrationNumber: string): CustomerSnapshot => ({
  customerId: 'Customer:c', customerType: 'BUSINESS', kycStatus: 'UNVERIFIED', address, businessInfo: { legalName: 'Acme', registrationNumber, taxId: '12-3456789' },
});
const owner = (id: string, ownershipPercentage: number, roles: OwnerSnapshot['roles'], extra: Partial<OwnerSnapshot> = {}): OwnerSnapshot => ({
  beneficialOwnerId: id, roles, ownershipPercentage, nationality: 'US', idType: 'SSN', ...extra,
});
const businessDocuments = { 'Customer:c': [
  { documentId: 'Document:3', documentType: 'UTILITY_BILL' },
  { documentId: 'Document:1', documentType: 'ARTICLES_OF_INCORPORATION' },
  { documentId: 'Document:2', documentType: 'SHAREHOLDER_REGISTER' },
] };
const submit = (customer: CustomerSnapshot, rest: Partial<VerificationInputs> = {}, mode: Mode = 'SANDBOX'): VerificationCommand => ({
  type: 'SubmitVerification', verificationId: 'Verification:v', platformId: 'Platform:p', mode, inputs: { customer, owners: [], documents: { [customer.customerId]: [] }, ...rest }, now,
});
const scope = (customerType: 'INDIVIDUAL' | 'BUSINESS' = 'INDIVIDUAL', mode: Mode = 'SANDBOX') => ({ verificationId: 'Verification:v', customerId: 'Customer:c', platformId: 'Platform:p', mode, customerType });
const submitted = (sandboxDecision: VerificationSubmitted['data']['sandboxDecision'], extra: Partial<VerificationSubmitted['data']> = {}): VerificationSubmitted => ({
  type: 'VerificationSubmitted.v1',
  data: { ...scope(), attempt: 1, verificationStatus: 'IN_PROGRESS', sandboxDecision, documentIds: [], submittedAt: now, ...extra },
});
const decide = (attempt = 1): VerificationCommand => ({ type: 'DecideVerification', attempt, now: later });
const approved: VerificationEvent = { type: 'VerificationApproved.v1', data: { verificationId: 'Verification:v', customerId: 'Customer:c', customerType: 'INDIVIDUAL', attempt: 1, at: later } };
const errorsOf = (events: readonly VerificationEvent[]) => (events[0].data as { errors: { resourceId: string; type: string; field?: string }[] }).errors;

describe('verificationDecider: individuals (KYC)', () => {
  it('asks for missing basic data, whatever the name', () => {
    const events = given(decider).when(submit({ customerId: 'Customer:c', customerType: 'INDIVIDUAL', kycStatus: 'UNVERIFIED' })).decision as VerificationEvent[];
    expect(events.map((e) => e.type)).toEqual(['VerificationErrorsFound.v1']);
    expect(errorsOf(events).map((e) => [e.resourceId, e.type, e.field])).toEqual([
      ['Customer:c', 'MISSING_FIELD', 'fullName'], ['Customer:c', 'MISSING_FIELD', 'birthDate'], ['Customer:c', 'MISSING_FIELD', 'nationality'], ['Customer:c', 'MISSING_FIELD', 'address'],
    ]);
  });

  it('sandbox: suffix other → IN_PROGRESS then APPROVED, 002 → REJECTED, 001 → no automatic decision', () => {
    given(decider).when(submit(person('Ada Lovelace'))).then([submitted('APPROVED')]);
    given(decider).when(submit(person('Ada 002'))).then([submitted('REJECTED')]);
    given(decider).when(submit(person('Ada 001'))).then([submitted(null)]);
    given(decider, [submitted('APPROVED')]).when(decide()).then([approved]);
    const rejected = given(decider, [submitted('REJECTED')]).when(decide()).decision as VerificationEvent[];
    expect(rejected.map((e) => e.type)).toEqual(['VerificationRejected.v1']);
    expect(errorsOf(rejected)).toEqual([{ resourceId: 'Customer:c', type: 'APPLICANT_REJECTED', reason: expect.stringContaining('002') }]);
    given(decider, [submitted(null)]).when(decide()).then([]);
  });

  it('sandbox 003: RESOLVE_ERRORS on the missing edd.* fields; resubmitted with them, the same case moves on', () => {
    const first = given(decider).when(submit(person('Ada 003', { purposeOfAccount: 'P2P_TRANSFERS' }))).decision as VerificationEvent[];
    expect(errorsOf(first).map((e) => e.field)).toEqual(['edd.sourceOfWealthCategories', 'edd.annualIncomeRange']);
    const edd = { sourceOfWealthCategories: ['SALARY'], purposeOfAccount: 'P2P_TRANSFERS', annualIncomeRange: 'RANGE_100K_250K' };
    given(decider, first).when(submit(person('Ada 003', edd))).then([submitted('APPROVED', { attempt: 2 })]);
    expect(given(decider, [...first, submitted('APPROVED', { attempt: 2 })]).state).toMatchObject({ status: 'IN_PROGRESS', attempt: 2, errors: [], createdAt: now });
  });

  it('production: no magic, no automatic decision: PENDING_MANUAL_REVIEW', () => {
    given(decider)
      .when(submit(person('Ada 003'), {}, 'PRODUCTION'))
      .then([{ ...submitted(null), data: { ...submitted(null).data, ...scope('INDIVIDUAL', 'PRODUCTION'), verificationStatus: 'PENDING_MANUAL_REVIEW' } }]);
  });

  it('409 while a decision is pending, 400 once decided (or when the customer was decided elsewhere)', () => {
    given(decider, [submitted('APPROVED')]).when(submit(person('Ada'))).thenFails('VERIFICATION_IN_PROGRESS');
    given(decider, [{ ...submitted(null), data: { ...submitted(null).data, verificationStatus: 'PENDING_MANUAL_REVIEW' } }]).when(submit(person('Ada'))).thenFails('VERIFICATION_IN_PROGRESS');
    given(decider, [submitted('APPROVED'), approved]).when(submit(person('Ada'))).thenFails('VERIFICATION_ALREADY_DECIDED');
    given(decider).when(submit(person('Ada', { kycStatus: 'APPROVED' }))).thenFails('VERIFICATION_ALREADY_DECIDED');
  });

  it('decides once: a repeated or stale timer appends nothing', () => {
    given(decider, [submitted('APPROVED'), approved]).when(decide()).then([]);
    given(decider, [submitted('APPROVED')]).when(decide(7)).then([]);
    given(decider).when(decide()).then([]);
  });
});

describe('verificationDecider: businesses (KYB)', () => {
  it('reports every missing KYB input with its resourceId and the accepted document types', () => {
    const owners = [owner('BeneficialOwner:a', 10, ['DIRECTOR']), owner('BeneficialOwner:us', 5, ['CONTROL_PERSON'], { idType: 'PASSPORT' })];
    const events = given(decider).when(submit(business('R-1'), { owners })).decision as VerificationEvent[];
    expect(errorsOf(events)).toEqual([
      { resourceId: 'Customer:c', type: 'MISSING_BENEFICIAL_OWNER', reason: expect.any(String) },
      { resourceId: 'BeneficialOwner:us', type: 'INVALID_FIELD', field: 'personalInfo.idType', reason: expect.any(String) },
      { resourceId: 'Customer:c', type: 'MISSING_LEGAL_PRESENCE_DOCUMENT', acceptedDocumentTypes: ['CERTIFICATE_OF_INCORPORATION', 'ARTICLES_OF_INCORPORATION'], reason: expect.any(String) },
      { resourceId: 'Customer:c', type: 'MISSING_OWNERSHIP_STRUCTURE_DOCUMENT', acceptedDocumentTypes: ['SHAREHOLDER_REGISTER'], reason: expect.any(String) },
      { resourceId: 'Customer:c', type: 'MISSING_PROOF_OF_ADDRESS_DOCUMENT', acceptedDocumentTypes: ['PROOF_OF_ADDRESS', 'UTILITY_BILL', 'BANK_STATEMENT'], reason: expect.any(String) },
    ]);
    const none = given(decider).when(submit(business('R-1'))).decision as VerificationEvent[];
    expect(errorsOf(none).slice(0, 2).map((e) => e.type)).toEqual(['MISSING_CONTROL_PERSON', 'MISSING_BENEFICIAL_OWNER']);
    const passport = given(decider).when(submit(business('R-1'), { owners: [owner('BeneficialOwner:de', 30, ['CONTROL_PERSON'], { nationality: 'DE', idType: 'PASSPORT' })], documents: businessDocuments })).decision as VerificationEvent[];
    expect(errorsOf(passport)).toEqual([{ resourceId: 'BeneficialOwner:de', type: 'MISSING_FIELD', field: 'personalInfo.countryOfIssuance', reason: expect.any(String) }]);
  });

  it('submits complete inputs with every document handed over; registrationNumber suffix decides', () => {
    const owners = [owner('BeneficialOwner:a', 30, ['UBO', 'CONTROL_PERSON'])];
    const documents = { ...businessDocuments, 'BeneficialOwner:a': [{ documentId: 'Document:0', documentType: 'PASSPORT' }] };
    const base = { ...scope('BUSINESS'), attempt: 1, verificationStatus: 'IN_PROGRESS' as const, documentIds: ['Document:0', 'Document:1', 'Document:2', 'Document:3'], submittedAt: now };
    given(decider).when(submit(business('R-9'), { owners, documents })).then([{ type: 'VerificationSubmitted.v1', data: { ...base, sandboxDecision: 'APPROVED' } }]);
    given(decider).when(submit(business('R-002'), { owners, documents })).then([{ type: 'VerificationSubmitted.v1', data: { ...base, sandboxDecision: 'REJECTED' } }]);
    given(decider).when(submit(business('R-001'), { owners, documents })).then([{ type: 'VerificationSubmitted.v1', data: { ...base, sandboxDecision: null } }]);
  });
});

describe('verificationDecider: production decisions (the KYC provider port)', () => {
  const pending = (attempt = 1): VerificationSubmitted => ({
    type: 'VerificationSubmitted.v1',
    data: { ...scope('BUSINESS', 'PRODUCTION'), attempt, verificationStatus: 'PENDING_MANUAL_REVIEW', sandboxDecision: null, documentIds: [], submittedAt: now },
  });
  const record = (decision: KycDecision, attempt = 1): VerificationCommand => ({ type: 'RecordDecision', attempt, decision, now: later });
  const changes = [{ resourceId: 'Customer:c', type: 'MISSING_PROOF_OF_ADDRESS_DOCUMENT' as const, acceptedDocumentTypes: ['UTILITY_BILL'], reason: 'older than 3 months' }];
  const rejection = [{ resourceId: 'Customer:c', type: 'APPLICANT_REJECTED' as const, reason: 'rejected after manual review' }];
  const base = { verificationId: 'Verification:v', customerId: 'Customer:c', customerType: 'BUSINESS' as const, attempt: 1, at: later };

  it('a provider decides a pending production submission: the same events as the sandbox timer', () => {
    given(decider, [pending()]).when(record({ outcome: 'APPROVED' })).then([{ type: 'VerificationApproved.v1', data: base }]);
    given(decider, [pending()]).when(record({ outcome: 'REJECTED', errors: rejection })).then([{ type: 'VerificationRejected.v1', data: { ...base, errors: rejection } }]);
  });

  it('changes requested: RESOLVE_ERRORS with the errors, as a sandbox submission missing inputs', () => {
    const events = given(decider, [pending()]).when(record({ outcome: 'RESOLVE_ERRORS', errors: changes })).then([
      { type: 'VerificationErrorsFound.v1', data: { ...scope('BUSINESS', 'PRODUCTION'), attempt: 1, errors: changes, at: later } },
    ]);
    expect(given(decider, [pending(), ...events]).state).toMatchObject({ status: 'RESOLVE_ERRORS', errors: changes, attempt: 1 });
  });

  it('resubmitted after changes: submission 2 waits for review again, and a decision about submission 1 is refused', () => {
    const changed = given(decider, [pending()]).when(record({ outcome: 'RESOLVE_ERRORS', errors: changes })).decision as VerificationEvent[];
    const owners = [owner('BeneficialOwner:a', 30, ['UBO', 'CONTROL_PERSON'])];
    const resubmitted = given(decider, [pending(), ...changed]).when(submit(business('R-9'), { owners, documents: businessDocuments }, 'PRODUCTION')).decision as VerificationEvent[];
    expect(resubmitted).toEqual([
      { type: 'VerificationSubmitted.v1', data: { ...pending(2).data, documentIds: ['Document:1', 'Document:2', 'Document:3'] } },
    ]);
    const history = [pending(), ...changed, ...resubmitted];
    expect(given(decider, history).state).toMatchObject({ status: 'PENDING_MANUAL_REVIEW', attempt: 2, errors: [] });
    given(decider, history).when(record({ outcome: 'APPROVED' }, 1)).thenFails('CONFLICT');
    given(decider, history).when(record({ outcome: 'APPROVED' }, 2)).then([{ type: 'VerificationApproved.v1', data: { ...base, attempt: 2 } }]);
  });

  it('decides once: the same decision again appends nothing, another one is a conflict', () => {
    const approved: VerificationEvent = { type: 'VerificationApproved.v1', data: base };
    given(decider, [pending(), approved]).when(record({ outcome: 'APPROVED' })).then([]);
    given(decider, [pending(), approved]).when(record({ outcome: 'REJECTED', errors: rejection })).thenFails('CONFLICT');
  });

  it('never decides a sandbox case (the sandbox decides its own) nor a missing one', () => {
    given(decider, [submitted(null)]).when(record({ outcome: 'APPROVED' })).thenFails('REFERENCE_NOT_FOUND');
    given(decider).when(record({ outcome: 'APPROVED' })).thenFails('REFERENCE_NOT_FOUND');
  });
});
