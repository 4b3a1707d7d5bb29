import { Controller, Inject } from '@nestjs/common';
import {
  AccountsRpc,
  AssertExternalAccountCanReceiveRequest,
  ConfirmUntrustBody,
  CreateExternalAccountRequest,
  CreatePlatformExternalAccountRequest,
  ExternalAccount,
  ExternalAccountIdBody,
  ExternalAccountSandboxSuffix,
  isExternalAccountId,
  ListExternalAccountsQuery,
  ListPlatformExternalAccountsQuery,
  PayableExternalAccount,
  Page,
  ReceiverLookup,
  ReceiverLookupBody,
  RpcRequest,
  TransferAccounts,
  TransferAccountsBody,
  UntrustChallenge,
  UntrustConfirmed,
} from '@payments/contracts';
import { Handles } from '@payments/runtime';
import type { Accounts } from '../accounts';
import { ACCOUNTS } from '../accounts.tokens';
import { sandboxSuffix } from './rules';
import { lookUpAccounts } from '../account-currency';

const now = () => new Date().toISOString();

/** Thin RPC adapter of external accounts and receiver lookups. */
@Controller()
export class ExternalAccountRpcController {
  constructor(@Inject(ACCOUNTS) private readonly accounts: Accounts) {}

  @Handles(AccountsRpc.createExternalAccount)
  create(r: RpcRequest<CreateExternalAccountRequest>): Promise<ExternalAccount> {
    return this.accounts.externalAccounts.createForCustomer(r.caller, r.body, now());
  }

  @Handles(AccountsRpc.createPlatformExternalAccount)
  createPlatform(r: RpcRequest<CreatePlatformExternalAccountRequest>): Promise<ExternalAccount> {
    return this.accounts.externalAccounts.createForPlatform(r.caller, r.body, now());
  }

  @Handles(AccountsRpc.listExternalAccounts)
  list(r: RpcRequest<ListExternalAccountsQuery>): Promise<Page<ExternalAccount>> {
    return this.accounts.externalAccounts.listForCustomers(r.caller, r.body);
  }

  @Handles(AccountsRpc.listPlatformExternalAccounts)
  listPlatform(r: RpcRequest<ListPlatformExternalAccountsQuery>): Promise<Page<ExternalAccount>> {
    return this.accounts.externalAccounts.listForPlatform(r.caller, r.body);
  }

  @Handles(AccountsRpc.getExternalAccount)
  get(r: RpcRequest<ExternalAccountIdBody>): Promise<ExternalAccount> {
    return this.accounts.externalAccounts.get(r.caller, r.body.externalAccountId);
  }

  @Handles(AccountsRpc.deleteExternalAccount)
  async delete(r: RpcRequest<ExternalAccountIdBody>): Promise<null> {
    await this.accounts.externalAccounts.delete(r.caller, r.body.externalAccountId, now());
    return null;
  }

  @Handles(AccountsRpc.getPlatformExternalAccount)
  getPlatform(r: RpcRequest<ExternalAccountIdBody>): Promise<ExternalAccount> {
    return this.accounts.externalAccounts.get(r.caller, r.body.externalAccountId, 'PLATFORM');
  }

  @Handles(AccountsRpc.deletePlatformExternalAccount)
  async deletePlatform(r: RpcRequest<ExternalAccountIdBody>): Promise<null> {
    await this.accounts.externalAccounts.delete(r.caller, r.body.externalAccountId, now(), 'PLATFORM');
    return null;
  }

  @Handles(AccountsRpc.trustExternalAccount)
  trust(r: RpcRequest<ExternalAccountIdBody>): Promise<ExternalAccount> {
    return this.accounts.externalAccounts.trust(r.caller, r.body.externalAccountId, now());
  }

  @Handles(AccountsRpc.beginUntrustExternalAccount)
  beginUntrust(r: RpcRequest<ExternalAccountIdBody>): Promise<UntrustChallenge> {
    return this.accounts.externalAccounts.beginUntrust(r.caller, r.body.externalAccountId, now());
  }

  @Handles(AccountsRpc.confirmUntrustExternalAccount)
  confirmUntrust(r: RpcRequest<ConfirmUntrustBody>): Promise<UntrustConfirmed> {
    const { externalAccountId, ...proof } = r.body;
    return this.accounts.externalAccounts.confirmUntrust(r.caller, externalAccountId, proof, now());
  }

  @Handles(AccountsRpc.assertExternalAccountCanReceive)
  async assertCanReceive(r: AssertExternalAccountCanReceiveRequest): Promise<PayableExternalAccount> {
    const account = await this.accounts.externalAccounts.assertCanReceive(r.platformId, r.mode, r.externalAccountId);
    return { account, sandboxSuffix: suffixOf(account) };
  }

  /**
   * A transfer's two accounts and its payee in one call and one statement (issue #30; lookUpAccounts). Unknown or
   * foreign accounts are null: payments refuses them in its order.
   */
  @Handles(AccountsRpc.getTransferAccounts)
  async transferAccounts(r: RpcRequest<TransferAccountsBody>): Promise<TransferAccounts> {
    const { sourceAccountId, destinationAccountId, externalSide } = r.body;
    const payeeId = externalSide === 'source' ? sourceAccountId : destinationAccountId;
    const found = await lookUpAccounts(this.accounts.host.dataSource, r.caller, [sourceAccountId, destinationAccountId]);
    const payee = isExternalAccountId(payeeId) ? (found.get(payeeId)?.external ?? null) : null;
    return {
      source: found.get(sourceAccountId)?.currency ?? null,
      destination: found.get(destinationAccountId)?.currency ?? null,
      payee: payee && { account: payee, sandboxSuffix: suffixOf(payee) },
    };
  }

  /** The one place the account-type table reads a primary identifier: payments asks here instead of copying it. */
  @Handles(AccountsRpc.getExternalAccountSandboxSuffix)
  async sandboxSuffix(r: RpcRequest<ExternalAccountIdBody>): Promise<ExternalAccountSandboxSuffix> {
    return { suffix: suffixOf(await this.accounts.externalAccounts.get(r.caller, r.body.externalAccountId)) };
  }

  @Handles(AccountsRpc.receiverLookup)
  receiverLookup(r: RpcRequest<ReceiverLookupBody>): Promise<ReceiverLookup> {
    const { accountId, ...query } = r.body;
    return this.accounts.externalAccounts.receiverLookup(r.caller, accountId, query);
  }
}

const suffixOf = (account: ExternalAccount): string | null => sandboxSuffix(String(account.accountInfo.accountType), account.accountInfo) ?? null;
