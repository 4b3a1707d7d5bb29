import { DynamicModule, Module } from '@nestjs/common';
import { ServiceServer, ServiceServerOptions, startServiceServer } from '@payments/runtime';
import { Quoting, QUOTING_SERVICE } from './quoting';
import { QuotingRpcController } from './quoting.rpc.controller';
import { ScaPasskeysRpcController } from './sca/sca-passkeys.rpc.controller';
import { QUOTING } from './quoting.tokens';
import { UmaRpcController } from './uma/uma.rpc.controller';
import { CryptoFeesRpcController } from './crypto-fees/crypto-fees.rpc.controller';
import { FeesRpcController } from './fees/fees.rpc.controller';
import { OperatorRatesRpcController } from './rates/production/operator-rates.rpc.controller';

@Module({})
class QuotingRpcModule {
  static forQuoting(quoting: Quoting): DynamicModule {
    return {
      module: QuotingRpcModule,
      controllers: [QuotingRpcController, ScaPasskeysRpcController, UmaRpcController, CryptoFeesRpcController, FeesRpcController, OperatorRatesRpcController],
      providers: [{ provide: QUOTING, useValue: quoting }],
    };
  }
}

/** Serves the quoting RPC, its relay and timers, the identity-events consumer and its ops server. */
export function startQuotingServer(
  quoting: Quoting,
  rpc: ServiceServerOptions['rpc'],
  log?: (message: string, error?: unknown) => void,
  ops?: ServiceServerOptions['ops'],
): Promise<ServiceServer> {
  return startServiceServer({ name: QUOTING_SERVICE, module: QuotingRpcModule.forQuoting(quoting), host: quoting.host, rpc, ops, background: [quoting.identityEvents, ...(quoting.ecbRates ? [quoting.ecbRates] : [])], log });
}
