import { queryRows, SqlExecutor } from '@payments/eventsourcing';
import { SecretSealer } from '@payments/runtime';
import { sha256Hex } from './document-content';
import { DocumentStorage } from './document-storage';

/** The purpose the sealing key is derived for (from SECRET_HASH_KEY): no other sealed value opens with it. */
export const DOCUMENT_FILES_PURPOSE = 'payments-platform/document-files/v1';

/**
 * DocumentStorage on the service's own PostgreSQL (`document_files`, bytea), used in embedded and cluster mode
 * alike. The bytes are sealed at rest (AES-256-GCM under a key derived from SECRET_HASH_KEY), bound to their file
 * key, which names the document and the digest: a dump shows no document, and sealed bytes copied to another row do
 * not open there. The digest of the plaintext is checked on the way in and on the way out, so corruption is an error,
 * never a silent file. Rows from before sealing (`sealed = false`) are read as they are until `sealLegacyFiles` has
 * sealed them (the identity service runs it at start).
 */
export class PgDocumentStorage implements DocumentStorage {
  constructor(
    private readonly db: SqlExecutor,
    private readonly sealer: SecretSealer,
  ) {}

  async put(tx: SqlExecutor, key: string, bytes: Buffer, sha256: string): Promise<void> {
    if (sha256Hex(bytes) !== sha256) throw new Error(`document file ${key}: the bytes do not match their SHA-256`);
    await tx.query(
      `INSERT INTO document_files (file_key, content, sha256, size_bytes, sealed) VALUES ($1, $2, $3, $4, true) ON CONFLICT (file_key) DO NOTHING`,
      [key, this.sealer.sealBytes(bytes, key), sha256, bytes.length],
    );
  }

  async get(key: string): Promise<Buffer | undefined> {
    const [row] = await queryRows<{ content: Buffer; sha256: string; sealed: boolean }>(this.db, `SELECT content, sha256, sealed FROM document_files WHERE file_key = $1`, [key]);
    if (!row) return undefined;
    const bytes = row.sealed ? this.open(key, row.content) : row.content;
    if (sha256Hex(bytes) !== row.sha256) throw new Error(`document file ${key}: stored bytes do not match their SHA-256`);
    return bytes;
  }

  async delete(tx: SqlExecutor, key: string): Promise<void> {
    await tx.query(`DELETE FROM document_files WHERE file_key = $1`, [key]);
  }

  /**
   * Seals the rows written before sealing, a batch at a time; returns how many it sealed. Safe with several
   * identity instances at once: a row is written only while it is still unsealed.
   */
  async sealLegacyFiles(batch = 50): Promise<number> {
    let sealed = 0;
    for (;;) {
      const rows = await queryRows<{ file_key: string; content: Buffer }>(this.db, `SELECT file_key, content FROM document_files WHERE NOT sealed ORDER BY file_key LIMIT $1`, [batch]);
      for (const row of rows) {
        const [{ n }] = await queryRows<{ n: number }>(
          this.db,
          `WITH done AS (UPDATE document_files SET content = $2, sealed = true WHERE file_key = $1 AND NOT sealed RETURNING 1) SELECT count(*)::int AS n FROM done`,
          [row.file_key, this.sealer.sealBytes(row.content, row.file_key)],
        );
        sealed += n;
      }
      if (rows.length < batch) return sealed;
    }
  }

  private open(key: string, content: Buffer): Buffer {
    try {
      return this.sealer.openBytes(content, key);
    } catch {
      throw new Error(`document file ${key}: stored bytes do not match their seal (altered, moved from another row, or sealed under another SECRET_HASH_KEY)`);
    }
  }
}
