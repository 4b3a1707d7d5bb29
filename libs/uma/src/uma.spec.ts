import { SUPPORTED_CURRENCY_CODES } from '@payments/money';
import { isLei, parseUmaAddress, sandboxUmaReceiver, SANDBOX_UMA_DOMAIN, UMA_PROVIDERS } from './index';

describe('UMA addresses', () => {
  it.each([
    ['$alice@example.com', '$alice@example.com'],
    ['$success.usd@sandbox.uma.money', '$success.usd@sandbox.uma.money'],
    ['$a_b-c.9@sub.domain.example', '$a_b-c.9@sub.domain.example'],
    ['$Alice@Example.COM', '$alice@example.com'],
    [`$${'x'.repeat(64)}@example.com`, `$${'x'.repeat(64)}@example.com`],
  ])('%s parses as %s', (input, normalised) => expect(parseUmaAddress(input)?.address).toBe(normalised));

  it.each([
    'alice@example.com', // no $
    '$@example.com', // empty user
    `$${'x'.repeat(65)}@example.com`, // user too long
    '$al ice@example.com',
    '$al+ice@example.com',
    '$alice@@example.com',
    '$alice@exa@mple.com',
    '$alice',
    '$alice@',
    '$alice@localhost', // one label
    '$alice@127.0.0.1', // not a host name
    '$alice@-bad.example',
    '$alice@bad-.example',
    '$alice@example.c0m',
    `$alice@${'a'.repeat(64)}.example`, // label too long
    '$alice@exämple.com',
    '',
  ])('%s is not a UMA address', (input) => expect(parseUmaAddress(input)).toBeUndefined());

  it('splits user and domain', () => expect(parseUmaAddress('$bob.smith@pay.example')).toEqual({ address: '$bob.smith@pay.example', user: 'bob.smith', domain: 'pay.example' }));
});

describe('sandbox UMA receivers', () => {
  it.each([
    ['$success.usd', { currency: 'USD', outcome: 'SUCCESS' }],
    ['$success.eur', { currency: 'EUR', outcome: 'SUCCESS' }],
    ['$success.mxn', { currency: 'MXN', outcome: 'SUCCESS' }],
    ['$pending.long.usd', { currency: 'USD', outcome: 'PENDING_LONG' }],
    ['$fail.compliance.usd', { currency: 'USD', outcome: 'FAIL_COMPLIANCE' }],
  ])('%s at the sandbox domain is %j', (user, receiver) => {
    expect(sandboxUmaReceiver(`${user}@${SANDBOX_UMA_DOMAIN}`)).toEqual(receiver);
    expect(sandboxUmaReceiver(`${user}@sandbox.grid.uma.money`)).toEqual(receiver);
    expect(sandboxUmaReceiver(`${user.toUpperCase()}@SANDBOX.UMA.MONEY`)).toEqual(receiver);
  });

  it('knows no other user, no other domain and no invalid address', () => {
    expect(sandboxUmaReceiver('$success.gbp@sandbox.uma.money')).toBeUndefined();
    expect(sandboxUmaReceiver('$success.usd@uma.money')).toBeUndefined();
    expect(sandboxUmaReceiver('$constructor@sandbox.uma.money')).toBeUndefined(); // not an Object.prototype key
    expect(sandboxUmaReceiver('success.usd@sandbox.uma.money')).toBeUndefined();
  });
});

describe('UMA provider catalogue', () => {
  it('holds a dozen or so well-formed providers with unique names and domains', () => {
    expect(UMA_PROVIDERS.length).toBeGreaterThanOrEqual(12);
    expect(new Set(UMA_PROVIDERS.map((p) => p.name)).size).toBe(UMA_PROVIDERS.length);
    expect(new Set(UMA_PROVIDERS.map((p) => p.domain)).size).toBe(UMA_PROVIDERS.length);
    for (const p of UMA_PROVIDERS) {
      expect(isLei(p.lei)).toBe(true);
      expect(parseUmaAddress(`$user@${p.domain}`)).toBeDefined();
      expect(p.domain.endsWith('.example')).toBe(true); // reserved: never a real company
      for (const c of p.supportedCurrencies) expect(SUPPORTED_CURRENCY_CODES).toContain(c);
      for (const r of p.supportedRegions) expect(r).toMatch(/^[A-Z]{2}$/);
    }
    expect(UMA_PROVIDERS.some((p) => p.allowListStatus === 'BLOCKED')).toBe(true);
  });

  it('checks LEI check digits (ISO 17442)', () => {
    expect(isLei('5493001KJTIIGC8Y1R12')).toBe(true); // a published LEI
    expect(isLei('5493001KJTIIGC8Y1R13')).toBe(false);
    expect(isLei('5493001KJTIIGC8Y1R1')).toBe(false);
  });
});
