import '@payments/observability/register'; // first: tracing patches modules as they load
import 'reflect-metadata';
import { runClusterService } from '@payments/runtime';
import { bootWebhookDispatcher } from '@payments/webhooks';

/** Cluster mode: the webhook dispatcher alone (DATABASE_URL, KAFKA_BROKERS and SECRET_HASH_KEY, from which its RPC key is derived). */
runClusterService('webhook-dispatcher', bootWebhookDispatcher);
