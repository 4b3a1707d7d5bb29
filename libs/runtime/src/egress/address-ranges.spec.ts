import { refusedLiteralTarget, refusedRangeOf } from './address-ranges';

/**
 * The classifier alone, as a pure function: every range a tenant's URL must never reach, and public addresses that
 * must pass. Tests never connect anywhere here; the connect-time checks are in egress-client.spec.ts (loopback only).
 */
describe('refusedRangeOf: the address ranges outbound calls for a tenant never reach', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'], // cloud metadata services
    ['fe80::1', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.254', 'shared'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['ff0e::1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['0.1.2.3', 'reserved'], // "this network"
    ['240.0.0.1', 'reserved'],
    ['192.0.0.8', 'reserved'], // IETF protocol assignments
    ['192.0.2.1', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['2001:db8::1', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['fec0::1', 'reserved'], // site-local, deprecated
    ['100::1', 'reserved'], // discard-only
    ['2001::1', 'reserved'], // Teredo and the other IETF protocol assignments
    ['64:ff9b:1::1', 'reserved'], // local-use NAT64
    ['::7f00:1', 'reserved'], // IPv4-compatible IPv6 (deprecated)
    ['::a00:1', 'reserved'],
  ])('%s is %s', (address, range) => {
    expect(refusedRangeOf(address)).toBe(range);
  });

  it.each([
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:a00:1', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['0:0:0:0:0:ffff:a9fe:a9fe', 'link-local'],
    ['::ffff:100.64.1.1', 'shared'],
    ['64:ff9b::10.0.0.1', 'private'], // NAT64 well-known prefix embedding a private address
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['2002:a00:1::1', 'private'], // 6to4 of 10.0.0.1
    ['2002:7f00:1::', 'loopback'],
  ])('%s embeds an IPv4 address: %s', (address, range) => {
    expect(refusedRangeOf(address)).toBe(range);
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '100.63.255.255', '100.128.0.1', '172.15.255.255', '172.32.0.1', '192.167.1.1', '169.253.1.1', '223.255.255.255', '2606:4700:4700::1111', '2a00:1450:4001::200e', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'])(
    '%s is public',
    (address) => {
      expect(refusedRangeOf(address)).toBeUndefined();
    },
  );

  it('throws on what is not an IP address (a host name is resolved first)', () => {
    expect(() => refusedRangeOf('localhost')).toThrow(/not an IP address/);
    expect(() => refusedRangeOf('127.1')).toThrow(/not an IP address/);
  });
});

describe('refusedLiteralTarget: a URL whose host is an address literal, in any spelling a URL parser accepts', () => {
  it.each([
    'http://127.0.0.1/h',
    'http://2130706433/h', // decimal
    'http://0x7f000001/h', // hex
    'http://0x7f.1/h',
    'http://017700000001/h', // octal
    'http://0177.0.0.1/h',
    'http://127.1/h', // short form
    'http://127.0.0.1./h', // trailing dot
    'http://%31%32%37.0.0.1/h', // percent-encoded
    'http://１２７.０.０.１/h', // full-width digits
    'https://[::1]:8443/h',
    'http://[::ffff:127.0.0.1]/h', // IPv4-mapped
    'http://[0:0:0:0:0:ffff:7f00:1]/h',
    'http://[::127.0.0.1]/h', // IPv4-compatible
    'http://[64:ff9b::127.0.0.1]/h', // NAT64
    'http://0/h',
    'http://0.0.0.0:80/h',
    'http://[::]/h',
    'http://10.1.2.3/h',
    'http://169.254.169.254/latest/meta-data/',
    'http://user:pass@127.0.0.1:9000/h',
  ])('%s is refused', (url) => {
    expect(refusedLiteralTarget(url)).toEqual({ address: expect.any(String), range: expect.any(String) });
  });

  it('names the address and the range', () => {
    expect(refusedLiteralTarget('http://2130706433:8080/x')).toEqual({ address: '127.0.0.1', range: 'loopback' });
    expect(refusedLiteralTarget('http://[::ffff:a00:1]/x')).toEqual({ address: '::ffff:a00:1', range: 'private' });
  });

  it('leaves host names (checked when connecting) and public literals alone', () => {
    expect(refusedLiteralTarget('https://hooks.example.com/x')).toBeUndefined();
    expect(refusedLiteralTarget('http://localhost:3000/x')).toBeUndefined();
    expect(refusedLiteralTarget('http://8.8.8.8/x')).toBeUndefined();
    expect(refusedLiteralTarget('http://[2606:4700:4700::1111]/x')).toBeUndefined();
  });
});
