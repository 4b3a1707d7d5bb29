import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DirectoryFileStore, FileExistsError, FileNameError, FileStore, sha256Of } from './file-store';
import { S3FileStore } from './s3-file-store';
import { startS3TestServer, TestS3Server } from './testing/test-s3-fixture';

/**
 * The promises every FileStore keeps, run against each store: a directory, and an S3 bucket served by a separate
 * process speaking the S3 REST API over loopback (testing/test-s3-server.ts, verifying SigV4 and checksums).
 */
interface StoreUnderTest {
  open(): Promise<void>;
  /** A fresh, empty store. */
  store(): FileStore;
  /** The names present where the store keeps files (nothing else: no temporary object or file). */
  present(): Promise<string[]>;
  close(): Promise<void>;
}

function directoryStores(): StoreUnderTest {
  let root: string;
  let current: DirectoryFileStore;
  return {
    open: async () => {
      root = mkdtempSync(join(tmpdir(), 'rails-files-'));
    },
    store: () => (current = new DirectoryFileStore(join(root, `outbox-${Math.random().toString(36).slice(2)}`))),
    present: async () => (existsSync(current.directory) ? readdirSync(current.directory) : []),
    close: async () => rmSync(root, { recursive: true, force: true }),
  };
}

function s3Stores(): StoreUnderTest {
  let server: TestS3Server;
  let current: S3FileStore;
  return {
    open: async () => {
      server = await startS3TestServer({ pageSize: 2 });
    },
    store: () =>
      (current = new S3FileStore({ endpoint: server.endpoint, region: server.region, bucket: server.bucket, prefix: `rails/bank-${Math.random().toString(36).slice(2)}/outbox`, forcePathStyle: true, credentials: server.credentials })),
    // A second store on the same bucket and prefix lists what is there: no leftover object of a failed write.
    present: async () => (await new S3FileStore({ endpoint: server.endpoint, region: server.region, bucket: server.bucket, prefix: current.location.slice(`s3://${server.bucket}/`.length), forcePathStyle: true, credentials: server.credentials }).list()).map((f) => f.name),
    close: async () => server?.stop(),
  };
}

describe.each([
  ['DirectoryFileStore', directoryStores()],
  ['S3FileStore', s3Stores()],
])('%s: bank files written whole, once', (_kind, under) => {
  let store: FileStore;
  beforeAll(() => under.open());
  afterAll(() => under.close());
  beforeEach(() => {
    store = under.store();
  });

  it('writes a file, lists and reads it back with its SHA-256, leaving nothing else behind', async () => {
    const content = '101 091000019 1234567890...\n';
    const stored = await store.write('ACH-20261127-0001.txt', content);
    expect(stored).toEqual({ name: 'ACH-20261127-0001.txt', bytes: Buffer.byteLength(content), sha256: sha256Of(Buffer.from(content)) });
    expect(await store.list()).toEqual([{ name: stored.name, bytes: stored.bytes, version: expect.any(String) }]);
    expect((await store.read('ACH-20261127-0001.txt')).toString()).toBe(content);
    expect(await under.present()).toEqual(['ACH-20261127-0001.txt']);
  });

  it('never rewrites a file: other bytes under its name are refused, the same bytes again (a retry) answer the stored file', async () => {
    const first = await store.write('pain001-batch-7.xml', '<Document>a</Document>');
    await expect(store.write('pain001-batch-7.xml', '<Document>b</Document>')).rejects.toThrow(FileExistsError);
    expect((await store.read('pain001-batch-7.xml')).toString()).toBe('<Document>a</Document>');
    expect(await store.write('pain001-batch-7.xml', '<Document>a</Document>')).toEqual(first);
    expect(await under.present()).toEqual(['pain001-batch-7.xml']);
  });

  it('lets exactly one of many concurrent writers of one name with different bytes win', async () => {
    const outcomes = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => store.write('race.txt', `writer ${i}`)));
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    expect(won).toHaveLength(1);
    expect(outcomes.filter((o) => o.status === 'rejected').every((o) => (o as PromiseRejectedResult).reason instanceof FileExistsError)).toBe(true);
    expect((await store.read('race.txt')).toString()).toBe(`writer ${outcomes.indexOf(won[0])}`);
    expect(await under.present()).toEqual(['race.txt']);
  });

  it('lists many files by name, each with its size and a version, without reading them', async () => {
    const names = ['e.txt', 'a.txt', 'c.txt', 'b.txt', 'd.txt'];
    for (const name of names) await store.write(name, `content of ${name}`);
    const listed = await store.list();
    expect(listed).toEqual([...names].sort().map((name) => ({ name, bytes: `content of ${name}`.length, version: expect.any(String) })));
    expect(new Set(listed.map((f) => f.version)).size).toBe(names.length);
    expect(await store.list()).toEqual(listed); // unchanged files keep their version
  });

  it('refuses names that could be paths, hidden or temporary files', async () => {
    for (const name of ['../escape.txt', 'a/b.txt', '.hidden', '', 'x'.repeat(201), 'a..b', 'nul\u0000.txt', 'space name.txt']) {
      await expect(store.write(name, 'x')).rejects.toThrow(FileNameError);
    }
    await expect(store.read('../../etc/passwd')).rejects.toThrow(FileNameError);
    expect(await under.present()).toEqual([]);
  });

  it('lists a store nothing was written to yet as empty, and refuses to read a file that is not there', async () => {
    expect(await store.list()).toEqual([]);
    await expect(store.read('missing.txt')).rejects.toThrow();
  });
});

describe('DirectoryFileStore: a directory', () => {
  let directory: string;
  let store: DirectoryFileStore;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'rails-files-'));
    store = new DirectoryFileStore(join(directory, 'outbox'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('lists only complete files: a crash’s temporary file is not a file, and is removed as a leftover', async () => {
    await store.write('done.txt', 'complete');
    writeFileSync(join(store.directory, '.partial-next.txt.abc123'), 'half a fi');
    expect((await store.list()).map((f) => f.name)).toEqual(['done.txt']);
    expect(await store.removeLeftovers()).toEqual(['.partial-next.txt.abc123']);
    expect(readdirSync(store.directory)).toEqual(['done.txt']);
  });

  it('makes its directory on prepare, so a bank’s job has somewhere to put files', async () => {
    await store.prepare();
    expect(readdirSync(directory)).toEqual(['outbox']);
  });
});
