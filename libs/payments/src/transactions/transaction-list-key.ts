/**
 * The sort key of GET /transactions (column `list_key`): `<createdAt as ISO 8601 UTC with milliseconds> <id>`.
 * Fixed-width time first, so byte order is creation order whatever the id's prefix (`Transaction:` or
 * `CardTransaction:`); the id makes it unique. `createdAt` never changes, so neither does the key: keyset pages stay
 * stable. Migration payments:0003 backfilled it with the same format in SQL.
 */
export const listKeyOf = (createdAt: string, transactionId: string): string => `${new Date(createdAt).toISOString()} ${transactionId}`;

/** A cursor issued before list_key (its `after` is a bare transaction id) rather than a list key. */
export const isLegacyCursorKey = (after: string): boolean => !after.includes(' ');
