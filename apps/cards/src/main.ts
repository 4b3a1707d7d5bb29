import '@payments/observability/register'; // first: tracing patches modules as they load
import 'reflect-metadata';
import { bootCards } from '@payments/cards';
import { runClusterService } from '@payments/runtime';

/** Cluster mode: the cards service alone (DATABASE_URL, KAFKA_BROKERS and SECRET_HASH_KEY, shared with identity and wallet-auth). */
runClusterService('cards', (config, deps) => bootCards(config, deps, deps.secretHashKey!), { needsSecretHashKey: true });
