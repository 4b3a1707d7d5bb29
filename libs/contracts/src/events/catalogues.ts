import { ACCOUNTS_EVENTS } from './accounts.events';
import { CARDS_EVENTS } from './cards.events';
import { AGENTS_EVENTS } from './agents.events';
import { defineCatalogue, EventCatalogue, EventService } from './catalogue';
import { IDENTITY_EVENTS } from './identity.events';
import { PAYMENTS_EVENTS } from './payments.events';
import { QUOTING_EVENTS } from './quoting.events';
import { WALLET_AUTH_EVENTS } from './wallet-auth.events';

/** The webhook dispatcher appends no events: its topic carries nothing. */
export const WEBHOOKS_EVENTS = defineCatalogue('webhooks', []);

/** Every service's catalogue, by service: what each writes, and what of it leaves the service. */
export const EVENT_CATALOGUES = {
  identity: IDENTITY_EVENTS,
  accounts: ACCOUNTS_EVENTS,
  quoting: QUOTING_EVENTS,
  payments: PAYMENTS_EVENTS,
  webhooks: WEBHOOKS_EVENTS,
  'wallet-auth': WALLET_AUTH_EVENTS,
  cards: CARDS_EVENTS,
  agents: AGENTS_EVENTS,
} as const satisfies Record<EventService, EventCatalogue>;

/** The catalogue of a service by name; a service that declares nothing publishes nothing. */
export function catalogueOf(service: string): EventCatalogue {
  return (EVENT_CATALOGUES as Record<string, EventCatalogue>)[service] ?? defineCatalogue(service as EventService, []);
}
