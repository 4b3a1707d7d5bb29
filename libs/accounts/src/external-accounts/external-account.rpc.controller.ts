import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AccountsRpc,
  ConfirmUntrustRequest,
  CreateExternalAccountRequest,
  CreatePlatformExternalAccountRequest,
  ExternalAccount,
  ListExternalAccountsQuery,
  ListPlatformExternalAccountsQuery,
  Mode,
  Page,
  ReceiverLookup,
  ReceiverLookupQuery,
  RpcRequest,
  UntrustChallenge,
} from '@payments/contracts';
import type { Accounts } from '../accounts';
import { ACCOUNTS } from '../accounts.tokens';
import { sandboxSuffix } from './rules';

type WithId<T = unknown> = RpcRequest<{ externalAccountId: string } & T>;
const now = () => new Date().toISOString();

/** Thin RPC adapter of external accounts and receiver lookups. */
@Controller()
export class ExternalAccountRpcController {
  constructor(@Inject(ACCOUNTS) private readonly accounts: Accounts) {}

  @MessagePattern(AccountsRpc.createExternalAccount)
  create(@Payload() r: RpcRequest<CreateExternalAccountRequest>): Promise<ExternalAccount> {
    return this.accounts.externalAccounts.createForCustomer(r.caller, r.body, now());
  }

  @MessagePattern(AccountsRpc.createPlatformExternalAccount)
  createPlatform(@Payload() r: RpcRequest<CreatePlatformExternalAccountRequest>): Promise<ExternalAccount> {
    return this.accounts.externalAccounts.createForPlatform(r.caller, r.body, now());
  }

  @MessagePattern(AccountsRpc.listExternalAccounts)
  list(@Payload() r: RpcRequest<ListExternalAccountsQuery>): Promise<Page<ExternalAccount>> {
    return this.accounts.externalAccounts.listForCustomers(r.caller, r.body);
  }

  @MessagePattern(AccountsRpc.listPlatformExternalAccounts)
  listPlatform(@Payload() r: RpcRequest<ListPlatformExternalAccountsQuery>): Promise<Page<ExternalAccount>> {
    return this.accounts.externalAccounts.listForPlatform(r.caller, r.body);
  }

  @MessagePattern(AccountsRpc.getExternalAccount)
  get(@Payload() r: WithId): Promise<ExternalAccount> {
    return this.accounts.externalAccounts.get(r.caller, r.body.externalAccountId);
  }

  @MessagePattern(AccountsRpc.deleteExternalAccount)
  async delete(@Payload() r: WithId): Promise<null> {
    await this.accounts.externalAccounts.delete(r.caller, r.body.externalAccountId, now());
    return null;
  }

  @MessagePattern(AccountsRpc.trustExternalAccount)
  trust(@Payload() r: WithId): Promise<ExternalAccount> {
    return this.accounts.externalAccounts.trust(r.caller, r.body.externalAccountId, now());
  }

  @MessagePattern(AccountsRpc.beginUntrustExternalAccount)
  beginUntrust(@Payload() r: WithId): Promise<UntrustChallenge> {
    return this.accounts.externalAccounts.beginUntrust(r.caller, r.body.externalAccountId, now());
  }

  @MessagePattern(AccountsRpc.confirmUntrustExternalAccount)
  confirmUntrust(@Payload() r: WithId<ConfirmUntrustRequest>): Promise<ExternalAccount> {
    return this.accounts.externalAccounts.confirmUntrust(r.caller, r.body.externalAccountId, r.body.code, now());
  }

  @MessagePattern(AccountsRpc.assertExternalAccountCanReceive)
  assertCanReceive(@Payload() r: { platformId: string; mode: Mode; externalAccountId: string }): Promise<ExternalAccount> {
    return this.accounts.externalAccounts.assertCanReceive(r.platformId, r.mode, r.externalAccountId);
  }

  /** The one place the account-type table reads a primary identifier: payments asks here instead of copying it. */
  @MessagePattern(AccountsRpc.getExternalAccountSandboxSuffix)
  async sandboxSuffix(@Payload() r: WithId): Promise<{ suffix: string | null }> {
    const account = await this.accounts.externalAccounts.get(r.caller, r.body.externalAccountId);
    return { suffix: sandboxSuffix(String(account.accountInfo.accountType), account.accountInfo) ?? null };
  }

  @MessagePattern(AccountsRpc.receiverLookup)
  receiverLookup(@Payload() r: RpcRequest<{ accountId: string } & ReceiverLookupQuery>): Promise<ReceiverLookup> {
    const { accountId, ...query } = r.body;
    return this.accounts.externalAccounts.receiverLookup(r.caller, accountId, query);
  }
}
