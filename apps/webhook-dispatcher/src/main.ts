import '@payments/observability/register'; // first: tracing patches modules as they load
import 'reflect-metadata';
import { runClusterService } from '@payments/runtime';
import { bootWebhookDispatcher } from '@payments/webhooks';

/** Cluster mode: the webhook dispatcher alone (DATABASE_URL and KAFKA_BROKERS required). */
runClusterService('webhook-dispatcher', bootWebhookDispatcher);
