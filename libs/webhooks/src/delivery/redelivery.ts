import type { DeliveryStatus } from './delivery-queue';

/**
 * Which webhooks may be put back in the queue. A platform may redeliver anything that is not queued already: dead
 * letters, FAILED and REJECTED ones, and DELIVERED ones too (a resend after the platform lost what it received; the
 * id stays the same, so a receiver that deduplicates treats it as the duplicate it is). A PENDING one is waiting for
 * its next attempt: 409. The operator CLI (`webhooks:redeliver`) requeues dead letters only.
 */
export const PLATFORM_REDELIVERABLE: readonly DeliveryStatus[] = ['DEAD_LETTER', 'FAILED', 'REJECTED', 'DELIVERED'];
export const DEAD_LETTERS_ONLY: readonly DeliveryStatus[] = ['DEAD_LETTER'];
