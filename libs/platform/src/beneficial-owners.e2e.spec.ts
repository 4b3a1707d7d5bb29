import { redactSecrets } from '@payments/identity';
import { startTestPlatform, TestPlatform } from './test-platform';
import { businessBody, createCustomer, individualBody, ownerBody } from './test-kyc';

describe('beneficial owners through the gateway', () => {
  let t: TestPlatform;
  let business: string;
  beforeAll(async () => {
    t = await startTestPlatform();
    business = await createCustomer(t, businessBody('OWN-1'));
  });
  afterAll(() => t.stop());

  it('adds an owner: PENDING, the identifier write-only (last four back), PII off the bus', async () => {
    const res = await t.call('POST', '/beneficial-owners', { body: ownerBody(business, 'Hopper', { roles: ['UBO', 'DIRECTOR'], ownershipPercentage: 35 }) });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^BeneficialOwner:[0-9a-f-]{36}$/),
      customerId: business,
      roles: ['UBO', 'DIRECTOR'],
      ownershipPercentage: 35,
      personalInfo: {
        firstName: 'Grace', lastName: 'Hopper', birthDate: '1970-12-09', nationality: 'US',
        address: { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' },
        idType: 'SSN', identifierLast4: '6789',
      },
      kycStatus: 'PENDING',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(JSON.stringify(res.body)).not.toContain('123-45-6789');
    expect((await t.call('GET', `/beneficial-owners/${res.body.id}`)).body).toEqual(res.body);
    const [event] = await t.platform.identity.host.store.readStream(t.platform.identity.host.dataSource, res.body.id);
    expect(JSON.stringify(event.data)).toContain('123-45-6789'); // the log keeps it, to rebuild read models
    expect(JSON.stringify(redactSecrets(event as never))).not.toContain('123-45-6789');
  });

  it('validates: business customers only, the caller’s own, dates, roles, percentages, 100 % in total', async () => {
    const individual = await createCustomer(t, individualBody('Not A Business'));
    const toIndividual = await t.call('POST', '/beneficial-owners', { body: ownerBody(individual, 'X') });
    expect(toIndividual.body).toMatchObject({ status: 400, code: 'INVALID_INPUT', details: { errors: [{ field: 'customerId' }] } });
    expect((await t.call('POST', '/beneficial-owners', { body: ownerBody('Customer:00000000-0000-7000-8000-000000000000', 'X') })).body).toMatchObject({ status: 404, code: 'USER_NOT_FOUND' });
    const stranger = await t.createTenant('owners stranger');
    expect((await t.call('POST', '/beneficial-owners', { auth: stranger.sandbox, body: ownerBody(business, 'X') })).status).toBe(404);
    expect((await t.call('POST', '/beneficial-owners', { auth: t.tenant.production, body: ownerBody(business, 'X') })).status).toBe(404);
    const invalid: [Record<string, unknown>, string][] = [
      [{ roles: [] }, 'roles'],
      [{ roles: ['OWNER'] }, 'roles'],
      [{ ownershipPercentage: 12.5 }, 'ownershipPercentage'],
      [{ ownershipPercentage: 101 }, 'ownershipPercentage'],
      [{ personalInfo: { ...ownerBody('', 'Doe').personalInfo, birthDate: '2999-01-01' } }, 'personalInfo.birthDate'],
      [{ personalInfo: { ...ownerBody('', 'Doe').personalInfo, nationality: 'XX' } }, 'personalInfo.nationality'],
      [{ personalInfo: { ...ownerBody('', 'Doe').personalInfo, identifier: '12345' } }, 'personalInfo.identifier'],
      [{ personalInfo: { ...ownerBody('', 'Doe').personalInfo, phoneNumber: '0151' } }, 'personalInfo.phoneNumber'],
      [{ personalInfo: { ...ownerBody('', 'Doe').personalInfo, address: undefined } }, 'personalInfo.address'],
      [{ personalInfo: undefined }, 'personalInfo'],
    ];
    for (const [extra, field] of invalid) {
      const res = await t.call('POST', '/beneficial-owners', { body: ownerBody(business, 'Invalid', extra) });
      expect([res.status, field, res.body.details?.errors?.map((e: { field: string }) => e.field)]).toEqual([400, field, expect.arrayContaining([field])]);
    }
    const crowded = await createCustomer(t, businessBody('OWN-2'));
    expect((await t.call('POST', '/beneficial-owners', { body: ownerBody(crowded, 'A', { ownershipPercentage: 60 }) })).status).toBe(201);
    const over = await t.call('POST', '/beneficial-owners', { body: ownerBody(crowded, 'B', { ownershipPercentage: 41 }) });
    expect(over.body).toMatchObject({ status: 400, details: { errors: [{ field: 'ownershipPercentage' }] } });
    // Concurrent adds cannot pass the bound together: owners of one business are written one at a time.
    const race = await Promise.all([1, 2, 3].map((n) => t.call('POST', '/beneficial-owners', { body: ownerBody(crowded, `R${n}`, { ownershipPercentage: 30 }) })));
    expect(race.map((r) => r.status).sort()).toEqual([201, 400, 400]);
  });

  it('patches only the fields sent, within the 100 % bound', async () => {
    const customerId = await createCustomer(t, businessBody('OWN-3'));
    const a = (await t.call('POST', '/beneficial-owners', { body: ownerBody(customerId, 'Patchable', { ownershipPercentage: 50 }) })).body;
    await t.call('POST', '/beneficial-owners', { body: ownerBody(customerId, 'Other', { ownershipPercentage: 40 }) });
    const patched = await t.call('PATCH', `/beneficial-owners/${a.id}`, { body: { roles: ['UBO', 'CONTROL_PERSON'], personalInfo: { middleName: 'M', identifier: '987-65-4321' } } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ roles: ['UBO', 'CONTROL_PERSON'], ownershipPercentage: 50, personalInfo: { firstName: 'Grace', middleName: 'M', lastName: 'Patchable', identifierLast4: '4321' } });
    expect(Date.parse(patched.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(a.updatedAt));
    expect((await t.call('PATCH', `/beneficial-owners/${a.id}`, { body: { ownershipPercentage: 61 } })).status).toBe(400);
    expect((await t.call('PATCH', `/beneficial-owners/${a.id}`, { body: { ownershipPercentage: 60 } })).body.ownershipPercentage).toBe(60);
    expect((await t.call('PATCH', `/beneficial-owners/${a.id}`, { body: { customerId: business } })).status).toBe(400); // cannot move
    expect((await t.call('PATCH', '/beneficial-owners/BeneficialOwner:00000000-0000-7000-8000-000000000000', { body: { ownershipPercentage: 1 } })).body).toMatchObject({ status: 404, code: 'REFERENCE_NOT_FOUND' });
    // The published Address: city may be absent; line1, postalCode and country may not.
    const cityless = await t.call('PATCH', `/beneficial-owners/${a.id}`, { body: { personalInfo: { address: { line1: '1 Main St', postalCode: '94105', country: 'US', state: 'CA' } } } });
    expect(cityless.status).toBe(200);
    expect(cityless.body.personalInfo.address).toEqual({ line1: '1 Main St', postalCode: '94105', country: 'US', state: 'CA' });
    expect((await t.call('PATCH', `/beneficial-owners/${a.id}`, { body: { personalInfo: { address: { line1: '1 Main St', country: 'US' } } } })).body).toMatchObject({ status: 400, details: { errors: [{ field: 'personalInfo.address.postalCode' }] } });
  });

  it('lists the owners of one business (customerId required), paginated; a deleted business takes its owners along', async () => {
    const customerId = await createCustomer(t, businessBody('OWN-4'));
    const ids: string[] = [];
    for (const n of [1, 2, 3]) ids.push((await t.call('POST', '/beneficial-owners', { body: ownerBody(customerId, `L${n}`, { ownershipPercentage: 10 }) })).body.id);
    expect((await t.call('GET', '/beneficial-owners')).status).toBe(400);
    expect((await t.call('GET', '/beneficial-owners?customerId=Customer:00000000-0000-7000-8000-000000000000')).body).toMatchObject({ status: 404, code: 'USER_NOT_FOUND' });
    const first = await t.call('GET', `/beneficial-owners?customerId=${customerId}&limit=2`);
    expect(first.body).toMatchObject({ hasMore: true, totalCount: 3 });
    const second = await t.call('GET', `/beneficial-owners?customerId=${customerId}&limit=2&cursor=${first.body.nextCursor}`);
    expect([...first.body.data, ...second.body.data].map((o: { id: string }) => o.id).sort()).toEqual(ids.sort());
    await t.call('DELETE', `/customers/${customerId}`);
    expect((await t.call('GET', `/beneficial-owners/${ids[0]}`)).status).toBe(404);
    expect((await t.call('GET', `/beneficial-owners?customerId=${customerId}`)).status).toBe(404);
  });
});
