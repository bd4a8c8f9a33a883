import { BlockList, isIP } from 'node:net';

/** Addresses a platform's servers cannot post to: this machine's own, and those of private networks. */
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv4');
PRIVATE.addAddress('::', 'ipv6');
PRIVATE.addSubnet('fc00::', 7, 'ipv6');
PRIVATE.addSubnet('fe80::', 10, 'ipv6');

/** Names that only a local network resolves (RFC 6761's localhost, RFC 6762's .local, RFC 8375's home.arpa, and the usual others). */
const LOCAL_SUFFIXES = ['.local', '.internal', '.home.arpa', '.lan', '.localdomain'];

/**
 * Why a platform cannot post to the sources' URLs built on `baseUrl`, or undefined when nothing
 * says it cannot: PUBLIC_BASE_URL unset (the URLs are the address the service listens on), a
 * loopback or private address, a name only a local network knows, or plain http.
 */
export const unreachableBecause = (configuredBaseUrl: string | undefined, baseUrl: string): string | undefined => {
  if (configuredBaseUrl === undefined)
    return `PUBLIC_BASE_URL is not set, so the URL is made of the address this service listens on (${baseUrl}), which the platform’s servers do not know.`;
  // The configuration took PUBLIC_BASE_URL only as an http(s) URL.
  const url = new URL(configuredBaseUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const family = isIP(host);
  const kind = family === 4 ? 'ipv4' : 'ipv6';
  if (host === 'localhost' || host.endsWith('.localhost') || (family !== 0 && LOOPBACK.check(host, kind)))
    return `${host} is this machine’s own address: on the platform’s servers it means the platform itself.`;
  if (family !== 0 && PRIVATE.check(host, kind))
    return `${host} is an address of a private network, which the platform’s servers cannot reach.`;
  if (family === 0 && (!host.includes('.') || LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix))))
    return `${host} is a name that only a local network knows.`;
  if (url.protocol !== 'https:')
    return 'It is http, not https: Shopify and Stripe (in live mode) post only to https URLs, and what is sent over http can be read on the way.';
  return undefined;
};
