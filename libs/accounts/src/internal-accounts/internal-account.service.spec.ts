import type { EntityManager } from 'typeorm';
import { untouchable } from '@payments/testing';
import type { LedgerService, OpenAccount } from '../ledger/ledger.service';
import { internalAccountId, InternalAccountService } from './internal-account.service';

describe('InternalAccountService.openForCustomer: the Embedded Wallet', () => {
  const tx = untouchable<EntityManager>('tx');
  const opened = async (currencies: string[], embeddedWallet: boolean) => {
    const accounts: OpenAccount[] = [];
    const ledger = { open: async (_tx: EntityManager, account: OpenAccount) => void accounts.push(account) } as unknown as LedgerService;
    await new InternalAccountService(untouchable('dataSource'), ledger, untouchable('claims')).openForCustomer(tx, 'Platform:p', 'SANDBOX', 'Customer:c', currencies, embeddedWallet, '2026-01-01T00:00:00.000Z');
    return accounts.map((a) => ({ id: a.accountId, currency: a.currency, purpose: a.purpose, owner: a.owner, customerId: a.customerId }));
  };
  const wallet = { id: internalAccountId('Platform:p', 'SANDBOX', 'Customer:c', 'USDB'), currency: 'USDB', purpose: 'EMBEDDED_WALLET', owner: 'CUSTOMER', customerId: 'Customer:c' };
  const usd = { id: internalAccountId('Platform:p', 'SANDBOX', 'Customer:c', 'USD'), currency: 'USD', purpose: 'CUSTOMER', owner: 'CUSTOMER', customerId: 'Customer:c' };

  it('opens it on a platform that supports USDB, though the customer did not list USDB', async () => {
    expect(await opened(['USD'], true)).toEqual([usd, wallet]);
  });

  it('makes the customer\'s own USDB account the Embedded Wallet: one USDB account, never a CUSTOMER one', async () => {
    expect(await opened(['USD', 'USDB'], true)).toEqual([usd, wallet]);
    expect(await opened(['USDB', 'USD'], false)).toEqual([usd, wallet]);
  });

  it('opens none on a platform without USDB', async () => {
    expect(await opened(['USD'], false)).toEqual([usd]);
    expect(await opened([], false)).toEqual([]);
  });
});
