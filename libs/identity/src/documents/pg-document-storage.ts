import { queryRows, SqlExecutor } from '@payments/eventsourcing';
import { sha256Hex } from './document-content';
import { DocumentStorage } from './document-storage';

/**
 * DocumentStorage on the service's own PostgreSQL (`document_files`, bytea), used in embedded and cluster mode
 * alike. The digest is checked on the way in and on the way out, so corruption is an error, never a silent file.
 */
export class PgDocumentStorage implements DocumentStorage {
  constructor(private readonly db: SqlExecutor) {}

  async put(tx: SqlExecutor, key: string, bytes: Buffer, sha256: string): Promise<void> {
    if (sha256Hex(bytes) !== sha256) throw new Error(`document file ${key}: the bytes do not match their SHA-256`);
    await tx.query(
      `INSERT INTO document_files (file_key, content, sha256, size_bytes) VALUES ($1, $2, $3, $4) ON CONFLICT (file_key) DO NOTHING`,
      [key, bytes, sha256, bytes.length],
    );
  }

  async get(key: string): Promise<Buffer | undefined> {
    const [row] = await queryRows<{ content: Buffer; sha256: string }>(this.db, `SELECT content, sha256 FROM document_files WHERE file_key = $1`, [key]);
    if (!row) return undefined;
    if (sha256Hex(row.content) !== row.sha256) throw new Error(`document file ${key}: stored bytes do not match their SHA-256`);
    return row.content;
  }

  async delete(tx: SqlExecutor, key: string): Promise<void> {
    await tx.query(`DELETE FROM document_files WHERE file_key = $1`, [key]);
  }
}
