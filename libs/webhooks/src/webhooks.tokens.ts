export const WEBHOOKS = Symbol('Webhooks');
