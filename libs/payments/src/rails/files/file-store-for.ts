import type { FileLocation } from '@payments/contracts';
import { DirectoryFileStore, FileStore, S3FileStore } from '@payments/rails';
import type { EgressClient } from '@payments/runtime';

/**
 * The store one side of a file connector uses: its directory, or its bucket with the credentials read from the
 * environment variables the configuration names (a missing one stops the connector at start, naming the variable,
 * never a value). An endpoint that is a private address literal is refused like any egress unless private networks are
 * allowed (EGRESS_ALLOW_PRIVATE_NETWORKS).
 */
export function fileStoreFor(location: FileLocation, env: NodeJS.ProcessEnv, options: { egress?: EgressClient; purpose?: string } = {}): FileStore {
  if ('directory' in location) return new DirectoryFileStore(location.directory);
  const s3 = location.s3;
  const variable = (name: string) => {
    const value = env[name];
    if (!value) throw new Error(`${options.purpose ?? 'file store'}: environment variable ${name} (the bucket's credentials) is not set`);
    return value;
  };
  const credentials = { accessKeyId: variable(s3.accessKeyIdEnv), secretAccessKey: variable(s3.secretAccessKeyEnv) };
  const refused = s3.endpoint ? options.egress?.refusalOf(s3.endpoint) : undefined;
  if (refused) throw new Error(`${options.purpose ?? 'file store'}: endpoint ${s3.endpoint} ${refused.message}`);
  return new S3FileStore({ ...(s3.endpoint ? { endpoint: s3.endpoint } : {}), region: s3.region, bucket: s3.bucket, prefix: s3.prefix, forcePathStyle: s3.forcePathStyle, credentials });
}
