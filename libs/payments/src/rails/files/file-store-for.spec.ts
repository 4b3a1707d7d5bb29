import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { S3FileLocation } from '@payments/contracts';
import { DirectoryFileStore, S3FileStore } from '@payments/rails';
import { EgressClient } from '@payments/runtime';
import { fileStoreFor } from './file-store-for';

const S3: S3FileLocation = { endpoint: 'http://10.0.0.7:9000', region: 'us-east-1', bucket: 'bank-files', prefix: 'ach/outbox', forcePathStyle: true, accessKeyIdEnv: 'ACH_S3_KEY_ID', secretAccessKeyEnv: 'ACH_S3_SECRET' };
const ENV = { ACH_S3_KEY_ID: 'AKIDEXAMPLE', ACH_S3_SECRET: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };

describe('fileStoreFor: the store one side of a file connector uses', () => {
  it('writes into the configured directory', async () => {
    const root = mkdtempSync(join(tmpdir(), 'rails-store-for-'));
    try {
      const store = fileStoreFor({ directory: join(root, 'outbox') }, {});
      expect(store).toBeInstanceOf(DirectoryFileStore);
      await store.write('a.txt', 'x');
      expect(readdirSync(join(root, 'outbox'))).toEqual(['a.txt']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('opens the bucket and prefix with the credentials from the named environment variables', () => {
    const store = fileStoreFor({ s3: S3 }, ENV, { egress: new EgressClient({ allowPrivateNetworks: true }) });
    expect(store).toBeInstanceOf(S3FileStore);
    expect(store.location).toBe('s3://bank-files/ach/outbox/');
  });

  it('stops the connector when a credential variable is missing, naming the variable and no value', () => {
    expect(() => fileStoreFor({ s3: S3 }, { ACH_S3_KEY_ID: 'AKIDEXAMPLE' }, { purpose: 'rails connector ach outbox' })).toThrow(
      'rails connector ach outbox: environment variable ACH_S3_SECRET (the bucket\'s credentials) is not set',
    );
    try {
      fileStoreFor({ s3: S3 }, { ACH_S3_KEY_ID: 'AKIDEXAMPLE' });
    } catch (error) {
      expect(String(error)).not.toContain('AKIDEXAMPLE');
    }
  });

  it('refuses a private endpoint unless private networks are allowed, as every egress', () => {
    expect(() => fileStoreFor({ s3: S3 }, ENV, { egress: new EgressClient({ allowPrivateNetworks: false }), purpose: 'rails connector ach outbox' })).toThrow(
      /rails connector ach outbox: endpoint http:\/\/10\.0\.0\.7:9000 refused: 10\.0\.0\.7 is a private/,
    );
  });
});
