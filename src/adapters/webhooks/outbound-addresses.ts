import { lookup as systemLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The one rule of outbound safety (decision 0012), shared by the check when an endpoint is saved and
 * by the check of each connection (request-filtering-agent, which applies the same ipaddr.js ranges):
 * only public unicast addresses may be reached. Loopback, private, link-local (where cloud metadata
 * lives), carrier-grade NAT, unique-local, multicast and unspecified addresses are refused, and so
 * is every other special range ipaddr.js knows (reserved, broadcast, benchmarking, IPv4-mapped and
 * translated IPv6, 6to4, Teredo...).
 */

const WORDS: Readonly<Record<string, string>> = {
  loopback: 'a loopback address',
  private: 'a private address',
  linkLocal: 'a link-local address (where cloud metadata services live)',
  carrierGradeNat: 'a carrier-grade NAT address',
  uniqueLocal: 'a unique-local address',
  multicast: 'a multicast address',
  unspecified: 'the unspecified address',
  broadcast: 'the broadcast address',
};

/** What is wrong with an IP address as a destination, in words; undefined for a public unicast address. */
export const refusedAddress = (address: string): string | undefined => {
  let range: string;
  try {
    range = ipaddr.parse(address).range();
  } catch {
    return 'not an IP address';
  }
  if (range === 'unicast') return undefined;
  return WORDS[range] ?? `a reserved address (${range})`;
};

/** `dns.lookup`, the resolver the connections use: tests give another, so that no test depends on the network. */
export type Resolver = LookupFunction;

export const SYSTEM_RESOLVER: Resolver = systemLookup;

/** Every address `host` resolves to, or the error that stopped the resolution. */
export const resolveAll = (resolver: Resolver, host: string, timeoutMs: number): Promise<LookupAddress[]> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`resolving ${host} took longer than ${timeoutMs} ms`)), timeoutMs);
    resolver(host, { all: true }, (err, addresses) => {
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(Array.isArray(addresses) ? addresses : [{ address: addresses, family: 4 }]);
    });
  });

/** The host of a URL as a resolver or `isIP` takes it: an IPv6 literal without its brackets. */
export const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

export const isIpLiteral = (host: string): boolean => isIP(host) !== 0;
