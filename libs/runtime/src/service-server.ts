import { DynamicModule, INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MicroserviceOptions } from '@nestjs/microservices';
import type { SubscriptionHandle } from '@payments/messaging';
import type { Registry } from 'prom-client';
import { createAppRegistry } from './ops/app-registry';
import { OpsServer } from './ops/ops-server';
import { RpcServerMetrics } from './ops/rpc-server-metrics';
import type { ReadinessChecks } from './ops/readiness';
import { OpsBus, serviceOps } from './ops/service-ops';
import { startOpsServer } from './ops/ops-server';
import { InProcessCapableTcpServer } from './rpc/in-process-rpc';
import { RpcErrorFilter } from './rpc/rpc-error.filter';
import { ServiceHost } from './service-host';

/** Background work a service runs next to its RPC server (consumers, workers), started and stopped with it. */
export interface BackgroundWork {
  start(): Promise<void> | void;
  stop(): Promise<void>;
}

export interface ServiceServerOptions {
  name: string;
  /** The `app` label and the prefix of the app's consumer groups (default: `name`). */
  app?: string;
  /** The app's registry when the service records metrics of its own in it (else one is created). */
  registry?: Registry;
  /** The Nest module with the service's RPC controllers. */
  module: DynamicModule;
  host: ServiceHost;
  /** listen: false = reachable in-process only (the embedded mode): nothing binds. */
  rpc: { host: string; port: number; listen?: boolean };
  /** listen: false = no ops server of its own (the embedded mode serves every app's checks and metrics on one port). */
  ops?: { host: string; port: number; bus: OpsBus; listen?: boolean };
  background?: BackgroundWork[];
  log?: (message: string, error?: unknown) => void;
}

export interface ServiceServer {
  app: INestMicroservice;
  /** The app label (`webhook-dispatcher`, `accounts`, …). */
  label: string;
  /** Its own ops server, when it listens on one. */
  ops?: OpsServer;
  /** The app's metrics (served by `ops` when there is one). */
  registry: Registry;
  /** The app's readiness checks (served by `ops` when there is one). */
  checks?: ReadinessChecks;
  stop(): Promise<void>;
}

/**
 * How every event-sourced service runs: RPC over @nestjs/microservices TCP (and in-process to clients in the same
 * process) with the error-envelope filter, its ServiceHost (relay, timers), its ops server, and its background
 * work. A failure half-way stops what started.
 */
export async function startServiceServer(options: ServiceServerOptions): Promise<ServiceServer> {
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch((e) => options.log?.(`${options.name}: shutdown step failed`, e));
    stops.length = 0;
  };
  const app = options.app ?? options.name;
  const registry = options.registry ?? createAppRegistry(app);
  try {
    // Stops run last-in first-out: ops, background work, the RPC server, then the host and its database.
    await options.host.start();
    stops.push(() => options.host.stop());
    const rpcServer = await NestFactory.createMicroservice<MicroserviceOptions>(options.module, {
      strategy: new InProcessCapableTcpServer(options.name, { host: options.rpc.host, port: options.rpc.port }, new RpcServerMetrics(registry, options.name).record, { log: options.log, listen: options.rpc.listen }),
      logger: false,
    });
    rpcServer.useGlobalFilters(new RpcErrorFilter(options.log));
    stops.push(() => rpcServer.close());
    await rpcServer.listen();
    for (const work of options.background ?? []) {
      await work.start();
      stops.push(() => work.stop());
    }
    const prepared = options.ops ? serviceOps({ app, registry, service: options.host, bus: options.ops.bus }) : undefined;
    const ops = prepared && options.ops!.listen !== false ? await startOpsServer({ app, host: options.ops!.host, port: options.ops!.port, ...prepared }) : undefined;
    if (ops) stops.push(() => ops.stop());
    return { app: rpcServer, label: app, ops, registry, checks: prepared?.checks, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A bus subscription as background work: subscribes on start, stops on stop (then runs `afterStop`, if any). */
export function subscriptionWork(subscribe: () => Promise<SubscriptionHandle>, afterStop?: () => Promise<void>): BackgroundWork {
  let subscription: SubscriptionHandle | undefined;
  return {
    start: async () => {
      subscription = await subscribe();
    },
    stop: async () => {
      await subscription?.stop();
      subscription = undefined;
      await afterStop?.();
    },
  };
}
