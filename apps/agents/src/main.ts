import '@payments/observability/register'; // first: tracing patches modules as they load
import 'reflect-metadata';
import { bootAgents } from '@payments/agents';
import { runClusterService } from '@payments/runtime';

/** Cluster mode: the agents service alone (DATABASE_URL, KAFKA_BROKERS and SECRET_HASH_KEY: access tokens are kept as keyed hashes). */
runClusterService('agents', (config, deps) => bootAgents(config, deps, deps.secretHashKey!), { needsSecretHashKey: true });
