import { DynamicModule, INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MicroserviceOptions, Transport } from '@nestjs/microservices';
import type { EventBus } from '@payments/messaging';
import { OpsServer, RpcErrorFilter, startServiceOps } from '@payments/runtime';
import { Identity, IDENTITY_SERVICE } from './identity';
import { IDENTITY, IdentityRpcController } from './identity.rpc.controller';

@Module({})
class IdentityRpcModule {
  static forIdentity(identity: Identity): DynamicModule {
    return { module: IdentityRpcModule, controllers: [IdentityRpcController], providers: [{ provide: IDENTITY, useValue: identity }] };
  }
}

export interface IdentityServer {
  app: INestMicroservice;
  /** /healthz, /readyz, /metrics, when `ops` was given. */
  ops?: OpsServer;
  stop(): Promise<void>;
}

/** Serves the identity RPC on TCP, starts its relay and timers, and its ops server when `ops` is given. */
export async function startIdentityServer(
  identity: Identity,
  rpc: { host: string; port: number },
  log: (message: string, error?: unknown) => void = () => undefined,
  ops?: { host: string; port: number; bus: Pick<EventBus, 'ping'> },
): Promise<IdentityServer> {
  const app = await NestFactory.createMicroservice<MicroserviceOptions>(IdentityRpcModule.forIdentity(identity), {
    transport: Transport.TCP,
    options: { host: rpc.host, port: rpc.port },
    logger: false,
  });
  app.useGlobalFilters(new RpcErrorFilter(log));
  await app.listen();
  await identity.host.start();
  const opsServer = ops
    ? await startServiceOps({ app: IDENTITY_SERVICE, service: identity.host, ...ops }).catch(async (error) => {
        await app.close(); // e.g. the ops port is taken: leave nothing running behind the failure
        await identity.host.stop();
        throw error;
      })
    : undefined;
  return {
    app,
    ops: opsServer,
    stop: async () => {
      await opsServer?.stop(); // first: its collectors query the database closed below
      await app.close();
      await identity.host.stop();
    },
  };
}
