import { API_VERSION } from '@payments/gateway';
import { eventually } from '@payments/testing';
import { businessRow, finishedJob, individualRow, INDIVIDUAL_COLUMNS, toCsv, uploadCsv } from './test-customer-import';
import { startTestPlatform, TestPlatform } from './test-platform';
import { servedRoutes } from './test-routes';

const customerByPcid = async (t: TestPlatform, pcid: string, auth?: string) =>
  (await t.call('GET', `/customers?platformCustomerId=${encodeURIComponent(pcid)}`, auth ? { auth } : {})).body.data as any[];

describe('bulk customer import from CSV (real HTTP)', () => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await startTestPlatform();
  });
  afterAll(() => t.stop());

  const sql = (text: string, params: unknown[] = []) => t.platform.identity.host.dataSource.query(text, params);

  it('imports a mixed file asynchronously, each row exactly as POST /customers would create it', async () => {
    const csv = toCsv([
      individualRow('mix-1', { email: 'ada@example.com', addressLine2: 'Suite 5', platformAccountId: 'acct-1', description: 'first' }),
      businessRow('mix-2', { businessRegistrationNumber: 'R-77', businessTaxId: '12-3456789' }),
      individualRow('mix-3'),
      businessRow('mix-4'), // no businessTaxId: allowed in the CSV, see docs/customers.md
    ]);
    const accepted = await uploadCsv(t, csv);
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({ jobId: expect.stringMatching(/^Job:[0-9a-f-]{36}$/), status: 'PENDING' });
    const job = await finishedJob(t, accepted.body.jobId);
    expect(job).toMatchObject({ id: accepted.body.jobId, status: 'COMPLETED', progress: { total: 4, processed: 4, succeeded: 4, successful: 4, failed: 0 }, errors: [], fileName: 'customers.csv' });
    expect(Date.parse(job.completedAt)).toBeGreaterThanOrEqual(Date.parse(job.createdAt));

    const [ada] = await customerByPcid(t, 'mix-1');
    expect(ada).toMatchObject({
      customerType: 'INDIVIDUAL', umaAddress: '$mix-1@sandbox.uma.money', fullName: 'Person mix-1', birthDate: '1988-04-12', email: 'ada@example.com', kycStatus: 'UNVERIFIED',
      currencies: ['USD'], address: { line1: '1 Main St', line2: 'Suite 5', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' },
    });
    const [acme] = await customerByPcid(t, 'mix-2');
    expect(acme).toMatchObject({ customerType: 'BUSINESS', kybStatus: 'UNVERIFIED', businessInfo: { legalName: 'Company mix-2 LLC', country: 'US', registrationNumber: 'R-77', taxId: '12-3456789' } });
    const [noTax] = await customerByPcid(t, 'mix-4');
    expect(noTax.businessInfo).toEqual({ legalName: 'Company mix-4 LLC', country: 'US' });
    // Same events as POST /customers; the metadata ties each to its job and row.
    const events = await sql(`SELECT metadata->>'correlationId' AS correlation FROM identity.events WHERE type = 'CustomerCreated.v1' AND metadata->>'correlationId' LIKE $1 ORDER BY 1`, [`${job.id}#%`]);
    expect(events.map((e: any) => e.correlation)).toEqual([1, 2, 3, 4].map((n) => `${job.id}#row-${n}`));
    const lifecycle = await sql(`SELECT type FROM identity.events WHERE stream_id = $1 ORDER BY stream_version`, [job.id]);
    expect(lifecycle.map((e: any) => e.type)).toEqual(['CustomerImportJobCreated.v1', 'CustomerImportJobStarted.v1', 'CustomerImportJobCompleted.v1']);
  });

  it('reports every problem of a row with its 1-based row number and column, and imports the rest', async () => {
    const csv = toCsv([
      individualRow('err-1', { fullName: '', birthDate: '' }), // 1: required cells missing
      individualRow('err-2', { birthDate: '1990-02-30', country: 'XX' }), // 2: not a date, not a country
      individualRow('err-3', { birthDate: '2999-01-01' }), // 3: a domain rule (birthDate in the past)
      individualRow('err-4', { customerType: 'PERSON' }), // 4
      businessRow('err-5', { fullName: 'Bob' }), // 5: an individual's column on a business
      individualRow('err-6', { postalCode: 'ABC' }), // 6: US ZIP rule of the customer aggregate
      individualRow('err-7', { umaAddress: 'not-an-address' }), // 7
      individualRow('err-8'), // 8: fine
    ]);
    const broken = csv.trimEnd().split('\n');
    broken.push('$short@sandbox.uma.money,err-9,INDIVIDUAL'); // 9: too few fields
    const job = await finishedJob(t, (await uploadCsv(t, broken.join('\n'))).body.jobId);
    expect(job.progress).toEqual({ total: 9, processed: 9, succeeded: 1, successful: 1, failed: 8 }); // successful: the published name
    const byRow = (row: number) => job.errors.filter((e: any) => e.row === row).map((e: any) => [e.field, e.code]);
    expect(byRow(1)).toEqual([['fullName', 'INVALID_INPUT'], ['birthDate', 'INVALID_INPUT']]);
    expect(byRow(2)).toEqual(expect.arrayContaining([['birthDate', 'INVALID_INPUT'], ['country', 'INVALID_INPUT']]));
    expect(byRow(3)).toEqual([['birthDate', 'INVALID_INPUT']]);
    expect(byRow(4)).toEqual([['customerType', 'INVALID_INPUT']]);
    expect(byRow(5)).toEqual([['fullName', 'INVALID_INPUT']]);
    expect(byRow(6)).toEqual([['postalCode', 'INVALID_INPUT']]);
    expect(byRow(7)).toEqual([['umaAddress', 'INVALID_INPUT']]);
    expect(byRow(8)).toEqual([]);
    expect(job.errors.find((e: any) => e.row === 9)).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/3 fields/) });
    expect(job.errors.find((e: any) => e.row === 3)).toMatchObject({ correlationId: 'err-3', message: 'birthDate must be in the past' });
    expect(await customerByPcid(t, 'err-8')).toHaveLength(1);
    expect(await customerByPcid(t, 'err-3')).toHaveLength(0);
  });

  it('refuses duplicates within the file (the first valid row wins) and against existing customers', async () => {
    expect((await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', platformCustomerId: 'dup-existing', umaAddress: '$taken@sandbox.uma.money' } })).status).toBe(201);
    const csv = toCsv([
      individualRow('dup-existing'), // 1: platformCustomerId taken by an existing customer
      individualRow('dup-new', { umaAddress: '$TAKEN@sandbox.uma.money' }), // 2: umaAddress taken (case-insensitive)
      individualRow('dup-a'), // 3
      individualRow('dup-a', { umaAddress: '$other-a@sandbox.uma.money' }), // 4: repeats row 3's platformCustomerId
      individualRow('dup-c', { umaAddress: '$dup-a@sandbox.uma.money' }), // 5: repeats row 3's umaAddress
      individualRow('dup-b', { birthDate: 'soon' }), // 6: invalid, so it creates nothing...
      individualRow('dup-b'), // 7: ...and this one is imported
    ]);
    const job = await finishedJob(t, (await uploadCsv(t, csv)).body.jobId);
    expect(job.progress).toMatchObject({ succeeded: 2, failed: 5 });
    const summary = job.errors.map((e: any) => ({ row: e.row, field: e.field, code: e.code }));
    expect(summary).toEqual([
      { row: 1, field: 'platformCustomerId', code: 'CONFLICT' },
      { row: 2, field: 'umaAddress', code: 'UMA_ADDRESS_EXISTS' },
      { row: 4, field: 'platformCustomerId', code: 'CONFLICT' },
      { row: 5, field: 'umaAddress', code: 'UMA_ADDRESS_EXISTS' },
      { row: 6, field: 'birthDate', code: 'INVALID_INPUT' },
    ]);
    expect(job.errors[2].message).toBe('platformCustomerId repeats row 3 of this file');
    expect(job.errors[3].message).toBe('umaAddress repeats row 3 of this file');
    expect(await customerByPcid(t, 'dup-a')).toHaveLength(1);
    expect((await customerByPcid(t, 'dup-a'))[0].umaAddress).toBe('$dup-a@sandbox.uma.money');
    expect(await customerByPcid(t, 'dup-b')).toHaveLength(1);
  });

  it('reads real CSV: a BOM, CRLF, quoted commas, quotes and line breaks, any column order', async () => {
    const columns = ['customerType', 'platformCustomerId', 'umaAddress', 'fullName', 'birthDate', 'addressLine1', 'addressLine2', 'city', 'state', 'postalCode', 'country', 'description'];
    const row = individualRow('quoted-1', { fullName: 'Doe, Jane "JJ"', addressLine2: 'Apt 4\nBuilding B', description: 'line one\r\nline two, with comma' });
    const csv = `\uFEFF${toCsv([row], columns, '\r\n')}\r\n\r\n`; // trailing blank lines are not rows
    const job = await finishedJob(t, (await uploadCsv(t, csv)).body.jobId);
    expect(job).toMatchObject({ status: 'COMPLETED', progress: { total: 1, succeeded: 1 } });
    const [customer] = await customerByPcid(t, 'quoted-1');
    expect(customer.fullName).toBe('Doe, Jane "JJ"');
    expect(customer.address.line2).toBe('Apt 4\nBuilding B');
  });

  it('answers 400 at upload for a wrong header or a file that is not a CSV, and 413/415 for size and type', async () => {
    const header = (line: string) => uploadCsv(t, `${line}\n$x@sandbox.uma.money,x,INDIVIDUAL\n`);
    const unknown = await header('umaAddress,platformCustomerId,customerType,shoeSize');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ status: 400, code: 'INVALID_INPUT', details: { errors: [{ field: 'file', message: 'unknown column "shoeSize"' }] } });
    expect((await header('umaAddress,platformCustomerId')).body.details.errors).toEqual([{ field: 'file', message: 'missing column "customerType"' }]);
    expect((await header('umaAddress,platformCustomerId,customerType,customerType')).body.details.errors[0].message).toMatch(/appears twice/);
    expect((await header('UmaAddress,platformCustomerId,customerType')).status).toBe(400); // exact names
    expect((await header('umaAddress;platformCustomerId;customerType')).status).toBe(400); // not comma-separated
    expect((await uploadCsv(t, '')).body).toMatchObject({ status: 400, message: expect.stringMatching(/empty/) });
    expect((await uploadCsv(t, Buffer.from([0xff, 0xfe, 0x00, 0x41]))).body).toMatchObject({ status: 400, details: { errors: [{ field: 'file' }] } });
    expect((await uploadCsv(t, toCsv([individualRow('x')]), { name: 'x.csv' })).status).toBe(202);
    const noFile = await t.call('POST', '/customers/bulk/csv', { body: {} });
    expect(noFile.body).toMatchObject({ status: 400, details: { errors: [{ field: 'file' }] } });
    const plain = await t.call('POST', '/customers/bulk/csv', { rawBody: 'a,b', headers: { 'content-type': 'text/csv' } });
    expect(plain).toMatchObject({ status: 415, body: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
    const huge = await uploadCsv(t, Buffer.alloc(20 * 1024 * 1024 + 1, 'a'));
    expect(huge).toMatchObject({ status: 413, body: { status: 413, code: 'PAYLOAD_TOO_LARGE' } });
    const viewer = await t.call('POST', '/tokens', { body: { name: 'viewer', permissions: ['VIEW'] } });
    const viewOnly = `Basic ${Buffer.from(`${viewer.body.clientId}:${viewer.body.clientSecret}`).toString('base64')}`;
    expect((await uploadCsv(t, toCsv([individualRow('v')]), { auth: viewOnly })).status).toBe(403);
  });

  it('fails a job whose file turns out malformed past the header, without importing any row', async () => {
    const csv = `${toCsv([individualRow('malformed-1')])}$m2@sandbox.uma.money,malformed-2,INDIVIDUAL,"unclosed\n`;
    const job = await finishedJob(t, (await uploadCsv(t, csv)).body.jobId);
    expect(job).toMatchObject({ status: 'FAILED', errors: [{ row: 2, code: 'INVALID_INPUT', message: expect.stringMatching(/malformed CSV/) }], completedAt: expect.any(String) });
    expect(await customerByPcid(t, 'malformed-1')).toHaveLength(0);
  });

  it('routes /customers/bulk/... before /customers/:customerId', async () => {
    const paths = servedRoutes(t.platform.gateway.server).map((r) => r.path.replace(`/${API_VERSION}`, ''));
    expect(paths.indexOf('/customers/bulk/jobs/:jobId')).toBeGreaterThanOrEqual(0);
    expect(paths.indexOf('/customers/bulk/jobs/:jobId')).toBeLessThan(paths.indexOf('/customers/:customerId'));
    const missing = await t.call('GET', '/customers/bulk/jobs/Job:00000000-0000-7000-8000-000000000000');
    expect(missing.body).toMatchObject({ status: 404, code: 'BULK_UPLOAD_JOB_NOT_FOUND' });
    expect((await t.call('GET', '/customers/bulk/jobs/nonsense')).body.code).toBe('BULK_UPLOAD_JOB_NOT_FOUND');
  });

  it('replays an upload with the same Idempotency-Key instead of starting a second job', async () => {
    const csv = toCsv([individualRow('idem-1')]);
    const first = await uploadCsv(t, csv, { headers: { 'idempotency-key': 'bulk-idem-1' } });
    const again = await uploadCsv(t, csv, { headers: { 'idempotency-key': 'bulk-idem-1' } });
    expect(again.status).toBe(202);
    expect(again.body.jobId).toBe(first.body.jobId);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await uploadCsv(t, toCsv([individualRow('idem-2')]), { headers: { 'idempotency-key': 'bulk-idem-1' } })).status).toBe(409);
  });

  it('keeps jobs and their customers to the platform and mode that uploaded them', async () => {
    const stranger = await t.createTenant('bulk stranger');
    const job = await finishedJob(t, (await uploadCsv(t, toCsv([individualRow('tenant-1')]))).body.jobId);
    for (const auth of [stranger.sandbox, stranger.production, t.tenant.production]) {
      expect((await t.call('GET', `/customers/bulk/jobs/${job.id}`, { auth })).body).toMatchObject({ status: 404, code: 'BULK_UPLOAD_JOB_NOT_FOUND' });
      expect(await customerByPcid(t, 'tenant-1', auth)).toHaveLength(0);
    }
    // The same platformCustomerId is free on another platform: uniqueness is per platform and mode.
    const theirs = await finishedJob(t, (await uploadCsv(t, toCsv([individualRow('tenant-1')]), { auth: stranger.sandbox })).body.jobId, { auth: stranger.sandbox });
    expect(theirs.progress.succeeded).toBe(1);
  });

  it('survives a restart in the middle of a job: every row is imported exactly once', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => individualRow(`restart-${i}`));
    const jobId = (await uploadCsv(t, toCsv(rows, INDIVIDUAL_COLUMNS))).body.jobId;
    await eventually(async () => {
      const job = (await t.call('GET', `/customers/bulk/jobs/${jobId}`)).body;
      if (job.status === 'COMPLETED') throw new Error('the job finished before the restart; make the file larger');
      return job.status === 'PROCESSING' && job.progress.processed > 0;
    }, { what: 'the job to be half-way' });
    await t.restart();
    const job = await finishedJob(t, jobId, { timeoutMs: 60_000 });
    expect(job).toMatchObject({ status: 'COMPLETED', progress: { total: 3000, processed: 3000, succeeded: 3000, failed: 0 }, errors: [] });
    const [counts] = await sql(
      `SELECT count(*)::int AS customers, count(DISTINCT platform_customer_id)::int AS distinct_ids FROM identity.customers WHERE platform_customer_id LIKE 'restart-%'`,
    );
    expect(counts).toEqual({ customers: 3000, distinct_ids: 3000 });
    const [created] = await sql(`SELECT count(*)::int AS n FROM identity.events WHERE type = 'CustomerCreated.v1' AND metadata->>'correlationId' LIKE $1`, [`${jobId}#%`]);
    expect(created.n).toBe(3000);
    const [recovered] = await sql(`SELECT count(*)::int AS n FROM identity.customer_import_rows WHERE job_id = $1 AND recovered`, [jobId]);
    console.log(`restart: ${recovered.n} rows of the interrupted batch were created before the restart and recorded after it`);
  }, 120_000);

  // A batch interrupted by a crash (its customers created, its outcomes not committed) is repeated idempotently:
  // bulk-import-after-crash.e2e.spec.ts SIGKILLs the built launcher at that moment.

  it('imports 10,000 rows in reasonable time', async () => {
    const rows = Array.from({ length: 10_000 }, (_, i) =>
      i % 4 === 3 ? businessRow(`bulk10k-${i}`, { businessTaxId: `TX-${i}` }) : individualRow(`bulk10k-${i}`, { email: `p${i}@example.com`, fullName: `Person ${i}, Jr.` }),
    );
    const csv = toCsv(rows);
    const started = performance.now();
    const accepted = await uploadCsv(t, csv);
    const acceptedMs = performance.now() - started;
    expect(accepted.status).toBe(202);
    // Bounded well above what this takes on 2 cores (10,000 customers, each also consumed by accounts, quoting, payments
    // and the webhook dispatcher in the same process): measured 246 s alone (41 rows/s) on this machine, where the code
    // before #27 imports at the same rate (1,500 rows: 68 rows/s on Node 20, 76-83 on Node 24).
    const job = await finishedJob(t, accepted.body.jobId, { timeoutMs: 480_000 });
    const seconds = (performance.now() - started) / 1000;
    console.log(`10,000-row CSV (${(Buffer.byteLength(csv) / 1e6).toFixed(1)} MB): 202 after ${acceptedMs.toFixed(0)} ms, COMPLETED after ${seconds.toFixed(1)} s (${Math.round(10_000 / seconds)} rows/s)`);
    expect(job.progress).toEqual({ total: 10_000, processed: 10_000, succeeded: 10_000, successful: 10_000, failed: 0 });
    expect((await t.call('GET', '/customers?limit=1&platformCustomerId=bulk10k-9999')).body.totalCount).toBe(1);
  }, 510_000);
});
