import type { Config } from '../src/bootstrap/config';

/** What every part of the bench needs to talk to the service it started. */

export const ADMIN_TOKEN = 'bench-admin-token-0123456789';

/** Like test/support/test-config.ts: a free port, no logs, an admin token. */
export const benchConfig: Config = {
  port: 0,
  host: '127.0.0.1',
  adminToken: ADMIN_TOKEN,
  // High enough that no measured request is refused: the limiter counts, it never says no here.
  rateLimitMax: 1_000_000_000,
  rateLimitWindowSeconds: 60,
  idempotencyTtlSeconds: 86_400,
  idempotencyLeaseSeconds: 10,
  transitions: {},
  logLevel: 'silent',
  bodyLimitBytes: 256 * 1024,
  shutdownTimeoutMs: 2_000,
};

export const orderBody = (externalId: string): string =>
  JSON.stringify({
    externalId,
    platform: 'shopify',
    paymentMethod: 'credit_card',
    status: 'pending',
    createdAt: '2026-01-02T03:04:05Z',
    isTest: false,
    amounts: { currency: 'BRL', grossCents: 10_000, netToSellerCents: 9_000 },
    products: [{ name: 'T-shirt', quantity: 2, unitPriceCents: 5_000 }],
    tracking: { utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'black-friday' },
  });

/** One request with a bearer token; the answer's status and parsed JSON body. */
export const call = async (baseUrl: string, method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(baseUrl + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

/** A new dashboard and a token for it, through the admin API. */
export const newToken = async (baseUrl: string, name: string): Promise<{ token: string }> => {
  const dashboard = await call(baseUrl, 'POST', '/admin/v1/dashboards', ADMIN_TOKEN, { name });
  const issued = await call(baseUrl, 'POST', `/admin/v1/dashboards/${dashboard.body.dashboard.id}/tokens`, ADMIN_TOKEN, {});
  if (issued.status !== 201) throw new Error(`token creation answered ${issued.status}`);
  return { token: issued.body.token.token };
};
