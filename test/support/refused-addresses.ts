/** One address of each class the outbound rules refuse (decision 0012), as written in a URL. */
export const REFUSED_ADDRESSES: readonly (readonly [what: string, address: string])[] = [
  ['IPv4 loopback', '127.0.0.1'],
  ['IPv4 loopback, another', '127.9.8.7'],
  ['IPv6 loopback', '::1'],
  ['private 10/8', '10.1.2.3'],
  ['private 172.16/12', '172.16.0.1'],
  ['private 192.168/16', '192.168.1.1'],
  ['link-local: cloud metadata', '169.254.169.254'],
  ['IPv6 link-local', 'fe80::1'],
  ['carrier-grade NAT', '100.64.0.1'],
  ['unique-local', 'fc00::1'],
  ['unique-local fd', 'fd12:3456::1'],
  ['IPv4 multicast', '224.0.0.1'],
  ['IPv6 multicast', 'ff02::1'],
  ['IPv4 unspecified', '0.0.0.0'],
  ['IPv6 unspecified', '::'],
  ['broadcast', '255.255.255.255'],
];

/** The address as the host of an https URL (an IPv6 address in brackets). */
export const inUrl = (address: string, scheme = 'https'): string => `${scheme}://${address.includes(':') ? `[${address}]` : address}/hook`;

/** A host name (valid in a webhook URL) that a test's resolver maps to `address`. */
export const nameFor = (address: string): string => `a${address.replace(/[:.]/g, 'x')}.internal.example`;
