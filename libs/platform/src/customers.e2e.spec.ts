import { Client } from 'pg';
import { redactSecrets } from '@payments/identity';
import { startTestPlatform, TestPlatform } from './test-platform';

const individual = (suffix: string, extra: Record<string, unknown> = {}) => ({
  customerType: 'INDIVIDUAL',
  platformCustomerId: `ind-${suffix}`,
  fullName: `Ada Lovelace ${suffix}`,
  birthDate: '1990-12-10',
  nationality: 'GB',
  address: { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' },
  ...extra,
});
const business = (suffix: string, extra: Record<string, unknown> = {}) => ({
  customerType: 'BUSINESS',
  platformCustomerId: `biz-${suffix}`,
  businessInfo: { legalName: `Acme ${suffix} LLC`, country: 'US', incorporatedOn: '2015-06-01', taxId: '12-3456789', registrationNumber: `R-${suffix}` },
  address: { line1: '9 Market St', city: 'San Francisco', state: 'CA', postalCode: '94103', country: 'US' },
  ...extra,
});

describe('customers through the gateway', () => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await startTestPlatform();
  });
  afterAll(() => t.stop());

  it('creates individuals and businesses with generated UMA addresses and the platform currencies', async () => {
    const ind = await t.call('POST', '/customers', { body: individual('a1') });
    expect(ind.status).toBe(201);
    expect(ind.body).toMatchObject({ id: expect.stringMatching(/^Customer:/), customerType: 'INDIVIDUAL', kycStatus: 'UNVERIFIED', currencies: ['USD'], umaAddress: '$ind-a1@sandbox.uma.money' });
    expect(ind.body.contactVerification).toBeUndefined(); // US: no channel required
    const biz = await t.call('POST', '/customers', { body: business('b1') });
    expect(biz.status).toBe(201);
    expect(biz.body).toMatchObject({ customerType: 'BUSINESS', kybStatus: 'UNVERIFIED', businessInfo: { legalName: 'Acme b1 LLC' } });
    expect(biz.body.kycStatus).toBeUndefined();
    const generated = await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'No Id' } });
    expect(generated.body.platformCustomerId).toMatch(/^[0-9a-f-]{36}$/);
    // Production has no sandbox UMA domain: an address is needed, from the request or the platform's umaDomain.
    const prod = await t.call('POST', '/customers', { auth: t.tenant.production, body: individual('prod1') });
    expect(prod.body).toMatchObject({ status: 400, details: { errors: [{ field: 'umaAddress' }] } });
    await t.call('PATCH', '/config', { auth: t.tenant.production, body: { umaDomain: 'pay.example.com' } });
    const withDomain = await t.call('POST', '/customers', { auth: t.tenant.production, body: individual('prod1') });
    expect(withDomain.body.umaAddress).toBe('$ind-prod1@pay.example.com');
  });

  it('validates: dates, countries, E.164, US addresses, type-specific fields, currencies and unknown fields', async () => {
    const cases: [Record<string, unknown>, string[]][] = [
      [individual('v1', { birthDate: '1990-02-30' }), ['birthDate']],
      [individual('v2', { birthDate: '2999-01-01' }), ['birthDate']],
      [individual('v3', { nationality: 'XX' }), ['nationality']],
      [individual('v4', { phoneNumber: '0049 151' }), ['phoneNumber']],
      [individual('v5', { address: { line1: 'x', city: 'y', postalCode: '1', country: 'US' } }), ['address.state', 'address.postalCode']],
      [individual('v6', { businessInfo: { legalName: 'x', country: 'US', incorporatedOn: '2020-01-01', taxId: '1' } }), ['businessInfo']],
      [business('v7', { businessInfo: undefined }), ['businessInfo']],
      [business('v8', { fullName: 'x' }), ['fullName']],
      [individual('v9', { currencies: ['EUR'] }), ['currencies']],
      [individual('v10', { shoeSize: 44 }), ['shoeSize']],
      [{ fullName: 'no type' }, ['customerType']],
      [individual('v11', { region: 'DE' }), ['email', 'phoneNumber']],
    ];
    for (const [body, fields] of cases) {
      const res = await t.call('POST', '/customers', { body });
      expect([res.status, res.body.code]).toEqual([400, expect.stringMatching(/INVALID_INPUT|INVALID_CURRENCY/)]);
      expect(res.body.details.errors.map((e: { field: string }) => e.field)).toEqual(expect.arrayContaining(fields));
    }
    const terms = await t.call('POST', '/customers', { body: individual('v12', { endUserTermsConsent: { acceptedAt: '2026-01-01T00:00:00Z', ipAddress: '203.0.113.9', termsVersion: 'v0', acceptanceMethod: 'CHECKBOX' } }) });
    expect(terms.body.code).toBe('END_USER_TERMS_VERSION_NOT_FOUND');
    const current = (await t.call('GET', '/customers/end-user-terms')).body;
    expect(current).toEqual({ version: expect.any(String), url: expect.stringMatching(/^https:/) });
    const ok = await t.call('POST', '/customers', { body: individual('v13', { endUserTermsConsent: { acceptedAt: '2026-01-01T00:00:00Z', ipAddress: '203.0.113.9', termsVersion: current.version, acceptanceMethod: 'CHECKBOX' } }) });
    expect(ok.status).toBe(201);
  });

  it('answers 409 for a duplicate platformCustomerId or umaAddress, also when the creates race', async () => {
    expect((await t.call('POST', '/customers', { body: individual('dup') })).status).toBe(201);
    const again = await t.call('POST', '/customers', { body: individual('dup') });
    expect(again.body).toMatchObject({ status: 409, code: 'CONFLICT' });
    const uma = await t.call('POST', '/customers', { body: individual('dup2', { umaAddress: '$ind-dup@sandbox.uma.money' }) });
    expect(uma.body).toMatchObject({ status: 409, code: 'UMA_ADDRESS_EXISTS' });
    const race = await Promise.all(Array.from({ length: 6 }, () => t.call('POST', '/customers', { body: individual('race') })));
    expect(race.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
  });

  it('gets, patches (EDD fields), lists with filters and pagination', async () => {
    const created = (await t.call('POST', '/customers', { body: individual('p1', { identifier: '123-45-6789', idType: 'SSN' }) })).body;
    expect(created.identifierLast4).toBe('6789');
    expect(JSON.stringify(created)).not.toContain('123-45-6789');
    const patched = await t.call('PATCH', `/customers/${created.id}`, { body: { sourceOfWealthCategories: ['SALARY'], purposeOfAccount: 'P2P_TRANSFERS', annualIncomeRange: 'RANGE_100K_250K' } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ sourceOfWealthCategories: ['SALARY'], purposeOfAccount: 'P2P_TRANSFERS', annualIncomeRange: 'RANGE_100K_250K' });
    expect((await t.call('GET', `/customers/${created.id}`)).body).toEqual(patched.body);
    // OTHER needs its description (published CustomerEdd); the description is kept and answered.
    const other = await t.call('PATCH', `/customers/${created.id}`, { body: { sourceOfFundsCategories: ['OTHER'] } });
    expect(other.body).toMatchObject({ status: 400, details: { errors: [{ field: 'sourceOfFundsOtherDescription' }] } });
    const described = await t.call('PATCH', `/customers/${created.id}`, { body: { sourceOfFundsCategories: ['OTHER'], sourceOfFundsOtherDescription: 'Contest winnings', purposeOfAccount: 'OTHER', purposeOfAccountOtherDescription: 'Household budget' } });
    expect(described.body).toMatchObject({ sourceOfFundsCategories: ['OTHER'], sourceOfFundsOtherDescription: 'Contest winnings', purposeOfAccountOtherDescription: 'Household budget' });
    const both = await t.call('PATCH', `/customers/${created.id}`, { body: { email: 'a@x.com', phoneNumber: '+14155550100' } });
    expect(both.status).toBe(400);
    expect((await t.call('PATCH', `/customers/${created.id}`, { body: { customerType: 'BUSINESS' } })).status).toBe(400);

    const byId = await t.call('GET', '/customers?platformCustomerId=ind-p1');
    expect(byId.body).toMatchObject({ totalCount: 1, hasMore: false, data: [{ id: created.id }] });
    const businesses = await t.call('GET', '/customers?customerType=BUSINESS&limit=1');
    expect(businesses.body.data.every((c: { customerType: string }) => c.customerType === 'BUSINESS')).toBe(true);
    expect((await t.call('GET', '/customers?customerType=ALIEN')).status).toBe(400);
  });

  it('patches a business with a partial businessInfo (published BusinessInfoUpdate), merged into the stored one', async () => {
    const created = (await t.call('POST', '/customers', { body: business('bp1') })).body;
    const patched = await t.call('PATCH', `/customers/${created.id}`, { body: { customerType: 'BUSINESS', businessInfo: { doingBusinessAs: 'Acme' } } });
    expect(patched.status).toBe(200);
    expect(patched.body.businessInfo).toEqual({ ...created.businessInfo, doingBusinessAs: 'Acme' });
    // A field sent replaces that field; the others stay.
    const renamed = await t.call('PATCH', `/customers/${created.id}`, { body: { businessInfo: { legalName: 'Acme Renamed LLC', countriesOfOperation: ['US', 'CA'] } } });
    expect(renamed.body.businessInfo).toEqual({ ...created.businessInfo, doingBusinessAs: 'Acme', legalName: 'Acme Renamed LLC', countriesOfOperation: ['US', 'CA'] });
    expect((await t.call('GET', `/customers/${created.id}`)).body).toEqual(renamed.body);
    // The per-field rules still hold for the fields sent, and the whole-profile rules for the merged result.
    const cases: [Record<string, unknown>, string][] = [
      [{ taxId: '' }, 'businessInfo.taxId'],
      [{ naicsCode: 'x1' }, 'businessInfo.naicsCode'],
      [{ country: 'XX' }, 'businessInfo.country'],
      [{ legalName: null }, 'businessInfo.legalName'],
      [{ incorporatedOn: '2999-01-01' }, 'businessInfo.incorporatedOn'],
      [{ businessType: 'ALCHEMY' }, 'businessInfo.businessType'],
      [{ shoeSize: 44 }, 'businessInfo.shoeSize'],
    ];
    for (const [businessInfo, field] of cases) {
      const res = await t.call('PATCH', `/customers/${created.id}`, { body: { businessInfo } });
      expect([res.status, res.body.details?.errors.map((e: { field: string }) => e.field)]).toEqual([400, [field]]);
    }
    // An individual still cannot take businessInfo, partial or not.
    const ind = (await t.call('POST', '/customers', { body: individual('bp2') })).body;
    const onIndividual = await t.call('PATCH', `/customers/${ind.id}`, { body: { businessInfo: { doingBusinessAs: 'Acme' } } });
    expect(onIndividual.body).toMatchObject({ status: 400, details: { errors: [{ field: 'businessInfo' }] } });
  });

  it('takes and answers the published BusinessInfo fields on create and update', async () => {
    const published = {
      doingBusinessAs: 'Acme', entityType: 'LLC', businessType: 'PROFESSIONAL_SCIENTIFIC_AND_TECHNICAL_SERVICES', countriesOfOperation: ['US'],
      purposeOfAccount: 'OTHER', purposeOfAccountOtherDescription: 'Escrow for equipment leases', sourceOfFunds: 'Funds derived from customer payments',
      sourceOfFundsCategories: ['OTHER'], sourceOfFundsOtherDescription: 'Proceeds from a legal settlement', expectedMonthlyTransactionCount: 'COUNT_100_TO_500',
      expectedMonthlyTransactionVolume: 'VOLUME_100K_TO_1M', expectedRecipientJurisdictions: ['US', 'MX'], expectedCounterpartyCountries: ['MX'], naicsCode: '541511',
      primaryContactFirstName: 'Jane', primaryContactLastName: 'Smith',
    };
    const base = business('bf1');
    const created = await t.call('POST', '/customers', { body: { ...base, businessInfo: { ...base.businessInfo, ...published } } });
    expect(created.status).toBe(201);
    expect(created.body.businessInfo).toEqual({ ...base.businessInfo, ...published });
    const updated = await t.call('PATCH', `/customers/${created.body.id}`, { body: { customerType: 'BUSINESS', businessInfo: { businessType: 'RETAIL_TRADE', expectedCounterpartyCountries: ['CA'], primaryContactLastName: 'Jones' } } });
    expect(updated.status).toBe(200);
    expect(updated.body.businessInfo).toEqual({ ...base.businessInfo, ...published, businessType: 'RETAIL_TRADE', expectedCounterpartyCountries: ['CA'], primaryContactLastName: 'Jones' });
  });

  it('says a required businessInfo field is required when it is absent on create', async () => {
    const res = await t.call('POST', '/customers', { body: business('br1', { businessInfo: { legalName: 'Acme br1 LLC' } }) });
    expect(res.status).toBe(400);
    expect(res.body.details.errors).toEqual(expect.arrayContaining([
      expect.objectContaining({ field: 'businessInfo.country', message: 'country is required' }),
      expect.objectContaining({ field: 'businessInfo.incorporatedOn', message: 'incorporatedOn is required' }),
      expect.objectContaining({ field: 'businessInfo.taxId', message: 'taxId is required' }),
    ]));
    expect(res.body.details.errors).toHaveLength(3);
  });

  it('takes an address without city (published Address: line1, postalCode and country), keeping the country rules', async () => {
    const created = await t.call('POST', '/customers', { body: individual('ac1', { address: { line1: '1 Main St', state: 'IL', postalCode: '62701', country: 'US' } }) });
    expect(created.status).toBe(201);
    expect(created.body.address).toEqual({ line1: '1 Main St', state: 'IL', postalCode: '62701', country: 'US' });
    const moved = await t.call('PATCH', `/customers/${created.body.id}`, { body: { address: { line1: '10 Downing St', postalCode: 'SW1A 2AA', country: 'GB' } } });
    expect(moved.status).toBe(200);
    expect(moved.body.address).toEqual({ line1: '10 Downing St', postalCode: 'SW1A 2AA', country: 'GB' });
    const noState = await t.call('POST', '/customers', { body: business('ac2', { address: { line1: '9 Market St', postalCode: '94103', country: 'US' } }) });
    expect(noState.body).toMatchObject({ status: 400, details: { errors: [{ field: 'address.state' }] } });
    const noPostalCode = await t.call('POST', '/customers', { body: individual('ac3', { address: { line1: '1 Main St', city: 'Berlin', country: 'DE' } }) });
    expect(noPostalCode.body).toMatchObject({ status: 400, details: { errors: [{ field: 'address.postalCode' }] } });
  });

  it('deletes: 404 afterwards, 410 on a second delete, history kept, and listed only with isIncludingDeleted', async () => {
    const created = (await t.call('POST', '/customers', { body: individual('d1') })).body;
    // Published: 200 with the customer as it was deleted (isDeleted: true).
    const deleted = await t.call('DELETE', `/customers/${created.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id: created.id, platformCustomerId: 'ind-d1', customerType: 'INDIVIDUAL', umaAddress: created.umaAddress, isDeleted: true });
    expect((await t.call('GET', `/customers/${created.id}`)).body).toMatchObject({ status: 404, code: 'USER_NOT_FOUND' });
    expect((await t.call('DELETE', `/customers/${created.id}`)).body).toMatchObject({ status: 410, code: 'CUSTOMER_DELETED' });
    expect((await t.call('PATCH', `/customers/${created.id}`, { body: { fullName: 'x' } })).body).toMatchObject({ status: 404, code: 'USER_NOT_FOUND' });
    expect((await t.call('DELETE', '/customers/Customer:00000000-0000-7000-8000-000000000000')).body).toMatchObject({ status: 404, code: 'USER_NOT_FOUND' });
    expect((await t.call('GET', '/customers/not-an-id')).body).toMatchObject({ status: 404, code: 'USER_NOT_FOUND' });
    expect((await t.call('GET', '/customers?platformCustomerId=ind-d1')).body.totalCount).toBe(0);
    const withDeleted = await t.call('GET', '/customers?platformCustomerId=ind-d1&isIncludingDeleted=true');
    expect(withDeleted.body.data[0]).toMatchObject({ id: created.id, isDeleted: true });
    const history = await t.platform.identity.host.store.readStream(t.platform.identity.host.dataSource, created.id);
    expect(history.map((e) => e.type)).toEqual(['CustomerCreated.v1', 'CustomerDeleted.v1']);
    // The platformCustomerId is free again.
    expect((await t.call('POST', '/customers', { body: individual('d1') })).status).toBe(201);
  });

  it('emits CustomerCreated.v1 with the currencies the accounts service opens internal accounts in', async () => {
    await t.call('PATCH', '/config', { body: { supportedCurrencies: [
      { currencyCode: 'USD', minAmount: 1, maxAmount: 1_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] },
      { currencyCode: 'EUR', minAmount: 1, maxAmount: 1_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] },
    ] } });
    const created = (await t.call('POST', '/customers', { body: individual('acc') })).body;
    const [event] = await t.platform.identity.host.store.readStream(t.platform.identity.host.dataSource, created.id);
    expect(event.data).toMatchObject({ customerId: created.id, currencies: ['USD', 'EUR'], customerType: 'INDIVIDUAL' });
    const only = (await t.call('POST', '/customers', { body: individual('acc2', { currencies: ['EUR'] }) })).body;
    expect(only.currencies).toEqual(['EUR']);
  });

  it('keeps identifiers and code hashes off the bus while the event log keeps them', async () => {
    const created = (await t.call('POST', '/customers', { body: individual('pii', { identifier: '987-65-4321', idType: 'SSN' }) })).body;
    const db = new Client({ connectionString: t.database.url });
    await db.connect();
    try {
      const logged = await db.query(`SELECT data->'profile'->>'identifier' AS id FROM identity.events WHERE stream_id = $1`, [created.id]);
      expect(logged.rows[0].id).toBe('987-65-4321');
    } finally {
      await db.end();
    }
    const [event] = await t.platform.identity.host.store.readStream(t.platform.identity.host.dataSource, created.id);
    expect(JSON.stringify(redactSecrets(event as never))).not.toContain('987-65-4321');
  });
});
