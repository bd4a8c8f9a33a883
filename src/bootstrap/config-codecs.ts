import * as t from 'io-ts';

/** How an environment variable's text is read: each codec names the rule a bad value breaks. */

/** The most delays WEBHOOK_RETRY_SCHEDULE may list, and the longest one: a delivery is kept 30 days. */
const MAX_RETRIES = 20;
const MAX_RETRY_DELAY_SECONDS = 86_400;

export const intText = (name: string, min: number, max: number) =>
  new t.Type<number, string, unknown>(
    name,
    (u): u is number => typeof u === 'number',
    (u, c) =>
      typeof u === 'string' && /^\d+$/.test(u) && Number(u) >= min && Number(u) <= max
        ? t.success(Number(u))
        : t.failure(u, c, `must be an integer from ${min} to ${max}`),
    String,
  );

export const text = (name: string, test: (s: string) => boolean, message: string) =>
  new t.Type<string, string, unknown>(
    name,
    (u): u is string => typeof u === 'string',
    (u, c) => (typeof u === 'string' && test(u) ? t.success(u) : t.failure(u, c, message)),
    t.identity,
  );

export const secondsList = new t.Type<readonly number[], string, unknown>(
  'seconds',
  (u): u is readonly number[] => Array.isArray(u),
  (u, c) => {
    const parts = typeof u === 'string' ? u.split(',').map((part) => part.trim()) : [];
    const valid =
      parts.length >= 1 &&
      parts.length <= MAX_RETRIES &&
      parts.every((part) => /^\d+$/.test(part) && Number(part) <= MAX_RETRY_DELAY_SECONDS);
    return valid
      ? t.success(parts.map(Number))
      : t.failure(u, c, `must be 1 to ${MAX_RETRIES} comma-separated whole numbers of seconds, each at most ${MAX_RETRY_DELAY_SECONDS}`);
  },
  (list) => list.join(','),
);

export const booleanText = new t.Type<boolean, string, unknown>(
  'boolean',
  (u): u is boolean => typeof u === 'boolean',
  (u, c) => (u === 'true' || u === 'false' ? t.success(u === 'true') : t.failure(u, c, 'must be true or false')),
  String,
);

/**
 * An absolute http(s) URL without credentials, query or fragment, normalised by the WHATWG parser
 * (an IDN host in punycode) and without the trailing `/`, so that `/l/<slug>` can be appended.
 */
export const baseUrl = new t.Type<string, string, unknown>(
  'baseUrl',
  (u): u is string => typeof u === 'string',
  (u, c) => {
    const message = 'must be an absolute http or https URL without credentials, query or fragment, such as https://go.example';
    if (typeof u !== 'string' || !/^https?:\/\/[^/?#@\\\s]+(\/[^?#\\\s]*)?$/i.test(u)) return t.failure(u, c, message);
    try {
      return t.success(new URL(u).href.replace(/\/+$/, ''));
    } catch {
      return t.failure(u, c, message);
    }
  },
  t.identity,
);

/** The most proxies TRUST_PROXY may name: more than a few is a misreading of the variable. */
const MAX_PROXY_HOPS = 5;

/**
 * TRUST_PROXY: `off` (0), `on` (1: one proxy in front) or how many proxies in a row each append the
 * address they were reached from to X-Forwarded-For (0 is off).
 */
export const proxyHops = new t.Type<number, string, unknown>(
  'proxyHops',
  (u): u is number => typeof u === 'number',
  (u, c) =>
    u === 'off'
      ? t.success(0)
      : u === 'on'
        ? t.success(1)
        : typeof u === 'string' && /^\d$/.test(u) && Number(u) <= MAX_PROXY_HOPS
          ? t.success(Number(u))
          : t.failure(u, c, `must be off, on, or the number of proxies in front of the service (0 to ${MAX_PROXY_HOPS})`),
  (hops) => (hops === 0 ? 'off' : String(hops)),
);
