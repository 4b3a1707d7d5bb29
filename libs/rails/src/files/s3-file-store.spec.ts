import { createServer } from 'node:net';
import { FileExistsError } from './file-store';
import { FileStoreUnavailableError, S3FileStore, S3FileStoreOptions } from './s3-file-store';
import { startS3TestServer, TestS3Server } from './testing/test-s3-fixture';

/** What only a bucket has: checksums the store keeps, files others put there, pagination, and a store that fails. */
describe('S3FileStore against an S3-compatible server process', () => {
  let server: TestS3Server;
  let prefix: string;
  const storeFor = (over: Partial<S3FileStoreOptions> = {}) =>
    new S3FileStore({ endpoint: server.endpoint, region: server.region, bucket: server.bucket, prefix, forcePathStyle: true, credentials: server.credentials, ...over });
  const requests = async () => JSON.parse((await server.control('GET', '/requests')).body.toString()) as Record<string, number>;

  beforeAll(async () => {
    server = await startS3TestServer({ pageSize: 2 });
  });
  afterAll(() => server.stop());
  beforeEach(async () => {
    prefix = `bank-${Math.random().toString(36).slice(2)}/inbox`;
    await server.control('POST', '/faults', JSON.stringify({ count: 0 }));
  });

  it('sends the SHA-256 of the bytes, which the server verified and kept with the object', async () => {
    const stored = await storeFor().write('ACH-1.txt', 'entries\n');
    const kept = JSON.parse((await server.control('GET', `/objects/${prefix}/ACH-1.txt`)).body.toString());
    expect(kept).toEqual({ bytes: 8, sha256: Buffer.from(stored.sha256, 'hex').toString('base64') });
  });

  it('lists files a bank put under the prefix (no checksum kept) with the SHA-256 of their bytes, each downloaded once', async () => {
    await server.control('PUT', `/objects/${prefix}/R01-return.txt`, 'returned entries\n');
    await server.control('PUT', `/objects/${prefix}/camt054.xml`, '<Document/>');
    await server.control('PUT', `/objects/${prefix}/nested/deeper.txt`, 'not ours');
    await server.control('PUT', `/objects/${prefix}/.hidden`, 'not ours');
    await server.control('PUT', `/objects/${prefix}-sibling/x.txt`, 'not under the prefix');
    const store = storeFor();
    const expected = [
      { name: 'R01-return.txt', bytes: 17, version: expect.any(String) },
      { name: 'camt054.xml', bytes: 11, version: expect.any(String) },
    ];
    const before = await requests();
    expect(await store.list()).toEqual(expected);
    const after = await requests();
    expect(after.ListObjectsV2 - (before.ListObjectsV2 ?? 0)).toBe(2); // 4 keys under `${prefix}/` (not the sibling's), 2 a page
    expect(after.GetObject ?? 0).toBe(before.GetObject ?? 0); // listing reads no object
    const [, camt] = await store.list();
    // A file replaced by other bytes (the bank overwrote it) has another version.
    await server.control('PUT', `/objects/${prefix}/camt054.xml`, '<Document>2</Document>');
    const changed = (await store.list())[1];
    expect(changed).toEqual({ name: 'camt054.xml', bytes: 22, version: expect.any(String) });
    expect(changed.version).not.toBe(camt.version);
  });

  it('refuses bytes that no longer match the SHA-256 kept at their upload', async () => {
    await storeFor().write('damaged.txt', 'original');
    await server.control('PUT', `/objects/${prefix}/damaged.txt`, 'tampered', { 'x-test-keep-checksum': '1' });
    await expect(storeFor().read('damaged.txt')).rejects.toThrow(/GetObject failed \(Checksum mismatch/);
  });

  it('fails clearly, writing nothing, while the server answers 500; the next try succeeds', async () => {
    await server.control('POST', '/faults', JSON.stringify({ status: 500, count: 100 }));
    const store = storeFor({ maxAttempts: 2 });
    const failed = store.write('ACH-2.txt', 'entries\n');
    await expect(failed).rejects.toThrow(FileStoreUnavailableError);
    await expect(failed).rejects.toThrow(`s3://${server.bucket}/${prefix}/ACH-2.txt: PutObject failed (500 HTTP status, InternalError)`);
    await expect(store.list()).rejects.toThrow(/ListObjectsV2 failed \(500 HTTP status/);
    await server.control('POST', '/faults', JSON.stringify({ count: 0 }));
    expect(await store.list()).toEqual([]);
    expect((await store.write('ACH-2.txt', 'entries\n')).name).toBe('ACH-2.txt');
  });

  it('rides out one 500 by the SDK’s retry', async () => {
    await server.control('POST', '/faults', JSON.stringify({ status: 500, count: 1 }));
    expect((await storeFor().write('ACH-3.txt', 'entries\n')).bytes).toBe(8);
  });

  it('is refused (403) with a secret the server does not know: the signature is really checked', async () => {
    const store = storeFor({ credentials: { accessKeyId: server.credentials.accessKeyId, secretAccessKey: 'not-the-secret' } });
    await expect(store.write('ACH-4.txt', 'x')).rejects.toThrow(/PutObject failed \(403 HTTP status, SignatureDoesNotMatch\)/);
    expect(JSON.parse((await server.control('GET', `/objects/${prefix}/ACH-4.txt`)).body.toString())).toEqual({});
  });

  it('fails clearly when the endpoint is unreachable', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const store = storeFor({ endpoint: `http://127.0.0.1:${port}`, maxAttempts: 1 });
    await expect(store.list()).rejects.toThrow(/ListObjectsV2 failed \(.*ECONNREFUSED 127\.0\.0\.1/);
    await expect(store.write('ACH-5.txt', 'x')).rejects.toThrow(FileStoreUnavailableError);
  });

  it('keeps write-once across stores: another replica’s file under the name is never replaced', async () => {
    await storeFor().write('shared.txt', 'replica a');
    await expect(storeFor().write('shared.txt', 'replica b')).rejects.toThrow(FileExistsError);
    expect((await storeFor().read('shared.txt')).toString()).toBe('replica a');
  });
});
