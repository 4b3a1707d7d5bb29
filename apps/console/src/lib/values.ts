/**
 * Enumerations of the API the console offers as choices. They mirror libs/contracts (which the browser bundle does not
 * import: it would carry the server's validators); a value missing here is still shown as the API sends it.
 */
export const TRANSACTION_STATUSES = ['CREATED', 'PENDING', 'PENDING_AUTHORIZATION', 'PROCESSING', 'COMPLETED', 'REJECTED', 'FAILED', 'REFUNDED', 'EXPIRED', 'AUTHORIZED', 'PARTIALLY_SETTLED', 'SETTLED', 'EXCEPTION'] as const;
export const TRANSACTION_TYPES = ['INCOMING', 'OUTGOING', 'CARD'] as const;
export const CUSTOMER_TYPES = ['INDIVIDUAL', 'BUSINESS'] as const;
export const PERMISSIONS = ['VIEW', 'TRANSACT', 'MANAGE'] as const;
export const DELIVERY_STATUSES = ['PENDING', 'DELIVERED', 'REJECTED', 'FAILED', 'DEAD_LETTER'] as const;
