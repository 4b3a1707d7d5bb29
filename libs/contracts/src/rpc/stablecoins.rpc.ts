import type { Page } from '../pagination';
import type {
  LinkStablecoinProviderAccountRequest,
  ListStablecoinOperationsQuery,
  ListStablecoinProviderAccountsQuery,
  ListStablecoinsQuery,
  RegisterStablecoinRequest,
  Stablecoin,
  StablecoinBurnRequest,
  StablecoinMintRequest,
  StablecoinOperation,
  StablecoinProviderAccount,
} from '../stablecoins';
import { rpc, sandboxRpc } from './rpc-contract';

/** RPC contracts of the stablecoins part of the payments service (docs/stablecoins.md). */
export const StablecoinsRpc = {
  linkProviderAccount: rpc<LinkStablecoinProviderAccountRequest, StablecoinProviderAccount>('payments.stablecoins.provider-accounts.link'),
  listProviderAccounts: rpc<ListStablecoinProviderAccountsQuery, Page<StablecoinProviderAccount>>('payments.stablecoins.provider-accounts.list'),
  getProviderAccount: rpc<{ stablecoinProviderAccountId: string }, StablecoinProviderAccount>('payments.stablecoins.provider-accounts.get'),
  register: rpc<RegisterStablecoinRequest, Stablecoin>('payments.stablecoins.register'),
  list: rpc<ListStablecoinsQuery, Page<Stablecoin>>('payments.stablecoins.list'),
  get: rpc<{ stablecoinId: string }, Stablecoin>('payments.stablecoins.get'),
  mint: rpc<StablecoinMintRequest & { stablecoinId: string }, StablecoinOperation>('payments.stablecoins.mint'),
  burn: rpc<StablecoinBurnRequest & { stablecoinId: string }, StablecoinOperation>('payments.stablecoins.burn'),
  listOperations: rpc<ListStablecoinOperationsQuery & { stablecoinId: string }, Page<StablecoinOperation>>('payments.stablecoins.operations.list'),
  getOperation: rpc<{ stablecoinOperationId: string }, StablecoinOperation>('payments.stablecoins.operations.get'),
  /** Sandbox: the simulated provider receives the funds an operation waits for (its funding instructions followed). */
  sandboxFund: sandboxRpc<{ stablecoinOperationId: string }, StablecoinOperation>('payments.stablecoins.sandbox.fund'),
} as const;
