import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { link, mkdir, open, readdir, readFile, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Bank files on a directory: the outbox rails write payment files to, the inbox returns and statements arrive in.
 * A file is written whole or not at all and never rewritten: its bytes go to a temporary name (created exclusively,
 * flushed), then are linked to the final name, which fails when that name exists, so no writer can replace a file a
 * bank may already have fetched (rename would). The directory is flushed after, so a crash cannot leave the link
 * behind while losing the bytes. Names are plain (letters, digits, `.`, `_`, `-`), never paths.
 */

/** A file's name is refused: it could name a path, a hidden file or a temporary one. */
export class FileNameError extends Error {}

/** The name is taken by a file with other bytes: a file is never rewritten. */
export class FileExistsError extends Error {}

export interface StoredFile {
  name: string;
  bytes: number;
  /** Hex SHA-256 of the content: an import keyed by it has one effect however often the file is seen. */
  sha256: string;
}

/** A file as listed, not read: the connector reads and hashes it once per version (and not at all when too large). */
export interface ListedFile {
  name: string;
  bytes: number;
  /** Changes when the file does (size and modification time, an object's ETag): what "seen before" is keyed by. */
  version: string;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;
const TEMPORARY_PREFIX = '.partial-';

export function checkFileName(name: string): void {
  if (!NAME.test(name) || name.includes('..')) throw new FileNameError(`file name ${JSON.stringify(name)} is refused: letters, digits, '.', '_' and '-' only, not starting with '.', at most 200 characters`);
}

export const sha256Of = (content: Buffer): string => createHash('sha256').update(content).digest('hex');

/**
 * Where a rail's bank files live: a directory (DirectoryFileStore) or an S3-compatible bucket (S3FileStore). Every
 * store keeps the same promises: a file is written whole and once (the same bytes again answer the stored file, other
 * bytes under a taken name are a FileExistsError, of concurrent writers exactly one wins), names pass checkFileName,
 * and `list()` gives each complete file with its size and version, without reading it.
 */
export interface FileStore {
  /** Where the files are, for log lines and errors (a path, `s3://bucket/prefix/`); never a credential. */
  readonly location: string;
  /** Makes the place exist where that is the store's to do (a directory), so others can put files there. */
  prepare(): Promise<void>;
  write(name: string, content: Buffer | string): Promise<StoredFile>;
  list(): Promise<ListedFile[]>;
  /** The file's bytes; rejects when there is no such file. */
  read(name: string): Promise<Buffer>;
}

export class DirectoryFileStore implements FileStore {
  constructor(readonly directory: string) {}

  get location(): string {
    return this.directory;
  }

  async prepare(): Promise<void> {
    await mkdir(this.directory, { recursive: true });
  }

  /**
   * Writes `content` as `name`, atomically and once. Writing the same bytes again (a retry after a crash that came
   * after the link) answers the stored file; other bytes under a taken name are a FileExistsError.
   */
  async write(name: string, content: Buffer | string): Promise<StoredFile> {
    checkFileName(name);
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    await mkdir(this.directory, { recursive: true });
    const final = join(this.directory, name);
    // Hidden and ending in .tmp, never the name's extension: a bank's pick-up (`*.ach`, `*.xml`) cannot take it.
    const temporary = join(this.directory, `${TEMPORARY_PREFIX}${randomBytes(8).toString('hex')}.tmp`);
    const handle = await open(temporary, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o640);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await link(temporary, final);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const existing = await readFile(final);
      if (!existing.equals(bytes)) throw new FileExistsError(`${name} exists with other content in ${this.directory}: a file is never rewritten`);
    } finally {
      await unlink(temporary);
    }
    await this.syncDirectory();
    return { name, bytes: bytes.length, sha256: sha256Of(bytes) };
  }

  /** The complete files, by name (temporary and hidden ones left out: they are not files yet), stat'ed, not read. */
  async list(): Promise<ListedFile[]> {
    let names: string[];
    try {
      names = await readdir(this.directory);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const files: ListedFile[] = [];
    for (const name of names.filter((n) => NAME.test(n)).sort()) {
      const info = await stat(join(this.directory, name), { bigint: true });
      if (!info.isFile()) continue;
      files.push({ name, bytes: Number(info.size), version: `${info.size}|${info.mtimeNs}|${info.ino}` });
    }
    return files;
  }

  async read(name: string): Promise<Buffer> {
    checkFileName(name);
    return readFile(join(this.directory, name));
  }

  /** Removes temporary files a crash left behind (never a complete file). */
  async removeLeftovers(): Promise<string[]> {
    const names = await readdir(this.directory).catch(() => [] as string[]);
    const leftovers = names.filter((n) => n.startsWith(TEMPORARY_PREFIX));
    for (const name of leftovers) await unlink(join(this.directory, name)).catch(() => undefined);
    return leftovers;
  }

  private async syncDirectory(): Promise<void> {
    const handle = await open(this.directory, constants.O_RDONLY);
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
}
