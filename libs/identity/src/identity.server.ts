import { DynamicModule, INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MicroserviceOptions, Transport } from '@nestjs/microservices';
import { RpcErrorFilter } from '@payments/runtime';
import { Identity } from './identity';
import { IDENTITY, IdentityRpcController } from './identity.rpc.controller';

@Module({})
class IdentityRpcModule {
  static forIdentity(identity: Identity): DynamicModule {
    return { module: IdentityRpcModule, controllers: [IdentityRpcController], providers: [{ provide: IDENTITY, useValue: identity }] };
  }
}

export interface IdentityServer {
  app: INestMicroservice;
  stop(): Promise<void>;
}

/** Serves the identity RPC on TCP and starts its relay and timers. */
export async function startIdentityServer(
  identity: Identity,
  rpc: { host: string; port: number },
  log: (message: string, error?: unknown) => void = () => undefined,
): Promise<IdentityServer> {
  const app = await NestFactory.createMicroservice<MicroserviceOptions>(IdentityRpcModule.forIdentity(identity), {
    transport: Transport.TCP,
    options: { host: rpc.host, port: rpc.port },
    logger: false,
  });
  app.useGlobalFilters(new RpcErrorFilter(log));
  await app.listen();
  await identity.host.start();
  return {
    app,
    stop: async () => {
      await app.close();
      await identity.host.stop();
    },
  };
}
