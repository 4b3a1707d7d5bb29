import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { CallerContext } from '@payments/contracts';
import { asTransactional, CommandExecutor, eventsourcingMigrations, IdempotencyClaims, PostgresEventStore, runMigrations, SqlExecutor } from '@payments/eventsourcing';
import { openServiceDatabase, SecretSealer } from '@payments/runtime';
import { createTestDatabase, TestDatabase } from '@payments/testing';
import { identityMigrations } from '../identity.migrations';
import { DocumentStorage } from './document-storage';
import { DocumentService } from './document.service';
import { documentsMigrations } from './documents.migrations';
import { DOCUMENT_FILES_PURPOSE, PgDocumentStorage } from './pg-document-storage';

const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const pdf = Buffer.from('%PDF-1.4\n%%EOF\n', 'latin1');
const sealer = new SecretSealer(randomBytes(32), DOCUMENT_FILES_PURPOSE);
const caller: CallerContext = { platformId: 'Platform:p', mode: 'SANDBOX', clientId: 'c', permissions: ['MANAGE'] };

/** The write path of documents on a real PostgreSQL: the bytes and the event commit together or not at all. */
describe('DocumentService (PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let executor: CommandExecutor<any>;
  let holder: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await openServiceDatabase({ url: database.url, schema: 'identity' });
    await runMigrations(asTransactional(dataSource), 'identity', [eventsourcingMigrations, identityMigrations, documentsMigrations]);
    executor = new CommandExecutor(asTransactional(dataSource), new PostgresEventStore('identity'));
    holder = `Customer:${uuidv7()}`;
    // The row the customer projection writes; this suite tests documents, not customers.
    await dataSource.query(
      `INSERT INTO customers (customer_id, platform_id, mode, platform_customer_id, customer_type, uma_address, status, body, created_at, updated_at)
       VALUES ($1, $2, 'SANDBOX', 'pc-1', 'INDIVIDUAL', '$pc-1@example.com', 'UNVERIFIED', '{}', now(), now())`,
      [holder, caller.platformId],
    );
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  const claims = () => new IdempotencyClaims(dataSource, 'identity');
  const footprint = async () =>
    (await dataSource.query(`SELECT (SELECT count(*)::int FROM events) AS events, (SELECT count(*)::int FROM documents) AS rows, (SELECT count(*)::int FROM document_files) AS files`))[0];
  const upload = (service: DocumentService, bytes: Buffer) =>
    service.upload(caller, { documentHolder: holder, documentType: 'PASSPORT', country: 'DE', file: { fileName: 'f', base64: bytes.toString('base64') } }, new Date().toISOString());

  it('leaves no event, row or file when storing the bytes fails after they were written', async () => {
    const real = new PgDocumentStorage(dataSource, sealer);
    const failing: DocumentStorage = {
      put: async (tx: SqlExecutor, key, bytes, sha256) => {
        await real.put(tx, key, bytes, sha256);
        throw new Error('disk full');
      },
      get: (key) => real.get(key),
      delete: (tx, key) => real.delete(tx, key),
    };
    const before = await footprint();
    await expect(upload(new DocumentService(dataSource, executor, failing, claims()), pdf)).rejects.toThrow('disk full');
    expect(await footprint()).toEqual(before);
  });

  it('stores the bytes with the event, serves them back, and drops the old bytes on replace and delete', async () => {
    const service = new DocumentService(dataSource, executor, new PgDocumentStorage(dataSource, sealer), claims());
    const doc = await upload(service, pdf);
    expect((await service.getContent(caller, doc.id)).bytes).toEqual(pdf);
    await service.replace(caller, { documentId: doc.id, file: { fileName: 'g.png', base64: png.toString('base64') } }, new Date().toISOString());
    expect(await service.getContent(caller, doc.id)).toEqual({ fileName: 'g.png', contentType: 'image/png', bytes: png });
    expect((await dataSource.query(`SELECT count(*)::int AS n FROM document_files WHERE file_key LIKE $1`, [`${doc.id}/%`]))[0].n).toBe(1);
    await service.delete(caller, doc.id, new Date().toISOString());
    expect((await dataSource.query(`SELECT count(*)::int AS n FROM document_files WHERE file_key LIKE $1`, [`${doc.id}/%`]))[0].n).toBe(0);
    await expect(service.getContent(caller, doc.id)).rejects.toMatchObject({ code: 'REFERENCE_NOT_FOUND' });
  });

  it('refuses bytes whose digest does not match, and notices stored bytes that changed', async () => {
    const storage = new PgDocumentStorage(dataSource, sealer);
    await expect(dataSource.transaction((tx) => storage.put(tx, 'k', pdf, '0'.repeat(64)))).rejects.toThrow(/SHA-256/);
    const service = new DocumentService(dataSource, executor, storage, claims());
    const doc = await upload(service, pdf);
    await dataSource.query(`UPDATE document_files SET content = $2 WHERE file_key = $1`, [`${doc.id}/${doc.sha256}`, png]);
    await expect(service.getContent(caller, doc.id)).rejects.toThrow(/do not match/);
  });

  it('seals at rest bound to the file key: another row or another key does not open it; files from before sealing are read, then sealed', async () => {
    const storage = new PgDocumentStorage(dataSource, sealer);
    const service = new DocumentService(dataSource, executor, storage, claims());
    const [a, b] = [await upload(service, pdf), await upload(service, png)];
    const content = async (id: string) => (await dataSource.query(`SELECT content FROM document_files WHERE file_key LIKE $1`, [`${id}/%`]))[0].content as Buffer;
    expect((await content(a.id)).includes(Buffer.from('%PDF'))).toBe(false);
    // Sealed under another SECRET_HASH_KEY: refused, not served as garbage.
    const otherKey = new DocumentService(dataSource, executor, new PgDocumentStorage(dataSource, new SecretSealer(randomBytes(32), DOCUMENT_FILES_PURPOSE)), claims());
    await expect(otherKey.getContent(caller, a.id)).rejects.toThrow(/do not match their seal/);
    // A's sealed bytes copied into B's row do not open there.
    await dataSource.query(`UPDATE document_files SET content = $2 WHERE file_key LIKE $1`, [`${b.id}/%`, await content(a.id)]);
    await expect(service.getContent(caller, b.id)).rejects.toThrow(/do not match their seal/);

    // A row from before sealing (plaintext, sealed = false) is served as it is, then sealed in place.
    const legacy = await upload(service, pdf);
    await dataSource.query(`UPDATE document_files SET content = $2, sealed = false WHERE file_key LIKE $1`, [`${legacy.id}/%`, pdf]);
    expect((await service.getContent(caller, legacy.id)).bytes).toEqual(pdf);
    expect(await storage.sealLegacyFiles(1)).toBe(1);
    expect(await storage.sealLegacyFiles()).toBe(0);
    expect((await content(legacy.id)).includes(Buffer.from('%PDF'))).toBe(false);
    expect((await service.getContent(caller, legacy.id)).bytes).toEqual(pdf);
  });
});
