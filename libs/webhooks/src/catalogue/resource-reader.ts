import { AccountsRpc, ApiError, CallerContext, CustomerImportsRpc, CustomersRpc, InternalAccount, Mode, MODES, VerificationsRpc } from '@payments/contracts';
import type { ServiceClient } from '@payments/runtime';
import type { ResourceRef } from './event-mapping';

/** The dispatcher reads as its own caller: view-only, scoped to the event's platform and mode. */
export const dispatcherCaller = (platformId: string, mode: Mode): CallerContext => ({ platformId, mode, clientId: 'webhook-dispatcher', permissions: ['VIEW'] });

/**
 * Reads a webhook's `data` from the service that owns it, at enqueue time: the resource as GET would return it now,
 * from committed state. Events without a mode are tried in each mode: ids are unique, only one mode can own it.
 * Returns null when no mode owns it (a deleted resource with nothing to say).
 */
export class ResourceReader {
  constructor(private readonly clients: { identity: ServiceClient; accounts: ServiceClient }) {}

  async read(platformId: string, mode: Mode | undefined, ref: ResourceRef): Promise<{ mode: Mode; data: unknown } | null> {
    for (const candidate of mode ? [mode] : MODES) {
      try {
        return { mode: candidate, data: await this.readIn(dispatcherCaller(platformId, candidate), ref) };
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 404) throw error; // unavailable: the bus retries the event
      }
    }
    if (ref.kind === 'externalAccount' && mode) return { mode, data: ref.gone };
    return null;
  }

  private async readIn(caller: CallerContext, ref: ResourceRef): Promise<unknown> {
    switch (ref.kind) {
      case 'customer':
        return this.clients.identity.call(CustomersRpc.get, { caller, body: { customerId: ref.customerId } });
      case 'verification':
        return this.clients.identity.call(VerificationsRpc.get, { caller, body: { verificationId: ref.verificationId } });
      case 'bulkJob':
        return this.clients.identity.call(CustomerImportsRpc.get, { caller, body: { jobId: ref.jobId } });
      case 'externalAccount':
        return this.clients.accounts.call(AccountsRpc.getExternalAccount, { caller, body: { externalAccountId: ref.externalAccountId } });
      case 'internalAccount':
        return this.internalAccount(caller, ref);
    }
  }

  /** Accounts has no get-by-id RPC: the owner's accounts in that currency are few, the one with this id is picked. */
  private async internalAccount(caller: CallerContext, ref: Extract<ResourceRef, { kind: 'internalAccount' }>): Promise<InternalAccount> {
    const accounts = ref.customerId
      ? (await this.clients.accounts.call(AccountsRpc.listCustomerInternalAccounts, { caller, body: { customerId: ref.customerId, currency: ref.currency, limit: 100 } })).data
      : (await this.clients.accounts.call(AccountsRpc.listPlatformInternalAccounts, { caller, body: { currency: ref.currency } })).data;
    const account = accounts.find((a) => a.id === ref.accountId);
    if (!account) throw new ApiError('NOT_FOUND', 'internal account not found');
    return account;
  }
}
