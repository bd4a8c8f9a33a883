import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import type { Resolver } from '../../src/adapters/webhooks/outbound-addresses';

/**
 * A resolver the test controls, in place of DNS: each name resolves to the addresses the table gives
 * at the time of the call (a test may change them, as DNS rebinding would), an unknown name fails
 * with ENOTFOUND. `calls` lists the names asked for.
 */
export const fakeResolver = (table: Record<string, string[]>): Resolver & { calls: string[]; table: Record<string, string[]> } => {
  const calls: string[] = [];
  const resolver = ((
    hostname: string,
    options: { all?: boolean },
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    calls.push(hostname);
    const addresses = table[hostname];
    setImmediate(() => {
      if (addresses === undefined || addresses.length === 0) {
        const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
        err.code = 'ENOTFOUND';
        callback(err, '');
        return;
      }
      const all = addresses.map((address) => ({ address, family: isIP(address) }));
      if (options.all === true) callback(null, all);
      else callback(null, all[0].address, all[0].family);
    });
  }) as Resolver & { calls: string[]; table: Record<string, string[]> };
  resolver.calls = calls;
  resolver.table = table;
  return resolver;
};
