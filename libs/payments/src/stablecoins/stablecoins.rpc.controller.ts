import { Controller, Inject } from '@nestjs/common';
import {
  LinkStablecoinProviderAccountRequest,
  ListStablecoinOperationsQuery,
  ListStablecoinProviderAccountsQuery,
  ListStablecoinsQuery,
  Page,
  RegisterStablecoinRequest,
  RpcRequest,
  Stablecoin,
  StablecoinBurnRequest,
  StablecoinMintRequest,
  StablecoinOperation,
  StablecoinProviderAccount,
  StablecoinsRpc,
} from '@payments/contracts';
import { Handles } from '@payments/runtime';
import type { Payments } from '../payments';
import { PAYMENTS } from '../payments.tokens';

const now = () => new Date().toISOString();

/** Thin RPC adapter of stablecoins (payments service). */
@Controller()
export class StablecoinsRpcController {
  constructor(@Inject(PAYMENTS) private readonly payments: Payments) {}

  @Handles(StablecoinsRpc.linkProviderAccount)
  link(r: RpcRequest<LinkStablecoinProviderAccountRequest>): Promise<StablecoinProviderAccount> {
    return this.payments.stablecoins.links.link(r.caller, r.body, now());
  }

  @Handles(StablecoinsRpc.listProviderAccounts)
  listLinks(r: RpcRequest<ListStablecoinProviderAccountsQuery>): Promise<Page<StablecoinProviderAccount>> {
    return this.payments.stablecoins.links.list(r.caller, r.body);
  }

  @Handles(StablecoinsRpc.getProviderAccount)
  getLink(r: RpcRequest<{ stablecoinProviderAccountId: string }>): Promise<StablecoinProviderAccount> {
    return this.payments.stablecoins.links.get(r.caller, r.body.stablecoinProviderAccountId);
  }

  @Handles(StablecoinsRpc.register)
  register(r: RpcRequest<RegisterStablecoinRequest>): Promise<Stablecoin> {
    return this.payments.stablecoins.registry.register(r.caller, r.body, now());
  }

  @Handles(StablecoinsRpc.list)
  list(r: RpcRequest<ListStablecoinsQuery>): Promise<Page<Stablecoin>> {
    return this.payments.stablecoins.registry.list(r.caller, r.body);
  }

  @Handles(StablecoinsRpc.get)
  get(r: RpcRequest<{ stablecoinId: string }>): Promise<Stablecoin> {
    return this.payments.stablecoins.registry.get(r.caller, r.body.stablecoinId);
  }

  @Handles(StablecoinsRpc.mint)
  mint(r: RpcRequest<StablecoinMintRequest & { stablecoinId: string }>): Promise<StablecoinOperation> {
    return this.payments.stablecoins.operations.mint(r.caller, r.body, now());
  }

  @Handles(StablecoinsRpc.burn)
  burn(r: RpcRequest<StablecoinBurnRequest & { stablecoinId: string }>): Promise<StablecoinOperation> {
    return this.payments.stablecoins.operations.burn(r.caller, r.body, now());
  }

  @Handles(StablecoinsRpc.listOperations)
  listOperations(r: RpcRequest<ListStablecoinOperationsQuery & { stablecoinId: string }>): Promise<Page<StablecoinOperation>> {
    return this.payments.stablecoins.operations.list(r.caller, r.body);
  }

  @Handles(StablecoinsRpc.getOperation)
  getOperation(r: RpcRequest<{ stablecoinOperationId: string }>): Promise<StablecoinOperation> {
    return this.payments.stablecoins.operations.get(r.caller, r.body.stablecoinOperationId);
  }

  @Handles(StablecoinsRpc.sandboxFund)
  sandboxFund(r: RpcRequest<{ stablecoinOperationId: string }>): Promise<StablecoinOperation> {
    return this.payments.stablecoins.operations.sandboxFund(r.caller, r.body.stablecoinOperationId, now());
  }
}
