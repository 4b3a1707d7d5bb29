import '@payments/observability/register'; // first: tracing patches modules as they load
import 'reflect-metadata';
import { bootPayments } from '@payments/payments';
import { runClusterService } from '@payments/runtime';

/** Cluster mode: the payments service alone (DATABASE_URL and KAFKA_BROKERS required). */
runClusterService('payments', bootPayments);
