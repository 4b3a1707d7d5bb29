import type { Agent as HttpAgent } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { checkFileName, FileExistsError, FileStore, ListedFile, sha256Of, StoredFile } from './file-store';

/**
 * Bank files in an S3-compatible bucket (AWS S3, MinIO, Ceph RGW), under a prefix: the same promises as a directory.
 * A file is written once with a conditional PutObject (`If-None-Match: *`): the store refuses a second object under a
 * taken key (412), and only then are the stored bytes read and compared, so the same bytes again (a retry after a
 * crash) answer the stored file and other bytes are a FileExistsError; of concurrent writers the store lets exactly one
 * win. The SHA-256 of the bytes is sent (`x-amz-checksum-sha256`), so the store refuses bytes damaged on the way.
 * Objects are never deleted or overwritten here; whoever fetches the files (the bank) removes them if anyone does.
 */
export interface S3FileStoreOptions {
  /** An S3-compatible endpoint (`https://minio.internal:9000`); AWS's regional endpoint when absent. */
  endpoint?: string;
  region: string;
  bucket: string;
  /** Key prefix the files live under (`bank-ach/outbox`); a file `X` is the object `<prefix>/X`. Empty: the bucket's root. */
  prefix: string;
  /** Path-style URLs (`endpoint/bucket/key`), as MinIO and Ceph usually need; virtual-hosted style otherwise. */
  forcePathStyle?: boolean;
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** Attempts per call (the SDK's retries of 5xx, throttling and connection errors); 3 by default. */
  maxAttempts?: number;
  /** Connecting and each call's answer; 5 s and 60 s by default. */
  connectionTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** Agents the calls are made with (e.g. ones whose lookup refuses private addresses). */
  agents?: { http?: HttpAgent; https?: HttpsAgent };
}

/** A call to the bucket failed (unreachable, refused, a server error): the caller's round fails and the next retries. */
export class FileStoreUnavailableError extends Error {}

export class S3FileStore implements FileStore {
  readonly location: string;
  private readonly client: S3Client;
  private readonly bucket: string;
  /** '' or ends with '/'. */
  private readonly prefix: string;

  constructor(options: S3FileStoreOptions) {
    this.bucket = options.bucket;
    const prefix = options.prefix.replace(/^\/+|\/+$/g, '');
    this.prefix = prefix === '' ? '' : `${prefix}/`;
    this.location = `s3://${this.bucket}/${this.prefix}`;
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      forcePathStyle: options.forcePathStyle ?? false,
      credentials: options.credentials,
      maxAttempts: options.maxAttempts ?? 3,
      // The SHA-256 is sent where this store asks for it, never a checksum of the SDK's own choosing in a trailer
      // (aws-chunked uploads), which not every S3-compatible server takes.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      requestHandler: {
        connectionTimeout: options.connectionTimeoutMs ?? 5_000,
        requestTimeout: options.requestTimeoutMs ?? 60_000,
        ...(options.agents?.http ? { httpAgent: options.agents.http } : {}),
        ...(options.agents?.https ? { httpsAgent: options.agents.https } : {}),
      },
    });
  }

  /** The bucket is the operator's to create (with its policies): nothing to make here. */
  async prepare(): Promise<void> {}

  async write(name: string, content: Buffer | string): Promise<StoredFile> {
    checkFileName(name);
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    const sha256 = sha256Of(bytes);
    const stored: StoredFile = { name, bytes: bytes.length, sha256 };
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: this.key(name),
          Body: bytes,
          ContentLength: bytes.length,
          IfNoneMatch: '*',
          ChecksumSHA256: Buffer.from(sha256, 'hex').toString('base64'),
        }),
      );
      return stored;
    } catch (error) {
      // 409: another conditional write of this key was in flight; either way the key is (being) taken, so read it.
      if (statusOf(error) !== 412 && statusOf(error) !== 409) throw this.unavailable('PutObject', name, error);
    }
    const existing = await this.read(name);
    if (!existing.equals(bytes)) throw new FileExistsError(`${name} exists with other content in ${this.location}: a file is never rewritten`);
    return stored;
  }

  /** The files directly under the prefix whose names pass checkFileName (others are not this store's files), by name. */
  async list(): Promise<ListedFile[]> {
    const objects: ListedFile[] = [];
    let continuationToken: string | undefined;
    do {
      let page;
      try {
        page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix, ContinuationToken: continuationToken }));
      } catch (error) {
        throw this.unavailable('ListObjectsV2', '', error);
      }
      for (const o of page.Contents ?? []) {
        const name = o.Key?.slice(this.prefix.length) ?? '';
        if (!isFileName(name)) continue;
        objects.push({ name, bytes: o.Size ?? 0, version: `${o.ETag}|${o.Size}|${o.LastModified?.toISOString()}` });
      }
      continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      if (page.IsTruncated && !continuationToken) throw new FileStoreUnavailableError(`${this.location}: ListObjectsV2 answered a truncated page without a continuation token`);
    } while (continuationToken);
    return objects.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** The object's bytes; the SDK checks them against the SHA-256 kept with the object at its upload, when it has one. */
  async read(name: string): Promise<Buffer> {
    checkFileName(name);
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.key(name), ChecksumMode: 'ENABLED' }));
      return Buffer.from(await answer.Body!.transformToByteArray());
    } catch (error) {
      if (statusOf(error) === 404) throw new Error(`${name} is not in ${this.location}`, { cause: error });
      throw this.unavailable('GetObject', name, error);
    }
  }

  private key(name: string): string {
    return `${this.prefix}${name}`;
  }

  /** Names the call, the object and the server's answer (status and code), never a credential. */
  private unavailable(call: string, name: string, error: unknown): FileStoreUnavailableError {
    const status = statusOf(error);
    const what = error instanceof S3ServiceException ? `${status ?? 'no'} HTTP status, ${error.name}` : error instanceof Error ? error.message : String(error);
    return new FileStoreUnavailableError(`${this.location}${name}: ${call} failed (${what})`, { cause: error });
  }
}

function isFileName(name: string): boolean {
  try {
    checkFileName(name);
    return true;
  } catch {
    return false;
  }
}

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
}
