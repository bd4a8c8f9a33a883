import { createHash } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import type { Context } from 'koa';

/**
 * The headers of every console response (decision 0018): a CSP that allows this origin's own files
 * and nothing inline, no framing, no sniffing, no referrer to other sites, and no caching of pages.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "style-src 'self'",
  "script-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export const setPageHeaders = (ctx: Context): void => {
  ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'same-origin');
  ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
  ctx.set('Cache-Control', 'no-store');
};

/**
 * The CSRF token of a session: a one-way function of its id (which only the HttpOnly cookie holds),
 * so every instance computes the same one and a page may show it without revealing the session.
 */
export const csrfTokenOf = (sessionId: string): string => createHash('sha256').update(`csrf\0${sessionId}`).digest('base64url');

/**
 * The origins a state-changing request may come from: PUBLIC_BASE_URL's alone when it is set, never
 * the `Host` the request names, which whoever sends it chooses (decision 0023). Unset (development),
 * the request's own origin and the address the service bound.
 */
export const allowedOrigins = (ctx: Context, configuredBaseUrl: string | undefined, ownBaseUrl: string): ReadonlySet<string> =>
  configuredBaseUrl !== undefined
    ? new Set([new URL(configuredBaseUrl).origin])
    : new Set([`${ctx.protocol}://${ctx.host}`, ...(URL.canParse(ownBaseUrl) ? [new URL(ownBaseUrl).origin] : [])]);

/** Whether a state-changing request comes from the console's own pages: its `Origin`, or without one its `Referer`. */
export const sameOrigin = (ctx: Context, allowed: ReadonlySet<string>): boolean => {
  const origin = ctx.get('Origin');
  if (origin !== '') return allowed.has(origin);
  const referer = ctx.get('Referer');
  return URL.canParse(referer) && allowed.has(new URL(referer).origin);
};

/**
 * The console's cookies (decisions 0017, 0023). Under an https public address they are `Secure` and
 * named `__Host-…`, which browsers take only with `Path=/` and no `Domain`, so that no sibling
 * subdomain can set or shadow them: decision 0017's path `/console` yields to the prefix. The path was never a
 * boundary (a page of the same origin reaches any path's cookies through a frame) and the API reads
 * no cookie. Over plain http (development) they keep decision 0017's path and no prefix.
 */
export const consoleCookies = (publicBaseUrl: string) => {
  const secure = publicBaseUrl.startsWith('https:');
  const prefix = secure ? '__Host-' : '';
  return {
    secure,
    session: `${prefix}orders_session`,
    dashboard: `${prefix}orders_dashboard`,
    options: (maxAgeMs: number) => ({
      httpOnly: true,
      sameSite: 'lax' as const,
      path: secure ? '/' : '/console',
      secure,
      overwrite: true,
      maxAge: maxAgeMs,
    }),
  };
};

const OVERVIEW = '/console/overview';

/**
 * Where sign-in goes next: a path of the console itself, or the Overview. Never another site
 * (`//evil.example`), a scheme, or a path that leaves /console once the browser resolves it: a dot
 * segment, percent-encoded or not, an encoded slash or backslash, or an empty segment.
 */
export const safeNext = (next: string | null | undefined): string => {
  if (typeof next !== 'string' || !/^\/console(\/[A-Za-z0-9_.~%-]+)*$/.test(next)) return OVERVIEW;
  const segments = next.split('/').slice(2);
  const safe = segments.every((segment) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return false;
    }
    return decoded !== '.' && decoded !== '..' && !/[/\\?#]|\p{Cc}/u.test(decoded);
  });
  return safe ? next : OVERVIEW;
};

/**
 * The address a request counts against for sign-in throttling: Koa's `ip` (behind TRUST_PROXY, the
 * entry of X-Forwarded-For that many hops from the right), an IPv4-mapped IPv6 address as IPv4, and
 * an IPv6 address as its /64, which one subscriber usually holds whole.
 */
export const clientAddress = (ctx: Context): string => {
  const ip = ctx.request.ip;
  if (!ipaddr.isValid(ip)) return ip === '' ? 'unknown' : ip;
  const address = ipaddr.process(ip);
  return address.kind() === 'ipv4'
    ? address.toString()
    : `${(address as ipaddr.IPv6).parts
        .slice(0, 4)
        .map((part) => part.toString(16))
        .join(':')}::/64`;
};
