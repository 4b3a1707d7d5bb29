import fc from 'fast-check';
import { CRYPTO_NETWORKS } from '@payments/contracts';
import { CRYPTO_CURRENCY_CODES } from '@payments/money';
import { applicationFee, destinationAddressProblem, estimateWithdrawal, WITHDRAWABLE_CURRENCY_CODES, WITHDRAWAL_APPLICATION_FEE_BPS, WITHDRAWAL_NETWORK_FEES } from './withdrawal-fees';

const fees = fc.record({ networkFee: fc.integer({ min: 0, max: 10_000_000 }), networkFeeAsset: fc.constant('ETH') });

describe('withdrawal fee arithmetic (property-based)', () => {
  it('netAmount + totalFee = amount exactly, every part a non-negative safe integer, nothing below fees accepted', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), fees, fc.integer({ min: 0, max: 10_000 }), (amount, fee, bps) => {
        const e = estimateWithdrawal(amount, fee, bps);
        const app = applicationFee(amount, bps);
        if (amount <= fee.networkFee + app) return expect(e).toBeUndefined();
        expect(e).toBeDefined();
        for (const part of [e!.networkFee, e!.applicationFee, e!.totalFee, e!.netAmount]) expect(Number.isSafeInteger(part) && part >= 0).toBe(true);
        expect(e!.totalFee).toBe(e!.networkFee + e!.applicationFee);
        expect(e!.netAmount + e!.totalFee).toBe(amount);
        expect(e!.netAmount).toBeGreaterThan(0);
      }),
      { numRuns: 2_000 },
    );
  });

  it('the application fee is the bps share rounded up: never under, less than one unit over', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: BigInt(Number.MAX_SAFE_INTEGER) }), fc.integer({ min: 0, max: 10_000 }), (amount, bps) => {
        const fee = BigInt(applicationFee(Number(amount), bps));
        expect(fee * 10_000n).toBeGreaterThanOrEqual(amount * BigInt(bps));
        expect(fee * 10_000n - amount * BigInt(bps)).toBeLessThan(10_000n);
      }),
      { numRuns: 2_000 },
    );
  });

  it('charges more for more (monotone in the amount)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 1e12 }), fc.integer({ min: 1, max: 1e6 }), (a, d) => expect(applicationFee(a + d)).toBeGreaterThanOrEqual(applicationFee(a))));
  });

  it('worked example: 10 USDC on Base', () => {
    expect(estimateWithdrawal(10_000_000, WITHDRAWAL_NETWORK_FEES.USDC.BASE!)).toEqual({ networkFee: 10_000, networkFeeAsset: 'ETH', applicationFee: 10_000, totalFee: 20_000, netAmount: 9_980_000 });
    expect(WITHDRAWAL_APPLICATION_FEE_BPS).toBe(10);
  });
});

describe('withdrawal networks', () => {
  it('covers every crypto currency with known networks only', () => {
    expect(Object.keys(WITHDRAWAL_NETWORK_FEES).sort()).toEqual([...CRYPTO_CURRENCY_CODES].sort());
    for (const networks of Object.values(WITHDRAWAL_NETWORK_FEES)) for (const n of Object.keys(networks)) expect(CRYPTO_NETWORKS).toContain(n);
  });

  it('withdraws USDB (Embedded Wallet balances) on no network: it leaves through a quote', () => {
    expect(WITHDRAWAL_NETWORK_FEES.USDB).toEqual({});
    expect([...WITHDRAWABLE_CURRENCY_CODES].sort()).toEqual(['BTC', 'USDC', 'USDT']);
  });

  it.each([
    ['BITCOIN', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'],
    ['SPARK', 'spark1pgss9z2gpzrnhztwy8ffs44x67angma38sqewwddhxlsk65t0c5d5576quly2j'],
    ['LIGHTNING', 'satoshi@wallet.example.com'],
    ['ETHEREUM', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
    ['BASE', '0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359'],
    ['SOLANA', '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T'],
    ['TRON', 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL'],
  ] as const)('accepts a valid %s address', (network, address) => expect(destinationAddressProblem(network, address)).toBeUndefined());

  it('refuses an address of another network', () => {
    expect(destinationAddressProblem('ETHEREUM', 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL')).toBeDefined();
    expect(destinationAddressProblem('TRON', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBeDefined();
    expect(destinationAddressProblem('BITCOIN', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBeDefined();
    expect(destinationAddressProblem('ETHEREUM', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD')).toMatch(/EIP-55/);
    expect(destinationAddressProblem('SOLANA', 'not-base58-0OIl')).toBeDefined();
    expect(destinationAddressProblem('LIGHTNING', 'lnbc1nope')).toBeDefined();
  });
});
