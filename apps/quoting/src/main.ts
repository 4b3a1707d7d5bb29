import '@payments/observability/register'; // first: tracing patches modules as they load
import 'reflect-metadata';
import { bootQuoting } from '@payments/quoting';
import { runClusterService } from '@payments/runtime';

/** Cluster mode: the quoting service alone (DATABASE_URL, KAFKA_BROKERS and SECRET_HASH_KEY, from which its RPC key is derived). */
runClusterService('quoting', bootQuoting);
