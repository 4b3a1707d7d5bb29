import { ApiError, CallerContext } from '@payments/contracts';
import { UnconfiguredContactCodeSender } from '@payments/runtime';
import type { ActiveWallet } from './wallet.state';
import { WalletContext } from './wallet-context';
import type { WalletStore } from './wallet-store';

describe('WalletContext.newOtp in production without a contact delivery gateway', () => {
  it('refuses (501 CONTACT_DELIVERY) before the store is asked anything, so no OTP is recorded', async () => {
    const asked: string[] = [];
    const store = new Proxy({}, { get: (_target, name) => () => asked.push(String(name)) }) as unknown as WalletStore;
    const ctx = new WalletContext(store, {} as never, new UnconfiguredContactCodeSender(), {} as never);
    const caller: CallerContext = { platformId: 'Platform:1', mode: 'PRODUCTION', clientId: 'c', permissions: ['TRANSACT'] };
    const refused = await ctx.newOtp(caller, { mode: 'PRODUCTION' } as ActiveWallet, new Date().toISOString()).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 501, details: { capability: 'CONTACT_DELIVERY', configure: 'CONTACT_DELIVERY_URL' } });
    expect(asked).toEqual([]);
  });
});
