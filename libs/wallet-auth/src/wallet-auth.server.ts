import { DynamicModule, Module } from '@nestjs/common';
import { ServiceServer, ServiceServerOptions, startServiceServer } from '@payments/runtime';
import { WalletAuth, WALLET_AUTH_SERVICE } from './wallet-auth';
import { WalletAuthRpcController } from './wallet-auth.rpc.controller';
import { WALLET_AUTH } from './wallet-auth.tokens';

@Module({})
class WalletAuthRpcModule {
  static forWalletAuth(auth: WalletAuth): DynamicModule {
    return { module: WalletAuthRpcModule, controllers: [WalletAuthRpcController], providers: [{ provide: WALLET_AUTH, useValue: auth }] };
  }
}

/** Serves the wallet-auth RPC, its relay and timers, and its ops server. */
export function startWalletAuthServer(
  auth: WalletAuth,
  rpc: ServiceServerOptions['rpc'],
  log?: (message: string, error?: unknown) => void,
  ops?: ServiceServerOptions['ops'],
): Promise<ServiceServer> {
  return startServiceServer({ name: WALLET_AUTH_SERVICE, module: WalletAuthRpcModule.forWalletAuth(auth), host: auth.host, rpc, ops, background: [{ start: async () => undefined, stop: () => auth.close() }], log });
}
