import { CallerContext, ChangeCustomerContactBody, CustomerContactChanged, RestoreCustomerContactBody, SignedOutcome, SignedRequestChallenge, WalletAuthRpc } from '@payments/contracts';
import { ServiceClient } from '@payments/runtime';

/**
 * What identity asks wallet-auth before a customer's email or phone changes: the customer's Embedded Wallets may hold
 * credentials tied to it, which makes the change a signed retry, and which change with it.
 */
export interface WalletContacts {
  change(caller: CallerContext, body: ChangeCustomerContactBody): Promise<SignedOutcome<CustomerContactChanged, SignedRequestChallenge>>;
  restore(caller: CallerContext, body: RestoreCustomerContactBody): Promise<void>;
  close(): Promise<void>;
}

export class RpcWalletContacts implements WalletContacts {
  private readonly client: ServiceClient;

  constructor(endpoint: { host: string; port: number }, timeoutMs: number) {
    this.client = new ServiceClient({ name: 'wallet-auth', ...endpoint }, timeoutMs);
  }

  change(caller: CallerContext, body: ChangeCustomerContactBody): Promise<SignedOutcome<CustomerContactChanged, SignedRequestChallenge>> {
    return this.client.call(WalletAuthRpc.changeCustomerContact, { caller, body });
  }

  async restore(caller: CallerContext, body: RestoreCustomerContactBody): Promise<void> {
    await this.client.call(WalletAuthRpc.restoreCustomerContact, { caller, body });
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

/** An identity without wallet-auth (tools that never change contacts): no wallet is tied to anything. */
export class NoWalletContacts implements WalletContacts {
  async change(): Promise<SignedOutcome<CustomerContactChanged, SignedRequestChallenge>> {
    return { result: { walletsChanged: 0 } };
  }

  async restore(): Promise<void> {}

  async close(): Promise<void> {}
}
