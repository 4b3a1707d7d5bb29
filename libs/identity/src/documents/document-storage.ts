import type { SqlExecutor } from '@payments/eventsourcing';

/**
 * Where document bytes live, behind a port so an object store can replace PostgreSQL later. Writes take the
 * caller's transaction: the bytes commit or roll back with the event that refers to them, so a failed upload
 * leaves neither. An adapter without transactions (an object store) would write first under a fresh key and
 * sweep keys no event refers to.
 */
export interface DocumentStorage {
  /** Stores `bytes` under `key`; `sha256` is their digest, checked by the adapter. Writing the same key twice is a no-op. */
  put(tx: SqlExecutor, key: string, bytes: Buffer, sha256: string): Promise<void>;
  /** The bytes under `key`, or undefined when there are none. */
  get(key: string): Promise<Buffer | undefined>;
  delete(tx: SqlExecutor, key: string): Promise<void>;
}
