import { createHash } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import type { Context } from 'koa';

export const SESSION_COOKIE = 'orders_session';
export const DASHBOARD_COOKIE = 'orders_dashboard';

/**
 * The headers of every console response (DECISIONS D18): a CSP that allows this origin's own files
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
 * Whether a state-changing request comes from the console's own pages: its `Origin` (or, without
 * one, its `Referer`) is this service's origin as the browser addressed it, or PUBLIC_BASE_URL's.
 */
export const sameOrigin = (ctx: Context, publicBaseUrl: string): boolean => {
  const allowed = new Set([`${ctx.protocol}://${ctx.host}`]);
  try {
    allowed.add(new URL(publicBaseUrl).origin);
  } catch {
    // No public address configured yet: the request's own origin alone.
  }
  const origin = ctx.get('Origin');
  if (origin !== '') return allowed.has(origin);
  const referer = ctx.get('Referer');
  if (referer === '') return false;
  try {
    return allowed.has(new URL(referer).origin);
  } catch {
    return false;
  }
};

/** The session cookie: HttpOnly, SameSite=Lax, path /console, Secure whenever the public address is https. */
export const cookieOptions = (publicBaseUrl: string, maxAgeMs?: number) => ({
  httpOnly: true,
  sameSite: 'lax' as const,
  path: '/console',
  secure: publicBaseUrl.startsWith('https:'),
  overwrite: true,
  ...(maxAgeMs === undefined ? {} : { maxAge: maxAgeMs }),
});

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
