import '@payments/observability/register'; // first: tracing patches modules as they load
import 'reflect-metadata';
import { bootWalletAuth } from '@payments/wallet-auth';
import { runClusterService } from '@payments/runtime';

/** Cluster mode: the wallet-auth service alone (DATABASE_URL, KAFKA_BROKERS and SECRET_HASH_KEY, shared with identity). */
runClusterService('wallet-auth', (config, deps) => bootWalletAuth(config, deps, deps.secretHashKey!), { needsSecretHashKey: true });
