import { AccountTypeRow, fieldIdentifier, firstOfIdentifier } from '../account-type-row';
import { bitcoinAddressProblem, bolt11Problem, bolt12Problem, evmAddressProblem, lightningAddressProblem, solanaAddressProblem, sparkAddressProblem, tronAddressProblem } from '@payments/addresses';
import { required } from '../field-rule';
import { addressFormat } from '../formats';

function walletRow(accountType: AccountTypeRow['accountType'], currencies: string[], problem: Parameters<typeof addressFormat>[0], format: string): AccountTypeRow {
  return {
    accountType,
    currencies,
    fields: { address: required(addressFormat(problem, format)) },
    beneficiary: 'none',
    identifier: fieldIdentifier('address'),
  };
}

/** Crypto wallets: one address on the named network, no beneficiary. */
export const CRYPTO_ROWS: readonly AccountTypeRow[] = [
  walletRow('SPARK_WALLET', ['BTC'], sparkAddressProblem, 'spark-address'),
  walletRow('BITCOIN_L1', ['BTC'], bitcoinAddressProblem, 'bitcoin-address'),
  walletRow('TRON_WALLET', ['USDT'], tronAddressProblem, 'tron-address'),
  walletRow('SOLANA_WALLET', ['USDC', 'USDT'], solanaAddressProblem, 'solana-address'),
  walletRow('PLASMA_WALLET', ['USDT'], evmAddressProblem, 'evm-address'),
  walletRow('ETHEREUM_WALLET', ['USDC', 'USDT'], evmAddressProblem, 'evm-address'),
  walletRow('POLYGON_WALLET', ['USDC', 'USDT'], evmAddressProblem, 'evm-address'),
  walletRow('BASE_WALLET', ['USDC'], evmAddressProblem, 'evm-address'),
  {
    accountType: 'LIGHTNING',
    currencies: ['BTC'],
    fields: {},
    variants: [
      { name: 'lightning address', key: 'lightningAddress', fields: { lightningAddress: required(addressFormat(lightningAddressProblem, 'lightning-address')) } },
      { name: 'BOLT11 invoice', key: 'invoice', fields: { invoice: required(addressFormat(bolt11Problem, 'bolt11')) } },
      { name: 'BOLT12 offer', key: 'bolt12', fields: { bolt12: required(addressFormat(bolt12Problem, 'bolt12')) } },
    ],
    beneficiary: 'none',
    identifier: firstOfIdentifier('lightningAddress', 'invoice', 'bolt12'),
  },
];
