import { AddressCodecs, checksumBlindCodecs, codecs } from './codecs';
import { bitcoinAddressProblem, decodeBitcoinAddress } from './bitcoin-address';
import { eip55, evmAddressProblem } from './evm-address';
import { bolt11Problem, bolt12Problem, lightningAddressProblem } from './lightning';
import { solanaAddressProblem } from './solana-address';
import { sparkAddressProblem } from './spark-address';
import { tronAddressProblem } from './tron-address';

describe('EVM addresses (EIP-55)', () => {
  const EIP55_EXAMPLES = ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359', '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB', '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb'];

  it.each(EIP55_EXAMPLES)('%s is the EIP-55 form of its lower-case hex', (address) => {
    expect(`0x${eip55(address.slice(2).toLowerCase())}`).toBe(address);
    expect(evmAddressProblem(address)).toBeUndefined();
  });

  it('accepts all-lower and all-upper hex, refuses mixed case off the checksum', () => {
    expect(evmAddressProblem(EIP55_EXAMPLES[0].toLowerCase())).toBeUndefined();
    expect(evmAddressProblem(`0x${EIP55_EXAMPLES[0].slice(2).toUpperCase()}`)).toBeUndefined();
    expect(evmAddressProblem('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD')).toMatch(/EIP-55/);
  });

  it('uses the Keccak of the codecs it is given (the library seam)', () => {
    const zeroHash: AddressCodecs = { ...codecs, keccak256: () => new Uint8Array(32) };
    expect(evmAddressProblem(EIP55_EXAMPLES[0], zeroHash)).toMatch(/EIP-55/);
  });
});

describe('Bitcoin L1 addresses', () => {
  it.each([
    ['1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 'MAINNET', 'P2PKH'],
    ['3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', 'MAINNET', 'P2SH'],
    ['mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn', 'TESTNET', 'P2PKH'],
    ['BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4', 'MAINNET', 'P2WPKH'],
    ['tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7', 'TESTNET', 'P2WSH'],
    ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0', 'MAINNET', 'P2TR'],
    ['tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c', 'TESTNET', 'P2TR'],
  ])('%s is %s %s', (address, network, kind) => expect(decodeBitcoinAddress(address)).toEqual({ network, kind }));

  it.each([
    ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd', 'taproot with a bech32 checksum (BIP-350 invalid)'],
    ['BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P', 'v0 program of 16 bytes'],
    ['1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb', 'base58check checksum broken'],
    ['TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 'a TRON address (version 0x41)'],
    ['ltc1qw508d6qejxtdg4y5r3zarvary0c5xw7kgmn4n9', 'another chain'],
  ])('%s is refused (%s)', (address) => expect(bitcoinAddressProblem(address)).toBeDefined());

  it.each(['bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs', 'BC1SW50QGDZ25J', 'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y'])(
    '%s is a valid BIP-350 string for a witness program with no spending rules yet, refused on purpose',
    (address) => {
      expect(codecs.bech32Decode(address)?.encoding).toBe('bech32m');
      expect(bitcoinAddressProblem(address)).toBeDefined();
    },
  );
});

describe('TRON, Solana and Spark addresses', () => {
  it('TRON: base58check, 0x41, starts with T', () => {
    expect(tronAddressProblem('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBeUndefined();
    expect(tronAddressProblem('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u')).toMatch(/checksum/);
    expect(tronAddressProblem('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toMatch(/starting with T/);
  });

  it('Solana: 32-byte keys only', () => {
    expect(solanaAddressProblem('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v')).toBeUndefined();
    expect(solanaAddressProblem('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA')).toBeUndefined();
    expect(solanaAddressProblem('z'.repeat(44))).toMatch(/32-byte/);
    expect(solanaAddressProblem('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1O')).toMatch(/base58/);
  });

  it('Spark: bech32m identity-key addresses under the spark and legacy sp prefixes', () => {
    expect(sparkAddressProblem('spark1pgss9z2gpzrnhztwy8ffs44x67angma38sqewwddhxlsk65t0c5d5576quly2j')).toBeUndefined();
    expect(sparkAddressProblem('spark1pgssx7lqr7akm7ycnn9hxux0mq7q8thvht3dec4ctuwvcht9pdj3qed82tfs7p')).toBeUndefined();
    expect(sparkAddressProblem('spark1pgss9z2gpzrnhztwy8ffs44x67angma38sqewwddhxlsk65t0c5d5576quly2k')).toMatch(/checksum/);
    expect(sparkAddressProblem('bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0')).toMatch(/unknown prefix bc/);
    expect(sparkAddressProblem('abcdef1l7aum6echk45nj3s0wdvt2fg8x9yrzpqzd3ryx')).toMatch(/unknown prefix/);
  });
});

describe('Lightning', () => {
  const BOLT11_SPEC =
    'lnbc2500u1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygspp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5xysxxatsyp3k7enxv4jsxqzpu9qrsgquk0rl77nj30yxdy8j9vdx85fkpmdla2087ne0xh8nhedh8w27kyke0lp53ut353s06fv3qfegext0eh0ymjpf39tuven09sam30g4vgpfna3rh';
  const BOLT11_REGTEST =
    'lnbcrt10n1pj48ugqdphf38yjgz8v9kx77fqxys8xct5ypex2emjv4ehx6t0dcsxv6tcw36hyegpp5qurswpc8qurswpc8qurswpc8qurswpc8qurswpc8qurswpc8qurssp5pqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyq9qrsgqcqpj7n3tcnerf357qjapjupmduwrryy3vdfk63jh45ssw86v34cxtdc9kk2n8hlhgs9f6uprj3eaxz54fwp3w2rkafhphh05llhtjdqp4sqptf062s';
  const BOLT11_SIGNET =
    'lntbs567780n1pnqr26ypp5c0wcrpzwxwqnwu2nld5q36dfc9yjrfdp87nn9d5y093jjncvqresdq0w3jhxar8v3n8xeccqzpuxqrrsssp5r94e3nwnw63gjaxc8wex38ufv2m6442vnrw49m7dad9jdum3tdsq9qyyssqk4dvvuk7zhhju8ztf7nfc2hzqq9gqtzuyc0ljz8nl93laxwv4869lt9fsxkxacje6eh4ur5ymg83hvakn4tfpzdu6fq49705sar7fxspga8qjp';
  const BOLT12 = 'lno1pgx9getnwss8vetrw3hhyuckyypwa3eyt44h6txtxquqh7lz5djge4afgfjn7k4rgrkuag0jsd5xvxg';

  it.each([BOLT11_SPEC, BOLT11_REGTEST, BOLT11_SIGNET, BOLT11_SPEC.toUpperCase()])('BOLT11 invoice %# is accepted', (invoice) => expect(bolt11Problem(invoice)).toBeUndefined());

  it('BOLT11: refuses a broken checksum, an unknown network, a bad amount and bech32m', () => {
    expect(bolt11Problem(BOLT11_SPEC.replace('2500u', '2600u'))).toMatch(/checksum/);
    expect(bolt11Problem('abcdef1l7aum6echk45nj3s0wdvt2fg8x9yrzpqzd3ryx')).toMatch(/checksum/);
    expect(bolt11Problem('abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw')).toMatch(/lnbc/);
    expect(bolt11Problem(BOLT12)).toBeDefined();
  });

  it('BOLT12: accepts an offer (also split with +), refuses one without issuer or paths, a broken stream, a checksum-bearing invoice', () => {
    expect(bolt12Problem(BOLT12)).toBeUndefined();
    expect(bolt12Problem(`${BOLT12.slice(0, 30)}+\n  ${BOLT12.slice(30)}`)).toBeUndefined();
    expect(bolt12Problem(BOLT12.toUpperCase())).toBeUndefined();
    expect(bolt12Problem('lno1pgx9getnwss8vetrw3hhyuc')).toMatch(/issuer id nor blinded paths/);
    expect(bolt12Problem(BOLT12.slice(0, -5))).toMatch(/TLV/);
    expect(bolt12Problem('lno1qqqq' + 'b')).toMatch(/bech32 characters/);
    expect(bolt12Problem(BOLT11_SPEC)).toMatch(/lno1/);
  });

  it('lightning address: user@domain with a lower-case user (LUD-16)', () => {
    expect(lightningAddressProblem('satoshi.102@getalby.com')).toBeUndefined();
    expect(lightningAddressProblem('Satoshi@getalby.com')).toMatch(/lower-case/);
    expect(lightningAddressProblem('satoshi@localhost')).toMatch(/user@domain/);
    expect(lightningAddressProblem('sa toshi@getalby.com')).toMatch(/user@domain/);
  });
});

describe('checksumBlindCodecs: the format of an address apart from its checksum', () => {
  const BOLT11 =
    'lnbc2500u1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygspp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5xysxxatsyp3k7enxv4jsxqzpu9qrsgquk0rl77nj30yxdy8j9vdx85fkpmdla2087ne0xh8nhedh8w27kyke0lp53ut353s06fv3qfegext0eh0ymjpf39tuven09sam30g4vgpfna3rh';

  it.each([
    ['EIP-55', evmAddressProblem, '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD'],
    ['base58check (Bitcoin)', bitcoinAddressProblem, '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb'],
    ['bech32 (Bitcoin v0)', bitcoinAddressProblem, 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5'],
    ['bech32m (taproot)', bitcoinAddressProblem, 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj2'],
    ['base58check (TRON)', tronAddressProblem, 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u'],
    ['bech32m (Spark)', sparkAddressProblem, 'spark1pgss9z2gpzrnhztwy8ffs44x67angma38sqewwddhxlsk65t0c5d5576quly2k'],
    ['bech32 (BOLT11)', bolt11Problem, BOLT11.replace('2500u', '2600u')],
  ] as const)('a broken %s checksum is the only problem', (_, problem, address) => {
    expect(problem(address)).toBeDefined();
    expect(problem(address, checksumBlindCodecs)).toBeUndefined();
  });

  it.each([
    [evmAddressProblem, '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe'],
    [bitcoinAddressProblem, 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd'], // a checksum that holds, of the wrong kind
    [bitcoinAddressProblem, 'BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9Q'],
    [bitcoinAddressProblem, 'bC1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5'],
    [tronAddressProblem, '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'],
    [sparkAddressProblem, 'spark1pgss9z2gpzrnhztwy8ffs44x67angma38sqewwddhxlsk65t0c5d5576qu'],
    [bolt11Problem, 'lnxx2500u1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygs'],
  ])('still refuses a malformed address (%#)', (problem, address) => expect(problem(address, checksumBlindCodecs)).toBeDefined());
});
