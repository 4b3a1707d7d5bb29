import { createHash } from 'node:crypto';
import { CallerContext } from '@payments/contracts';
import { v7 as uuidv7 } from 'uuid';
import { createCustomerHolder, sendForm, tinyJpeg, tinyPdf, tinyPng, uploadDocument } from './test-documents';
import { startTestPlatform, TestPlatform } from './test-platform';

const MB10 = 10 * 1024 * 1024;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
/** A PDF padded to an exact size: the type check reads only the first bytes. */
const pdfOfSize = (size: number) => Buffer.concat([tinyPdf(), Buffer.alloc(size - tinyPdf().length, 0x20)]);

describe('documents through the gateway', () => {
  let t: TestPlatform;
  let holder: string;
  beforeAll(async () => {
    t = await startTestPlatform();
    holder = await createCustomerHolder(t);
  });
  afterAll(() => t.stop());

  const db = () => t.platform.identity.host.dataSource;
  /** Everything an upload could leave behind: events, read-model rows and stored files. */
  const footprint = async () =>
    (await db().query(`SELECT (SELECT count(*)::int FROM identity.events WHERE stream_id LIKE 'Document:%') AS events,
                              (SELECT count(*)::int FROM identity.documents) AS rows,
                              (SELECT count(*)::int FROM identity.document_files) AS files`))[0];
  const callerOf = async (holderId: string): Promise<CallerContext> => {
    const [row] = await db().query(`SELECT platform_id, mode FROM identity.customers WHERE customer_id = $1`, [holderId]);
    return { platformId: row.platform_id, mode: row.mode, clientId: 'test', permissions: ['VIEW', 'MANAGE'] };
  };

  it('uploads PDF, JPEG and PNG, recognising the type from the bytes and keeping them intact', async () => {
    for (const [name, bytes, contentType] of [['id.pdf', tinyPdf(), 'application/pdf'], ['face.jpg', tinyJpeg(), 'image/jpeg'], ['bill.png', tinyPng(), 'image/png']] as const) {
      const res = await uploadDocument(t, holder, { file: { name, bytes }, fields: { side: 'FRONT', documentNumber: 'P-1', issuingAuthority: 'Stadt Berlin' } });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^Document:[0-9a-f-]{36}$/),
        documentHolder: holder,
        documentType: 'PASSPORT',
        side: 'FRONT',
        country: 'DE',
        documentNumber: 'P-1',
        issuingAuthority: 'Stadt Berlin',
        fileName: name,
        contentType,
        sizeBytes: bytes.length,
        sha256: sha256(bytes),
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      expect((await t.call('GET', `/documents/${res.body.id}`)).body).toEqual(res.body);
      const content = await t.platform.identity.documents.getContent(await callerOf(holder), res.body.id);
      expect(content).toEqual({ fileName: name, contentType, bytes });
    }
  });

  it('seals the bytes at rest: PostgreSQL holds none of the plaintext, the service still serves the original', async () => {
    for (const bytes of [tinyPdf(), tinyPng(3), tinyJpeg()]) {
      const res = await uploadDocument(t, holder, { file: { name: 'sealed', bytes } });
      expect(res.status).toBe(201);
      const rows: { content: Buffer }[] = await db().query(`SELECT content FROM identity.document_files WHERE file_key LIKE $1`, [`${res.body.id}/%`]);
      expect(rows).toHaveLength(1);
      const stored = rows[0].content;
      expect(stored.equals(bytes)).toBe(false);
      // Not a single 8-byte window of the file is found in what is stored (the magic numbers included).
      for (let at = 0; at + 8 <= bytes.length; at += 4) expect({ at, found: stored.includes(bytes.subarray(at, at + 8)) }).toEqual({ at, found: false });
      expect((await t.platform.identity.documents.getContent(await callerOf(holder), res.body.id)).bytes).toEqual(bytes);
    }
  });

  it('keeps UTF-8 file names and records no bytes in events', async () => {
    const res = await uploadDocument(t, holder, { file: { name: 'Führerschein 🚗.png', bytes: tinyPng(7) } });
    expect(res.body.fileName).toBe('Führerschein 🚗.png');
    const [event] = await db().query(`SELECT data FROM identity.events WHERE stream_id = $1`, [res.body.id]);
    expect(event.data).toMatchObject({ sha256: res.body.sha256, sizeBytes: res.body.sizeBytes, contentType: 'image/png' });
    expect(JSON.stringify(event.data)).not.toContain(tinyPng(7).toString('base64'));
  });

  it('rejects a .pdf that is not a PDF with 400 naming file, and leaves nothing behind', async () => {
    const before = await footprint();
    const res = await uploadDocument(t, holder, { file: { name: 'statement.pdf', bytes: Buffer.from('<html>not a pdf</html>') } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, code: 'INVALID_INPUT', details: { errors: [{ field: 'file', message: expect.stringMatching(/PDF, JPEG or PNG/) }] } });
    expect((await uploadDocument(t, holder, { file: { name: 'empty.pdf', bytes: Buffer.alloc(0) } })).status).toBe(400);
    expect(await footprint()).toEqual(before);
  });

  it('accepts exactly 10 MB and answers 10 MB + 1 byte with 413 in the envelope', async () => {
    const atLimit = await uploadDocument(t, holder, { file: { name: 'big.pdf', bytes: pdfOfSize(MB10) } });
    expect(atLimit.status).toBe(201);
    expect(atLimit.body.sizeBytes).toBe(MB10);
    const before = await footprint();
    const over = await uploadDocument(t, holder, { file: { name: 'huge.pdf', bytes: pdfOfSize(MB10 + 1) } });
    expect(over.status).toBe(413);
    expect(over.body).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE', message: expect.any(String) });
    expect(await footprint()).toEqual(before);
  }, 60_000);

  it('answers 404 for an unknown holder, another platform\'s customer and the other mode, all alike', async () => {
    const before = await footprint();
    const missing = await uploadDocument(t, `Customer:${uuidv7()}`);
    expect(missing.status).toBe(404);
    const other = await t.createTenant('documents-other');
    const foreign = await uploadDocument(t, await createCustomerHolder(t, other.sandbox));
    const otherMode = await uploadDocument(t, holder, { auth: t.tenant.production });
    const unknownOwner = await uploadDocument(t, `BeneficialOwner:${uuidv7()}`);
    for (const res of [foreign, otherMode]) expect({ status: res.status, body: res.body }).toEqual({ status: missing.status, body: missing.body });
    // Published 404 codes: USER_NOT_FOUND for a customer, REFERENCE_NOT_FOUND for anything without a code of its own.
    expect(missing.body).toMatchObject({ status: 404, code: 'USER_NOT_FOUND' });
    expect(unknownOwner.body).toMatchObject({ status: 404, code: 'REFERENCE_NOT_FOUND' });
    expect(await footprint()).toEqual(before);
  });

  it('accepts a beneficial owner of the platform as holder', async () => {
    const owner = `BeneficialOwner:${uuidv7()}`;
    const caller = await callerOf(holder);
    // Stands in for POST /beneficial-owners, which does not exist yet: the row its projection would write.
    await db().query(
      `INSERT INTO identity.beneficial_owners (beneficial_owner_id, customer_id, platform_id, mode, body, created_at, updated_at) VALUES ($1, $2, $3, $4, '{}', now(), now())`,
      [owner, holder, caller.platformId, caller.mode],
    );
    const res = await uploadDocument(t, owner, { fields: { documentType: 'PROOF_OF_ADDRESS', country: 'US' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ documentHolder: owner, documentType: 'PROOF_OF_ADDRESS' });
    expect((await uploadDocument(t, owner, { auth: t.tenant.production })).status).toBe(404);
  });

  it('validates the multipart fields: unknown fields, enums, countries, the file part and JSON bodies', async () => {
    const fieldsOf = (res: { body: { details?: { errors?: { field: string }[] } } }) => res.body.details?.errors?.map((e) => e.field).sort();
    const unknown = await uploadDocument(t, holder, { fields: { color: 'blue' } });
    expect(unknown.status).toBe(400);
    expect(fieldsOf(unknown)).toEqual(['color']);
    const bad = await uploadDocument(t, holder, { fields: { documentType: 'DIPLOMA', country: 'XX', side: 'TOP' } });
    expect(fieldsOf(bad)).toEqual(['country', 'documentType', 'side']);
    const noFile = await sendForm(t, 'POST', '/documents', { documentHolder: holder, documentType: 'PASSPORT', country: 'DE' });
    expect(noFile.body).toMatchObject({ status: 400, code: 'INVALID_INPUT', details: { errors: [{ field: 'file' }] } });
    const wrongPart = await uploadDocument(t, holder, { file: { name: 'a.pdf', bytes: tinyPdf(), part: 'attachment' } });
    expect(wrongPart.body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    const json = await t.call('POST', '/documents', { body: { documentHolder: holder, documentType: 'PASSPORT', country: 'DE' } });
    expect(json.body).toMatchObject({ status: 400, code: 'INVALID_INPUT', details: { errors: [{ field: 'file' }] } });
    const text = await t.call('POST', '/documents', { rawBody: 'hello', headers: { 'content-type': 'text/plain' } });
    expect(text.body).toMatchObject({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
    const elsewhere = await sendForm(t, 'POST', '/tokens', { name: 'x' });
    expect(elsewhere.body).toMatchObject({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' }); // multipart only where files go
  });

  it('needs MANAGE to write and VIEW to read', async () => {
    const viewer = (await t.call('POST', '/tokens', { body: { name: 'doc-viewer', permissions: ['VIEW'] } })).body;
    const auth = `Basic ${Buffer.from(`${viewer.clientId}:${viewer.clientSecret}`).toString('base64')}`;
    expect((await uploadDocument(t, holder, { auth })).body).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect((await t.call('GET', '/documents', { auth })).status).toBe(200);
  });

  it('lists newest first, filters by holder and paginates with a cursor', async () => {
    const mine = await createCustomerHolder(t);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await uploadDocument(t, mine, { file: { name: `${i}.png`, bytes: tinyPng(i) } })).body.id);
    const first = await t.call('GET', `/documents?documentHolder=${encodeURIComponent(mine)}&limit=2`);
    expect(first.body).toMatchObject({ hasMore: true, totalCount: 3, nextCursor: expect.any(String) });
    expect(first.body.data.map((d: { id: string }) => d.id)).toEqual([ids[2], ids[1]]);
    const second = await t.call('GET', `/documents?documentHolder=${encodeURIComponent(mine)}&limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body).toEqual({ data: [expect.objectContaining({ id: ids[0] })], hasMore: false, totalCount: 3 });
    const all = await t.call('GET', '/documents?limit=100');
    expect(all.body.data.length).toBeGreaterThan(3);
    expect((await t.call('GET', '/documents?documentHolder=Customer:nobody')).body).toEqual({ data: [], hasMore: false, totalCount: 0 });
    expect((await t.call('GET', '/documents?cursor=bogus')).status).toBe(400);
    expect((await t.call('GET', '/documents?limit=100', { auth: t.tenant.production })).body.totalCount).toBe(0); // sandbox documents only in sandbox
  });

  it('replaces the file and metadata under the same id; the holder cannot change', async () => {
    const doc = (await uploadDocument(t, holder)).body;
    const png = tinyPng(200);
    const replaced = await sendForm(t, 'PUT', `/documents/${doc.id}`, { side: 'BACK', documentType: 'NATIONAL_ID' }, [{ name: 'new.png', bytes: png }]);
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ id: doc.id, documentHolder: holder, documentType: 'NATIONAL_ID', side: 'BACK', country: 'DE', fileName: 'new.png', contentType: 'image/png', sha256: sha256(png), sizeBytes: png.length, createdAt: doc.createdAt });
    expect(replaced.body.sha256).not.toBe(doc.sha256);
    const files = await db().query(`SELECT file_key FROM identity.document_files WHERE file_key LIKE $1`, [`${doc.id}/%`]);
    expect(files).toEqual([{ file_key: `${doc.id}/${sha256(png)}` }]); // the old bytes are gone
    const json = await t.call('PUT', `/documents/${doc.id}`, { body: { documentNumber: 'N-9' } });
    expect(json.body).toMatchObject({ id: doc.id, documentNumber: 'N-9', sha256: sha256(png) });
    const moved = await sendForm(t, 'PUT', `/documents/${doc.id}`, { documentHolder: await createCustomerHolder(t) });
    expect(moved.body).toMatchObject({ status: 400, details: { errors: [{ field: 'documentHolder' }] } });
    const fake = await sendForm(t, 'PUT', `/documents/${doc.id}`, {}, [{ name: 'x.pdf', bytes: Buffer.from('nope') }]);
    expect(fake.body).toMatchObject({ status: 400, details: { errors: [{ field: 'file' }] } });
    expect((await t.call('GET', `/documents/${doc.id}`)).body.sha256).toBe(sha256(png));
  });

  it('deletes a document with its bytes; a later GET is 404', async () => {
    const doc = (await uploadDocument(t, holder)).body;
    expect((await t.call('DELETE', `/documents/${doc.id}`)).status).toBe(204);
    expect((await t.call('GET', `/documents/${doc.id}`)).body).toMatchObject({ status: 404, code: 'REFERENCE_NOT_FOUND' });
    expect((await t.call('DELETE', `/documents/${doc.id}`)).status).toBe(404);
    expect((await t.call('GET', '/documents?limit=100')).body.data.map((d: { id: string }) => d.id)).not.toContain(doc.id);
    expect(await db().query(`SELECT 1 FROM identity.document_files WHERE file_key LIKE $1`, [`${doc.id}/%`])).toEqual([]);
  });

  it('refuses to delete or replace a document submitted for verification (409), and marks it once', async () => {
    const doc = (await uploadDocument(t, holder)).body;
    const documents = t.platform.identity.documents;
    const caller = await callerOf(holder);
    await db().transaction((tx) => documents.markSubmitted(tx, [doc.id]));
    await db().transaction((tx) => documents.markSubmitted(tx, [doc.id, doc.id])); // idempotent
    const submitted = await db().query(`SELECT type FROM identity.events WHERE stream_id = $1 ORDER BY stream_version`, [doc.id]);
    expect(submitted.map((e: { type: string }) => e.type)).toEqual(['DocumentUploaded.v1', 'DocumentSubmitted.v1']);
    const refused = await t.call('DELETE', `/documents/${doc.id}`);
    expect(refused.body).toEqual({ status: 409, code: 'CONFLICT', message: expect.stringMatching(/submitted for verification and cannot be deleted/) });
    expect((await sendForm(t, 'PUT', `/documents/${doc.id}`, { side: 'BACK' })).status).toBe(409);
    expect((await t.call('GET', `/documents/${doc.id}`)).status).toBe(200);
    const byHolder = await db().transaction((tx) => documents.listForHolders(tx, caller.platformId, caller.mode, [holder, 'Customer:none']));
    expect(byHolder['Customer:none']).toEqual([]);
    expect(byHolder[holder]).toContainEqual({ documentId: doc.id, documentType: 'PASSPORT', submitted: true });
  });

  it('replays an upload under the same Idempotency-Key and refuses the key with another file', async () => {
    const headers = { 'Idempotency-Key': `doc-${uuidv7()}` };
    const fields = { documentHolder: holder, documentType: 'SELFIE', country: 'FR' };
    const first = await sendForm(t, 'POST', '/documents', fields, [{ name: 'me.jpg', bytes: tinyJpeg() }], { headers });
    const again = await sendForm(t, 'POST', '/documents', fields, [{ name: 'me.jpg', bytes: tinyJpeg() }], { headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const otherFile = await sendForm(t, 'POST', '/documents', fields, [{ name: 'me.jpg', bytes: tinyPng() }], { headers });
    expect(otherFile.body).toMatchObject({ status: 409, code: 'IDEMPOTENCY_KEY_REUSED' });
    // A JSON body is claimed once, by the global interceptor; the route's own instance must not claim it again (409).
    const json = await t.call('POST', '/documents', { body: fields, headers: { 'Idempotency-Key': `doc-${uuidv7()}` } });
    expect(json.body).toMatchObject({ status: 400, details: { errors: [{ field: 'file' }] } });
  });
});
