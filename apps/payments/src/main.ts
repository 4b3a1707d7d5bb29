import '@payments/observability/register'; // first: tracing patches modules as they load
import 'reflect-metadata';
import { join } from 'node:path';
import { bootPayments } from '@payments/payments';
import { loadSecretHashKey, runClusterService } from '@payments/runtime';

/** Cluster mode: the payments service alone (DATABASE_URL, KAFKA_BROKERS and SECRET_HASH_KEY, shared with identity: it seals stablecoin provider secrets). */
runClusterService('payments', (config, deps) => bootPayments(config, deps, loadSecretHashKey(process.env.SECRET_HASH_KEY, join(config.dataDir, 'secret-hash.key'))));
