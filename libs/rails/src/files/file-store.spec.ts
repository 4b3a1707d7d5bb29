import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DirectoryFileStore, FileExistsError, FileNameError, sha256Of } from './file-store';

describe('DirectoryFileStore: bank files written whole, once', () => {
  let directory: string;
  let store: DirectoryFileStore;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'rails-files-'));
    store = new DirectoryFileStore(join(directory, 'outbox'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('writes a file, lists and reads it back with its SHA-256, leaving no temporary file', async () => {
    const content = '101 091000019 1234567890...\n';
    const stored = await store.write('ACH-20261127-0001.txt', content);
    expect(stored).toEqual({ name: 'ACH-20261127-0001.txt', bytes: Buffer.byteLength(content), sha256: sha256Of(Buffer.from(content)) });
    expect(await store.list()).toEqual([stored]);
    expect((await store.read('ACH-20261127-0001.txt')).toString()).toBe(content);
    expect(readdirSync(store.directory)).toEqual(['ACH-20261127-0001.txt']);
  });

  it('never rewrites a file: other bytes under its name are refused, the same bytes again (a retry) answer the stored file', async () => {
    const first = await store.write('pain001-batch-7.xml', '<Document>a</Document>');
    await expect(store.write('pain001-batch-7.xml', '<Document>b</Document>')).rejects.toThrow(FileExistsError);
    expect((await store.read('pain001-batch-7.xml')).toString()).toBe('<Document>a</Document>');
    expect(await store.write('pain001-batch-7.xml', '<Document>a</Document>')).toEqual(first);
    expect(readdirSync(store.directory)).toEqual(['pain001-batch-7.xml']);
  });

  it('lets exactly one of many concurrent writers of one name with different bytes win', async () => {
    const outcomes = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => store.write('race.txt', `writer ${i}`)));
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    expect(won).toHaveLength(1);
    expect(outcomes.filter((o) => o.status === 'rejected').every((o) => (o as PromiseRejectedResult).reason instanceof FileExistsError)).toBe(true);
    expect((await store.read('race.txt')).toString()).toBe(`writer ${outcomes.indexOf(won[0])}`);
    expect(readdirSync(store.directory)).toEqual(['race.txt']);
  });

  it('refuses names that could be paths, hidden or temporary files', async () => {
    for (const name of ['../escape.txt', 'a/b.txt', '.hidden', '', 'x'.repeat(201), 'a..b', 'nul\u0000.txt', 'space name.txt']) {
      await expect(store.write(name, 'x')).rejects.toThrow(FileNameError);
    }
    await expect(store.read('../../etc/passwd')).rejects.toThrow(FileNameError);
  });

  it('lists only complete files: a crash’s temporary file is not a file, and is removed as a leftover', async () => {
    await store.write('done.txt', 'complete');
    writeFileSync(join(store.directory, '.partial-next.txt.abc123'), 'half a fi');
    expect((await store.list()).map((f) => f.name)).toEqual(['done.txt']);
    expect(await store.removeLeftovers()).toEqual(['.partial-next.txt.abc123']);
    expect(readdirSync(store.directory)).toEqual(['done.txt']);
  });

  it('lists an inbox that does not exist yet as empty', async () => {
    expect(await new DirectoryFileStore(join(directory, 'inbox')).list()).toEqual([]);
  });
});
