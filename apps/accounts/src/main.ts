import '@payments/observability/register'; // first: tracing patches modules as they load
import 'reflect-metadata';
import { bootAccounts } from '@payments/accounts';
import { runClusterService } from '@payments/runtime';

/** Cluster mode: the accounts service alone (DATABASE_URL, KAFKA_BROKERS and SECRET_HASH_KEY, from which its RPC key is derived). */
runClusterService('accounts', bootAccounts);
