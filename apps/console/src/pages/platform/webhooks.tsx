/** Filled in by the views' author. */
export function WebhooksPage() { return <h1>WebhooksPage</h1>; }
export function WebhookDeliveryPage() { return <h1>WebhookDeliveryPage</h1>; }
