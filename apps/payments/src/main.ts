import '@payments/observability/register'; // first: tracing patches modules as they load
import 'reflect-metadata';
import { bootPayments } from '@payments/payments';
import { runClusterService } from '@payments/runtime';

/** Cluster mode: the payments service alone (DATABASE_URL, KAFKA_BROKERS and SECRET_HASH_KEY, shared with identity: it seals stablecoin provider secrets). */
runClusterService('payments', (config, deps) => bootPayments(config, deps, deps.secretHashKey!), { needsSecretHashKey: true });
