import { AccountType } from '../../account-types';
import { bad, exactlyOne, FULL_INDIVIDUAL, missing, RowCases, wallet } from './test-case-helpers';

const BOLT11 =
  'lnbc2500u1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygspp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5xysxxatsyp3k7enxv4jsxqzpu9qrsgquk0rl77nj30yxdy8j9vdx85fkpmdla2087ne0xh8nhedh8w27kyke0lp53ut353s06fv3qfegext0eh0ymjpf39tuven09sam30g4vgpfna3rh';
const BOLT12 = 'lno1pgx9getnwss8vetrw3hhyuckyypwa3eyt44h6txtxquqh7lz5djge4afgfjn7k4rgrkuag0jsd5xvxg';
const USDC_ETHEREUM = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';

const evmCases = (accountType: AccountType, currency: string, wrongCurrency: string): RowCases => ({
  accountType,
  currency,
  valid: [wallet(accountType, { address: USDC_ETHEREUM }), wallet(accountType, { address: USDC_ETHEREUM.toLowerCase() })],
  invalid: [
    bad('address', '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eb48', 'mixed case that breaks EIP-55'),
    bad('address', '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB4', '39 hex digits'),
    bad('address', 'A0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', 'no 0x'),
    bad('address', '0x0000000000000000000000000000000000000000', 'the zero address'),
    ...missing('address'),
    { name: 'a currency the network does not carry here', patch: {}, field: 'currency', currency: wrongCurrency },
    { name: 'a beneficiary on a wallet', patch: { beneficiary: FULL_INDIVIDUAL }, field: 'accountInfo.beneficiary' },
  ],
});

/** Crypto wallets and Lightning. */
export const CRYPTO_CASES: RowCases[] = [
  {
    accountType: 'SPARK_WALLET',
    currency: 'BTC',
    valid: [
      wallet('SPARK_WALLET', { address: 'spark1pgss9z2gpzrnhztwy8ffs44x67angma38sqewwddhxlsk65t0c5d5576quly2j' }),
      wallet('SPARK_WALLET', { address: 'spark1pgssyele0qrcjdheeq2a0zmpwdwvj3r4f4stkuju0fp36g6grapv2w7l8am2cp' }),
    ],
    invalid: [
      bad('address', 'spark1pgss9z2gpzrnhztwy8ffs44x67angma38sqewwddhxlsk65t0c5d5576quly2k', 'a character changed (checksum)'),
      bad('address', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0', 'a Bitcoin taproot address'),
      ...missing('address'),
      { name: 'a stablecoin', patch: {}, field: 'currency', currency: 'USDT' },
      { name: 'a beneficiary on a wallet', patch: { beneficiary: FULL_INDIVIDUAL }, field: 'accountInfo.beneficiary' },
    ],
  },
  {
    accountType: 'BITCOIN_L1',
    currency: 'BTC',
    valid: [
      '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
      '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy',
      'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4',
      'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0',
      'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7',
      'mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn',
    ].map((address) => wallet('BITCOIN_L1', { address })),
    invalid: [
      bad('address', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb', 'a base58check checksum broken'),
      bad('address', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd', 'taproot with a bech32 (not bech32m) checksum'),
      bad('address', 'BC1SW50QGDZ25J', 'witness version 16, refused as unspendable-by-rule'),
      bad('address', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 'a TRON address'),
      ...missing('address'),
      { name: 'a stablecoin', patch: {}, field: 'currency', currency: 'USDC' },
    ],
  },
  {
    accountType: 'TRON_WALLET',
    currency: 'USDT',
    valid: [wallet('TRON_WALLET', { address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' })],
    invalid: [
      bad('address', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u', 'a base58check checksum broken'),
      bad('address', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 'a Bitcoin address'),
      bad('address', USDC_ETHEREUM, 'an EVM address'),
      ...missing('address'),
      { name: 'USDC on TRON', patch: {}, field: 'currency', currency: 'USDC' },
    ],
  },
  {
    accountType: 'SOLANA_WALLET',
    currency: 'USDC',
    valid: [wallet('SOLANA_WALLET', { address: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' }), wallet('SOLANA_WALLET', { address: '11111111111111111111111111111111' })],
    invalid: [
      bad('address', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt10', 'a 0, outside base58'),
      bad('address', 'z'.repeat(44), '44 characters decoding to 33 bytes'),
      bad('address', 'abc', 'too short'),
      ...missing('address'),
      { name: 'BTC on Solana', patch: {}, field: 'currency', currency: 'BTC' },
    ],
  },
  evmCases('PLASMA_WALLET', 'USDT', 'USDC'),
  evmCases('ETHEREUM_WALLET', 'USDC', 'BTC'),
  evmCases('POLYGON_WALLET', 'USDT', 'BTC'),
  evmCases('BASE_WALLET', 'USDC', 'USDT'),
  {
    accountType: 'LIGHTNING',
    currency: 'BTC',
    valid: [wallet('LIGHTNING', { lightningAddress: 'alice@example.com' }), wallet('LIGHTNING', { invoice: BOLT11 }), wallet('LIGHTNING', { bolt12: BOLT12 })],
    invalid: [
      exactlyOne('lightningAddress and invoice', { invoice: BOLT11 }),
      exactlyOne('invoice and bolt12', { bolt12: BOLT12 }, 1),
      exactlyOne('none of the three', { lightningAddress: undefined }),
      bad('lightningAddress', 'alice', 'lightningAddress without a domain'),
      bad('lightningAddress', 'Alice@example.com', 'lightningAddress with an upper-case user'),
      bad('invoice', BOLT11.replace('2500u', '2600u'), 'invoice whose amount was edited (checksum)', 1),
      bad('invoice', BOLT12, 'a BOLT12 offer given as invoice', 1),
      bad('bolt12', BOLT11, 'a BOLT11 invoice given as bolt12', 2),
      bad('bolt12', `${BOLT12.slice(0, -5)}`, 'a truncated offer', 2),
      bad('bolt12', 'lno1pgx9getnwss8vetrw3hhyuc', 'an offer with a description only', 2),
      bad('bolt12', 'lno1bbbb', 'an offer with characters outside bech32', 2),
      { name: 'a beneficiary on a wallet', patch: { beneficiary: FULL_INDIVIDUAL }, field: 'accountInfo.beneficiary' },
    ],
  },
];
