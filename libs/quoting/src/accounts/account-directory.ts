import { ClientProxy, ClientProxyFactory, Transport } from '@nestjs/microservices';
import { firstValueFrom, timeout, TimeoutError } from 'rxjs';
import { AccountCurrency, AccountsRpc, ApiError, CallerContext, isErrorEnvelope } from '@payments/contracts';

/** What quoting asks the accounts service, which owns accounts and their currencies. */
export interface AccountDirectory {
  /** The account's currency and owner; ApiError NOT_FOUND for none, another tenant's or a deleted one. */
  accountCurrency(caller: CallerContext, accountId: string): Promise<AccountCurrency>;
  close(): Promise<void>;
}

/**
 * AccountDirectory over the accounts RPC (AccountsRpc.getAccountCurrency), with a deadline. Asking at quote time
 * (instead of mirroring account events) sees an account created a moment ago and never a stale currency.
 */
export class RpcAccountDirectory implements AccountDirectory {
  private readonly proxy: ClientProxy;

  constructor(
    endpoint: { host: string; port: number },
    private readonly timeoutMs: number,
  ) {
    this.proxy = ClientProxyFactory.create({ transport: Transport.TCP, options: { host: endpoint.host, port: endpoint.port } });
  }

  async accountCurrency(caller: CallerContext, accountId: string): Promise<AccountCurrency> {
    try {
      return await firstValueFrom(this.proxy.send<AccountCurrency>(AccountsRpc.getAccountCurrency, { caller, body: { accountId } }).pipe(timeout(this.timeoutMs)));
    } catch (error) {
      if (isErrorEnvelope(error)) throw ApiError.fromEnvelope(error);
      const reason = error instanceof TimeoutError ? `did not answer within ${this.timeoutMs} ms` : 'is unavailable';
      throw new ApiError('SERVICE_UNAVAILABLE', `the accounts service ${reason}`);
    }
  }

  close(): Promise<void> {
    return Promise.resolve(this.proxy.close());
  }
}
