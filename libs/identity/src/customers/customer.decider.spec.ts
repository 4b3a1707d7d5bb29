import { DomainError, given } from '@payments/eventsourcing';
import { CustomerCommand, customerDecider as decider } from './customer.decider';
import { CustomerCreated, CustomerEvent } from './customer.events';

const now = '2026-03-01T10:00:00.000Z';
const create = (request: Record<string, unknown>): CustomerCommand => ({
  type: 'CreateCustomer',
  customerId: 'Customer:c',
  platformId: 'Platform:p',
  mode: 'SANDBOX',
  request: { customerType: 'INDIVIDUAL', ...request } as never,
  platformCustomerId: 'p-1',
  umaAddress: '$p-1@sandbox.uma.money',
  currencies: ['USD'],
  currentTermsVersion: '2025-10-13',
  now,
});
const createdEu: CustomerCreated = {
  type: 'CustomerCreated.v1',
  data: {
    customerId: 'Customer:c', platformId: 'Platform:p', mode: 'SANDBOX', customerType: 'INDIVIDUAL', platformCustomerId: 'p-1',
    umaAddress: '$p-1@sandbox.uma.money', currencies: ['USD'], profile: { region: 'DE', email: 'a@b.de', phoneNumber: '+4915112345678', fullName: 'Ada' },
    requiredChannels: ['email', 'phone'], createdAt: now,
  },
};
const issued = (at: string, expiresAt = '2026-03-01T10:10:00.000Z'): CustomerEvent => ({ type: 'ContactCodeIssued.v1', data: { channel: 'email', codeHash: 'good', expiresAt, issuedAt: at } });
const confirm = (codeHash: string, at = now): CustomerCommand => ({ type: 'ConfirmContactCode', channel: 'email', codeHash, attemptsMax: 3, lockMs: 60_000, now: at });

describe('customerDecider', () => {
  it('creates an EU individual with both contact channels required', () => {
    given(decider).when(create({ region: 'DE', email: 'a@b.de', phoneNumber: '+4915112345678', fullName: 'Ada' })).then([createdEu]);
  });

  it('refuses type-mixing fields, a future birthDate, missing EU contacts and unknown terms versions', () => {
    const e1 = given(decider).when(create({ businessInfo: { legalName: 'X', country: 'US', incorporatedOn: '2020-01-01', taxId: '1' }, birthDate: '2030-01-01' })).thenFails('INVALID_INPUT');
    expect((e1.details!.errors as { field: string }[]).map((e) => e.field)).toEqual(['businessInfo', 'birthDate']);
    const e2 = given(decider).when(create({ region: 'FR' })).thenFails('INVALID_INPUT');
    expect((e2.details!.errors as { field: string }[]).map((e) => e.field)).toEqual(['email', 'phoneNumber']);
    const business = given(decider).when({ ...(create({}) as Extract<CustomerCommand, { type: 'CreateCustomer' }>), request: { customerType: 'BUSINESS', fullName: 'Bob' } as never }).thenFails('INVALID_INPUT');
    expect((business.details!.errors as { field: string }[]).map((e) => e.field)).toEqual(['businessInfo', 'fullName']);
    given(decider)
      .when(create({ endUserTermsConsent: { acceptedAt: now, ipAddress: '1.2.3.4', termsVersion: '1999', acceptanceMethod: 'CHECKBOX' } }))
      .thenFails('END_USER_TERMS_VERSION_NOT_FOUND');
    const us = given(decider).when(create({ address: { line1: '1 Main', city: 'X', postalCode: '123', country: 'US' } })).thenFails('INVALID_INPUT');
    expect((us.details!.errors as { field: string }[]).map((e) => e.field)).toEqual(['address.state', 'address.postalCode']);
  });

  it('verifies a channel with the right code, counts wrong ones and locks after the bound', () => {
    given(decider, [createdEu, issued(now)]).when(confirm('good')).then([{ type: 'ContactVerified.v1', data: { channel: 'email', at: now } }]);
    const r1 = given(decider, [createdEu, issued(now)]).when(confirm('bad')).then([
      { type: 'ContactCodeRejected.v1', data: { channel: 'email', failedAttempts: 1, lockedUntil: null, at: now } },
    ]);
    const r2: CustomerEvent = { type: 'ContactCodeRejected.v1', data: { channel: 'email', failedAttempts: 2, lockedUntil: null, at: now } };
    given(decider, [createdEu, issued(now), ...r1, r2]).when(confirm('bad')).then([
      { type: 'ContactCodeRejected.v1', data: { channel: 'email', failedAttempts: 3, lockedUntil: '2026-03-01T10:01:00.000Z', at: now } },
    ]);
    const lockedEvent: CustomerEvent = { type: 'ContactCodeRejected.v1', data: { channel: 'email', failedAttempts: 3, lockedUntil: '2026-03-01T10:01:00.000Z', at: now } };
    const err = given(decider, [createdEu, issued(now), lockedEvent]).when(confirm('good')).thenFails('ACCOUNT_LOCKED');
    expect(err.details).toEqual({ suspended: true, lockedUntil: '2026-03-01T10:01:00.000Z', failedAttempts: 3 });
    given(decider, [createdEu, issued(now, '2026-03-01T09:59:00.000Z')]).when(confirm('good')).thenFails('INVALID_INPUT'); // expired
  });

  it('answers 409 for channels the region does not require and for already verified ones', () => {
    const us: CustomerEvent = { ...createdEu, data: { ...createdEu.data, profile: { region: 'US' }, requiredChannels: [] } };
    given(decider, [us]).when({ type: 'IssueContactCode', channel: 'email', codeHash: 'h', expiresAt: now, now }).thenFails('CONFLICT');
    const verified: CustomerEvent = { type: 'ContactVerified.v1', data: { channel: 'email', at: now } };
    given(decider, [createdEu, verified]).when({ type: 'IssueContactCode', channel: 'email', codeHash: 'h', expiresAt: now, now }).thenFails('CONFLICT');
  });

  it('resets a verified channel when its contact changes, and refuses email and phone in one patch', () => {
    const verified: CustomerEvent = { type: 'ContactVerified.v1', data: { channel: 'email', at: now } };
    const events = given(decider, [createdEu, verified]).when({ type: 'UpdateCustomer', request: { email: 'new@b.de' } as never, currentTermsVersion: '2025-10-13', now }).then([
      { type: 'CustomerUpdated.v1', data: { changes: { email: 'new@b.de' }, requiredChannels: ['email', 'phone'], resetChannels: ['email'], updatedAt: now } },
    ]);
    const state = [createdEu, verified, ...events].reduce(decider.evolve, decider.initialState);
    expect(state.status === 'ACTIVE' && state.channels.email?.status).toBe('PENDING');
    given(decider, [createdEu]).when({ type: 'UpdateCustomer', request: { email: 'x@y.de', phoneNumber: '+491511111111' } as never, currentTermsVersion: '2025-10-13', now }).thenFails('INVALID_INPUT');
    given(decider, [createdEu]).when({ type: 'UpdateCustomer', request: { fullName: 'Ada' } as never, currentTermsVersion: '2025-10-13', now }).then([]);
  });

  it('merges a partial businessInfo into the stored one and checks the merged result', () => {
    const info = { legalName: 'Acme LLC', country: 'US', incorporatedOn: '2015-06-01', taxId: '12-3456789' };
    const created: CustomerEvent = {
      ...createdEu,
      data: { ...createdEu.data, customerType: 'BUSINESS', profile: { region: 'US', businessInfo: info }, requiredChannels: [] },
    };
    const update = (businessInfo: Record<string, unknown>): CustomerCommand => ({ type: 'UpdateCustomer', request: { businessInfo } as never, currentTermsVersion: '2025-10-13', now });
    given(decider, [created]).when(update({ doingBusinessAs: 'Acme', taxId: '98-7654321' })).then([
      { type: 'CustomerUpdated.v1', data: { changes: { businessInfo: { ...info, doingBusinessAs: 'Acme', taxId: '98-7654321' } }, requiredChannels: [], resetChannels: [], updatedAt: now } },
    ]);
    given(decider, [created]).when(update({ legalName: 'Acme LLC' })).then([]); // nothing changed
    const future = given(decider, [created]).when(update({ incorporatedOn: '2030-01-01' })).thenFails('INVALID_INPUT');
    expect((future.details!.errors as { field: string }[]).map((e) => e.field)).toEqual(['businessInfo.incorporatedOn']);
  });

  it('deletes once, then answers CUSTOMER_DELETED; a deleted customer cannot be updated', () => {
    const deleted: CustomerEvent = { type: 'CustomerDeleted.v1', data: { customerId: 'Customer:c', deletedAt: now } };
    given(decider, [createdEu]).when({ type: 'DeleteCustomer', now }).then([deleted]);
    given(decider, [createdEu, deleted]).when({ type: 'DeleteCustomer', now }).thenFails('CUSTOMER_DELETED');
    given(decider, [createdEu, deleted]).when({ type: 'UpdateCustomer', request: {} as never, currentTermsVersion: 'x', now }).thenFails('USER_NOT_FOUND');
  });

  it('records KYC status changes once', () => {
    given(decider, [createdEu]).when({ type: 'SetKycStatus', kycStatus: 'PENDING', now }).then([
      { type: 'CustomerKycStatusChanged.v1', data: { customerType: 'INDIVIDUAL', kycStatus: 'PENDING', previous: 'UNVERIFIED', verificationId: undefined, at: now } },
    ]);
  });

  describe('a production customer whose KYC is APPROVED keeps the identity approved', () => {
    const production: CustomerCreated = { ...createdEu, data: { ...createdEu.data, mode: 'PRODUCTION', profile: { ...createdEu.data.profile, address: { line1: '1 A St', city: 'Berlin', postalCode: '10115', country: 'DE' } } } };
    const approved: CustomerEvent = { type: 'CustomerKycStatusChanged.v1', data: { customerType: 'INDIVIDUAL', kycStatus: 'APPROVED', previous: 'PENDING', at: now } };
    const update = (request: Record<string, unknown>): CustomerCommand => ({ type: 'UpdateCustomer', request: request as never, currentTermsVersion: '2025-10-13', now });

    const changesAfter = (history: CustomerEvent[], request: Record<string, unknown>) => {
      const result = decider.decide(update(request), given(decider, history).state);
      return result instanceof DomainError ? result.code : result.map((e) => e.type);
    };

    it('a material change is 409 KYC_IDENTITY_LOCKED naming the fields; a contact change passes', () => {
      const e = given(decider, [production, approved]).when(update({ fullName: 'Eve', email: 'x@y.de', identifier: '999' })).thenFails('KYC_IDENTITY_LOCKED');
      expect(e.details).toEqual({ fields: ['fullName', 'identifier'] });
      expect(changesAfter([production, approved], { address: { line1: '2 B St', city: 'Berlin', postalCode: '10115', country: 'DE' } })).toBe('KYC_IDENTITY_LOCKED');
      expect(changesAfter([production, approved], { email: 'x@y.de', platformCustomerId: 'p-2' })).toEqual(['CustomerUpdated.v1']);
    });

    it('the same value sent again is no change; PENDING, the sandbox and a rejected customer change freely', () => {
      expect(changesAfter([production, approved], { fullName: 'Ada' })).toEqual([]);
      const rejected = { ...approved, data: { ...approved.data, kycStatus: 'REJECTED' } } as CustomerEvent;
      for (const history of [[production], [createdEu, approved], [production, rejected]]) expect(changesAfter(history, { fullName: 'Eve' })).toEqual(['CustomerUpdated.v1']);
    });
  });
});
