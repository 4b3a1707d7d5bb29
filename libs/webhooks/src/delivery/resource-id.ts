/**
 * The id of the resource a webhook carries in `data` (a transaction, a customer, a card…), when it has one: kept with
 * the delivery so GET /webhook-deliveries?resourceId= finds a resource's webhooks by index. Pure.
 */
export function resourceIdOf(data: unknown): string | null {
  const id = data !== null && typeof data === 'object' ? (data as { id?: unknown }).id : undefined;
  return typeof id === 'string' && id.length > 0 ? id : null;
}
