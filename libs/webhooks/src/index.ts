export * from './webhooks';
export * from './webhooks.server';
export * from './webhooks.migrations';
export * from './delivery/delivery-queue';
export * from './signing/webhook-signature';
export * from './webhooks.boot';
export { webhookFor } from './catalogue/event-mapping';
