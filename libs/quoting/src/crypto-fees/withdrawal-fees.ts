import { bitcoinAddressProblem, bolt11Problem, bolt12Problem, evmAddressProblem, lightningAddressProblem, solanaAddressProblem, sparkAddressProblem, tronAddressProblem } from '@payments/addresses';
import type { CryptoNetwork, WithdrawalFeeEstimate } from '@payments/contracts';

/** One network a currency can be withdrawn on: the sandbox network fee (currency smallest unit) and its fee asset. */
export interface NetworkFee {
  networkFee: number;
  networkFeeAsset: string;
}

/**
 * Which networks each crypto currency lives on, with a deterministic sandbox network fee in the currency's smallest
 * unit (satoshis; USDC/USDT 6-decimal units), roughly what each chain costs: Bitcoin L1 is dear, Lightning and Spark
 * cheap; Ethereum L1 dear, its L2s and Solana cents; Plasma carries USDT without a fee. Same as the external-account
 * wallet table (accounts): USDC is not on TRON or PLASMA, USDT not on BASE. USDB has no network: it is the balance of
 * Embedded Wallets (Global Accounts), which the published docs take out only through a quote ("Use the standard
 * /quotes API to convert in from fiat or out to any supported Grid bank-account rail", global-accounts/concepts.mdx);
 * neither the published API nor its docs withdraw USDB to an external address (no ExternalAccountType holds USDB).
 */
export const WITHDRAWAL_NETWORK_FEES: Readonly<Record<string, Partial<Record<CryptoNetwork, NetworkFee>>>> = {
  BTC: {
    BITCOIN: { networkFee: 2_000, networkFeeAsset: 'BTC' },
    LIGHTNING: { networkFee: 10, networkFeeAsset: 'BTC' },
    SPARK: { networkFee: 5, networkFeeAsset: 'BTC' },
  },
  USDC: {
    ETHEREUM: { networkFee: 1_500_000, networkFeeAsset: 'ETH' },
    BASE: { networkFee: 10_000, networkFeeAsset: 'ETH' },
    POLYGON: { networkFee: 20_000, networkFeeAsset: 'POL' },
    SOLANA: { networkFee: 5_000, networkFeeAsset: 'SOL' },
  },
  USDT: {
    ETHEREUM: { networkFee: 2_000_000, networkFeeAsset: 'ETH' },
    POLYGON: { networkFee: 20_000, networkFeeAsset: 'POL' },
    SOLANA: { networkFee: 5_000, networkFeeAsset: 'SOL' },
    TRON: { networkFee: 1_000_000, networkFeeAsset: 'TRX' },
    PLASMA: { networkFee: 0, networkFeeAsset: 'XPL' },
  },
  USDB: {},
};

/** The crypto currencies that can be withdrawn to an external address: those on at least one network. */
export const WITHDRAWABLE_CURRENCY_CODES: readonly string[] = Object.entries(WITHDRAWAL_NETWORK_FEES)
  .filter(([, networks]) => Object.keys(networks).length > 0)
  .map(([code]) => code);

/** The service's fee on a crypto withdrawal: 0.1% of the amount, rounded up to a whole smallest unit. */
export const WITHDRAWAL_APPLICATION_FEE_BPS = 10;

/** Why `address` cannot receive on `network`, or undefined. */
export function destinationAddressProblem(network: CryptoNetwork, address: string): string | undefined {
  switch (network) {
    case 'BITCOIN':
      return bitcoinAddressProblem(address);
    case 'SPARK':
      return sparkAddressProblem(address);
    case 'LIGHTNING':
      // A lightning address, a BOLT11 invoice or a BOLT12 offer, as for LIGHTNING external accounts.
      return address.includes('@') ? lightningAddressProblem(address) : address.toLowerCase().startsWith('lno') ? bolt12Problem(address) : bolt11Problem(address);
    case 'ETHEREUM':
    case 'BASE':
    case 'POLYGON':
    case 'PLASMA':
      return evmAddressProblem(address);
    case 'SOLANA':
      return solanaAddressProblem(address);
    case 'TRON':
      return tronAddressProblem(address);
    default: {
      const never: never = network;
      return `unknown network ${String(never)}`;
    }
  }
}

/** ceil(amount × bps / 10 000) in exact integer arithmetic (amount may be any safe integer). */
export function applicationFee(amount: number, bps: number = WITHDRAWAL_APPLICATION_FEE_BPS): number {
  return Number((BigInt(amount) * BigInt(bps) + 9_999n) / 10_000n);
}

/**
 * The estimate for withdrawing `amount` (smallest unit): totalFee = networkFee + applicationFee, netAmount = amount −
 * totalFee, exactly. `undefined` when the fees eat the whole amount (nothing would arrive).
 */
export function estimateWithdrawal(amount: number, fee: NetworkFee, bps: number = WITHDRAWAL_APPLICATION_FEE_BPS): WithdrawalFeeEstimate | undefined {
  const app = applicationFee(amount, bps);
  const totalFee = fee.networkFee + app;
  if (amount <= totalFee) return undefined;
  return { networkFee: fee.networkFee, networkFeeAsset: fee.networkFeeAsset, applicationFee: app, totalFee, netAmount: amount - totalFee };
}
