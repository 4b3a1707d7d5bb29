import { BlockList, isIP } from 'node:net';

/** Why an address is not one a tenant's outbound call may reach; absent for a public (globally routable) address. */
export type RefusedRange =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'shared'
  | 'link-local'
  | 'unique-local'
  | 'multicast'
  | 'broadcast'
  | 'documentation'
  | 'benchmarking'
  | 'reserved';

/**
 * The IANA special-purpose registries (RFC 6890 and successors), IPv4 and IPv6, by the name a log line gives them.
 * Node's own `net.BlockList` matches them (it also matches IPv4-mapped IPv6 addresses against the IPv4 rules).
 * Globally reachable special-purpose blocks (AS112, AMT, 6to4 and NAT64 of public addresses) are not listed.
 */
const RANGES: [RefusedRange, string[]][] = [
  ['unspecified', ['0.0.0.0/32', '::/128']],
  ['loopback', ['127.0.0.0/8', '::1/128']],
  ['private', ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16']],
  ['shared', ['100.64.0.0/10']], // carrier-grade NAT (RFC 6598)
  ['link-local', ['169.254.0.0/16', 'fe80::/10']], // 169.254.169.254: cloud metadata services
  ['unique-local', ['fc00::/7']],
  ['multicast', ['224.0.0.0/4', 'ff00::/8']],
  ['broadcast', ['255.255.255.255/32']],
  ['documentation', ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24', '2001:db8::/32', '3fff::/20']],
  ['benchmarking', ['198.18.0.0/15']],
  [
    'reserved',
    [
      '0.0.0.0/8', // "this network"
      '192.0.0.0/24', // IETF protocol assignments
      '192.88.99.0/24', // 6to4 relay anycast, deprecated
      '240.0.0.0/4', // future use
      '100::/64', // discard-only
      '2001::/23', // IETF protocol assignments: Teredo, benchmarking, ORCHID
      '64:ff9b:1::/48', // local-use NAT64 (RFC 8215)
      'fec0::/10', // site-local, deprecated
    ],
  ],
];

const BLOCKS: [RefusedRange, BlockList][] = RANGES.map(([range, cidrs]) => {
  const block = new BlockList();
  for (const cidr of cidrs) {
    const [network, prefix] = cidr.split('/');
    block.addSubnet(network, Number(prefix), isIP(network) === 6 ? 'ipv6' : 'ipv4');
  }
  return [range, block];
});

const GLOBAL_UNICAST_V6 = new BlockList();
GLOBAL_UNICAST_V6.addSubnet('2000::', 3, 'ipv6');

/**
 * The range `address` (an IP literal, as a resolver or a URL parser gives it) belongs to, when a tenant's call must
 * not reach it; undefined for a public address. IPv6 forms that carry an IPv4 address (mapped `::ffff:a.b.c.d`,
 * NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are judged by that IPv4 address; the deprecated IPv4-compatible `::a.b.c.d`
 * and anything outside the global unicast space `2000::/3` are refused.
 */
export function refusedRangeOf(address: string): RefusedRange | undefined {
  const family = isIP(address);
  if (family === 4) return rangeOf(address, 'ipv4');
  if (family !== 6) throw new TypeError(`not an IP address: ${address}`);
  const words = ipv6Words(address);
  const embedded = embeddedIpv4(words);
  if (embedded) return rangeOf(embedded, 'ipv4');
  const named = rangeOf(address, 'ipv6');
  if (named) return named;
  if (words.slice(0, 6).every((w) => w === 0)) return 'reserved'; // IPv4-compatible (deprecated)
  return GLOBAL_UNICAST_V6.check(address, 'ipv6') ? undefined : 'reserved';
}

/**
 * The IP literal a URL's host is, in whatever spelling the WHATWG URL parser (the one every outbound call here uses)
 * normalises (`2130706433`, `0x7f.1`, `0177.0.0.1`, `127.1`, `[::ffff:127.0.0.1]`…), with the range that refuses it;
 * undefined for a host name (checked when connecting) or a public address. Throws on a URL that does not parse.
 */
export function refusedLiteralTarget(url: string): { address: string; range: RefusedRange } | undefined {
  const address = hostAddressOf(new URL(url));
  if (!address) return undefined;
  const range = refusedRangeOf(address);
  return range ? { address, range } : undefined;
}

/** The host of a parsed URL as an IP literal (brackets of IPv6 removed), or undefined for a name. */
export function hostAddressOf(url: URL): string | undefined {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return isIP(host) ? host : undefined;
}

function rangeOf(address: string, type: 'ipv4' | 'ipv6'): RefusedRange | undefined {
  for (const [range, block] of BLOCKS) if (block.check(address, type)) return range;
  return undefined;
}

/** The eight 16-bit words of an IPv6 address (the URL parser writes it without an embedded dotted quad first). */
function ipv6Words(address: string): number[] {
  const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  const [head, tail] = canonical.includes('::') ? canonical.split('::') : [canonical, undefined];
  const words = (part: string | undefined) => (part ? part.split(':').map((w) => parseInt(w, 16)) : []);
  const left = words(head);
  const right = words(tail);
  return tail === undefined ? left : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

function embeddedIpv4(words: number[]): string | undefined {
  const quad = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  const zeros = (from: number, to: number) => words.slice(from, to).every((w) => w === 0);
  if (zeros(0, 5) && words[5] === 0xffff) return quad(words[6], words[7]); // IPv4-mapped
  if (words[0] === 0x64 && words[1] === 0xff9b && zeros(2, 6)) return quad(words[6], words[7]); // NAT64 well-known prefix
  if (words[0] === 0x2002) return quad(words[1], words[2]); // 6to4
  return undefined;
}
