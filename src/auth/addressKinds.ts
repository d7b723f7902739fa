/**
 * What kind of address a host is, for the address policy of OAuth discovery: loopback,
 * private, link-local, unique-local, CGNAT, unspecified or a cloud metadata address, with
 * IPv4-mapped, IPv4-compatible and NAT64 IPv6 forms read as the IPv4 address they carry. Odd
 * IPv4 spellings (`2130706433`, `0x7f.1`, `0177.0.0.1`) are normalised by the WHATWG URL
 * parser before they get here. Pure and runtime-neutral.
 */

/** The kinds of address the discovery address policy refuses (see {@link addressKind}). */
export type AddressKind =
  /** 127.0.0.0/8, `::1`, `localhost` and `*.localhost`. */
  | 'loopback'
  /** 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16 (RFC 1918). */
  | 'private'
  /** 169.254.0.0/16, fe80::/10. */
  | 'link-local'
  /** fc00::/7 (RFC 4193). */
  | 'unique-local'
  /** 100.64.0.0/10, carrier-grade NAT (RFC 6598). */
  | 'cgnat'
  /** 0.0.0.0/8 and `::`. */
  | 'unspecified'
  /** Cloud instance metadata: 169.254.169.254, 100.100.100.200, fd00:ec2::254, `metadata.google.internal`... */
  | 'metadata';

/** Host names of cloud metadata services, lower case. */
const METADATA_NAMES = new Set([
  'metadata.google.internal',
  'metadata.goog',
  'metadata',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.azure.internal',
]);

/**
 * The kind of `host`, or `undefined` for an address or name the policy does not refuse. `host`
 * is a URL's `hostname` (IPv6 in brackets) or an address as a resolver returns it; a name is
 * classified only when it is a loopback or metadata name (resolve it to check the rest).
 */
export function addressKind(host: string): AddressKind | undefined {
  const normalised = normaliseHost(host);
  if (normalised === undefined) return undefined;
  if (normalised.startsWith('[')) return ipv6Kind(normalised.slice(1, -1));
  const ipv4 = parseIpv4(normalised);
  if (ipv4 !== undefined) return ipv4Kind(ipv4);
  const name = normalised.replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return 'loopback';
  if (METADATA_NAMES.has(name)) return 'metadata';
  return undefined;
}

/** True when `host` is an IP address literal (IPv4 in any spelling the URL parser accepts, or IPv6). */
export function isIpLiteral(host: string): boolean {
  const normalised = normaliseHost(host);
  return normalised !== undefined && (normalised.startsWith('[') || parseIpv4(normalised) !== undefined);
}

/** `host` as the WHATWG URL parser writes it (IPv4 dotted decimal, IPv6 compressed in brackets), or `undefined`. */
function normaliseHost(host: string): string | undefined {
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  const literal = bare.includes(':') ? `[${bare}]` : bare;
  try {
    return new URL(`http://${literal}/`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/** A dotted-decimal IPv4 address as a 32-bit number, or `undefined`. */
function parseIpv4(host: string): number | undefined {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (match === null) return undefined;
  const octets = match.slice(1).map(Number);
  if (octets.some((octet) => octet > 255)) return undefined;
  return octets.reduce((value, octet) => value * 256 + octet, 0);
}

function inRange(address: number, base: string, bits: number): boolean {
  const start = parseIpv4(base) as number;
  const size = 2 ** (32 - bits);
  return address >= start && address < start + size;
}

function ipv4Kind(address: number): AddressKind | undefined {
  if (address === (parseIpv4('169.254.169.254') as number) || address === (parseIpv4('100.100.100.200') as number))
    return 'metadata';
  if (inRange(address, '0.0.0.0', 8)) return 'unspecified';
  if (inRange(address, '127.0.0.0', 8)) return 'loopback';
  if (inRange(address, '10.0.0.0', 8) || inRange(address, '172.16.0.0', 12) || inRange(address, '192.168.0.0', 16))
    return 'private';
  if (inRange(address, '169.254.0.0', 16)) return 'link-local';
  if (inRange(address, '100.64.0.0', 10)) return 'cgnat';
  return undefined;
}

/** The eight 16-bit groups of a compressed IPv6 address as the URL parser writes it (hex only). */
function ipv6Groups(address: string): number[] {
  const [head = '', tail] = address.split('::');
  const parse = (part: string): number[] => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const first = parse(head);
  if (tail === undefined) return first;
  const last = parse(tail);
  return [...first, ...new Array<number>(8 - first.length - last.length).fill(0), ...last];
}

function ipv6Kind(address: string): AddressKind | undefined {
  const g = ipv6Groups(address);
  const embeddedIpv4 = ((g[6] as number) * 65536 + (g[7] as number)) >>> 0;
  const zeroUpTo = (n: number): boolean => g.slice(0, n).every((group) => group === 0);
  if (zeroUpTo(8)) return 'unspecified';
  if (zeroUpTo(7) && g[7] === 1) return 'loopback';
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible, deprecated), 64:ff9b::a.b.c.d (NAT64).
  if (zeroUpTo(5) && g[5] === 0xffff) return ipv4Kind(embeddedIpv4);
  if (zeroUpTo(6)) return ipv4Kind(embeddedIpv4);
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((group) => group === 0)) return ipv4Kind(embeddedIpv4);
  if (address === 'fd00:ec2::254') return 'metadata';
  const first = g[0] as number;
  if ((first & 0xffc0) === 0xfe80) return 'link-local';
  if ((first & 0xfe00) === 0xfc00) return 'unique-local';
  return undefined;
}
