import type { Catalogued, IDENTITY_EVENTS, PlatformConfigInitializedData, PlatformConfigUpdatedData, WebhookEndpointDisabledData } from '@payments/contracts';

export type { PlatformConfigFields } from '@payments/contracts';

/** The public data is declared in libs/contracts (IDENTITY_EVENTS). */
export type PlatformConfigInitialized = { type: 'PlatformConfigInitialized.v1'; data: PlatformConfigInitializedData };

/** Only the fields that changed; `webhookEndpoint: null` means it was removed. */
export type PlatformConfigUpdated = { type: 'PlatformConfigUpdated.v1'; data: PlatformConfigUpdatedData };

/** The dispatcher saw 410 Gone from `endpoint`: nothing more is delivered to it until an endpoint is set again. */
export type WebhookEndpointDisabled = { type: 'WebhookEndpointDisabled.v1'; data: WebhookEndpointDisabledData };

export type PlatformConfigEvent = PlatformConfigInitialized | PlatformConfigUpdated | WebhookEndpointDisabled;

/** Every event of the stream is declared in the identity catalogue, its stored data fitting the declaration. */
const _declared: Catalogued<typeof IDENTITY_EVENTS, PlatformConfigEvent> = true;
