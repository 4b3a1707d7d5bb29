import { eventually } from '@payments/testing';
import { uploadDocument } from './test-documents';
import { TestPlatform, type PlatformApi } from './test-platform';

/**
 * Test fixtures for KYC/KYB: request bodies for customers and beneficial owners, a business with every KYB input,
 * and probes over the API and the event log.
 */
export const US_ADDRESS = { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' };
export const EDD_FIELDS = { sourceOfWealthCategories: ['SALARY'], purposeOfAccount: 'P2P_TRANSFERS', annualIncomeRange: 'RANGE_100K_250K' };

let serial = 0;
const unique = () => `${Date.now().toString(36)}-${serial++}`;

export const individualBody = (fullName: string, extra: Record<string, unknown> = {}) => ({
  customerType: 'INDIVIDUAL',
  platformCustomerId: `kyc-${unique()}`,
  fullName,
  birthDate: '1990-12-10',
  nationality: 'US',
  address: US_ADDRESS,
  ...extra,
});

export const businessBody = (registrationNumber: string, extra: Record<string, unknown> = {}) => ({
  customerType: 'BUSINESS',
  platformCustomerId: `kyb-${unique()}`,
  businessInfo: { legalName: `Acme ${registrationNumber} LLC`, country: 'US', incorporatedOn: '2015-06-01', taxId: '12-3456789', registrationNumber },
  address: { line1: '9 Market St', city: 'San Francisco', state: 'CA', postalCode: '94103', country: 'US' },
  ...extra,
});

export const ownerBody = (customerId: string, lastName: string, extra: Record<string, unknown> = {}) => ({
  customerId,
  roles: ['UBO'],
  ownershipPercentage: 30,
  personalInfo: { firstName: 'Grace', lastName, birthDate: '1970-12-09', nationality: 'US', address: US_ADDRESS, idType: 'SSN', identifier: '123-45-6789' },
  ...extra,
});

export async function createCustomer(t: PlatformApi, body: object, auth = t.tenant.sandbox): Promise<string> {
  const res = await t.call('POST', '/customers', { auth, body });
  if (res.status !== 201) throw new Error(`POST /customers answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.id;
}

export async function addOwner(t: TestPlatform, body: object, auth = t.tenant.sandbox): Promise<string> {
  const res = await t.call('POST', '/beneficial-owners', { auth, body });
  if (res.status !== 201) throw new Error(`POST /beneficial-owners answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.id;
}

export const KYB_DOCUMENT_TYPES = ['ARTICLES_OF_INCORPORATION', 'SHAREHOLDER_REGISTER', 'UTILITY_BILL'] as const;

/** A business with every KYB input: a control person owning 40 %, owners with the given lastNames (30 % each at most), the three documents. */
export async function completeBusiness(t: TestPlatform, registrationNumber: string, ownerLastNames: string[] = [], auth = t.tenant.sandbox) {
  const customerId = await createCustomer(t, businessBody(registrationNumber), auth);
  const controller = await addOwner(t, ownerBody(customerId, 'Control', { roles: ['CONTROL_PERSON', 'DIRECTOR'], ownershipPercentage: 40 }), auth);
  const owners: string[] = [];
  for (const lastName of ownerLastNames) owners.push(await addOwner(t, ownerBody(customerId, lastName, { ownershipPercentage: Math.floor(60 / ownerLastNames.length) }), auth));
  const documents: string[] = [];
  for (const documentType of KYB_DOCUMENT_TYPES) {
    const res = await uploadDocument(t, customerId, { auth, fields: { documentType, country: 'US' } });
    if (res.status !== 201) throw new Error(`POST /documents answered ${res.status}: ${JSON.stringify(res.body)}`);
    documents.push(res.body.id);
  }
  return { customerId, controller, owners, documents };
}

/** Waits until GET /verifications/{id} shows `status`, and returns it. */
export function verificationReaches(t: TestPlatform, verificationId: string, status: string, auth = t.tenant.sandbox) {
  return eventually(
    async () => {
      const res = await t.call('GET', `/verifications/${verificationId}`, { auth });
      return res.body.verificationStatus === status ? res.body : undefined;
    },
    { what: `${verificationId} ${status}` },
  );
}

/** kycStatus of every CustomerKycStatusChanged.v1 on the customer's stream, in log order. */
export async function kycTransitions(t: TestPlatform, customerId: string): Promise<string[]> {
  const events = await t.platform.identity.host.store.readStream(t.platform.identity.host.dataSource, customerId);
  return events.filter((e) => e.type === 'CustomerKycStatusChanged.v1').map((e) => (e.data as { kycStatus: string }).kycStatus);
}

/** The decision timers scheduled for a verification, fired or not. */
export async function timersOf(t: TestPlatform, verificationId: string): Promise<{ fired_at: Date | null }[]> {
  return t.platform.identity.host.dataSource.query(`SELECT fired_at FROM identity.timers WHERE stream_id = $1`, [verificationId]);
}

/**
 * A production customer made able to move money: its verification submitted and approved in the operators' review
 * queue by as many reviewers as `KYC_APPROVALS_REQUIRED` asks (two by default). The customer needs a complete
 * profile (`individualBody`). Waits until payments and quoting have the approval from identity's events.
 */
export async function approveInProduction(t: TestPlatform, auth: string, customerId: string, approvals = 2): Promise<void> {
  const verification = await t.call('POST', '/verifications', { auth, body: { customerId } });
  if (verification.body?.verificationStatus !== 'PENDING_MANUAL_REVIEW') throw new Error(`POST /verifications answered ${verification.status}: ${JSON.stringify(verification.body)}`);
  for (let i = 0; i < approvals; i++) {
    const reviewer = await t.createOperator('REVIEWER', `Reviewer ${unique()}`);
    await eventually(async () => {
      const res = await t.operatorCall('POST', `/kyc-reviews/${verification.body.id}/approve`, { auth: reviewer.auth, body: { reason: 'documents match' } });
      return res.status === 404 ? undefined : res;
    }, { what: 'the KYC review in the queue' });
  }
  await approvalReached(t, customerId);
}

/**
 * Waits until payments and quoting know of the customer's approval (from identity's CustomerKycStatusChanged.v1):
 * until then they refuse its production money with 403 USER_NOT_READY, as they must.
 */
export function approvalReached(t: TestPlatform, customerId: string): Promise<void> {
  return kycStatusReached(t, customerId, 'APPROVED');
}

/** Waits until payments' and quoting's copies of the customer have `kycStatus` (they follow identity's events). */
export async function kycStatusReached(t: TestPlatform, customerId: string, kycStatus: string): Promise<void> {
  await eventually(async () => {
    const [payments] = await t.platform.payments.host.dataSource.query(`SELECT kyc_status FROM payments.customers WHERE customer_id = $1`, [customerId]);
    const [quoting] = await t.platform.quoting.host.dataSource.query(`SELECT kyc_status FROM quoting.customers WHERE customer_id = $1`, [customerId]);
    return payments?.kyc_status === kycStatus && quoting?.kyc_status === kycStatus ? true : undefined;
  }, { what: `${customerId} ${kycStatus} in payments and quoting` });
}
