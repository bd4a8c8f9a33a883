import type { Config } from '../src/bootstrap/config';
import { anOrderPayload } from '../test/support/order-builder';
import { testConfig } from '../test/support/test-config';

/** What every part of the bench needs to talk to the service it started. */

export const ADMIN_TOKEN = 'bench-admin-token-0123456789';

/**
 * The tests' configuration (a free port, no logs), with a limit high enough that no measured request
 * is refused: the limiter counts, it never says no here.
 */
export const benchConfig: Config = testConfig({ adminToken: ADMIN_TOKEN, rateLimitMax: 1_000_000_000 });

export const orderBody = (externalId: string): string => JSON.stringify(anOrderPayload({ externalId }));

/** One request with a bearer token; the answer's status and parsed JSON body. */
export const call = async (
  baseUrl: string,
  method: string,
  path: string,
  token: string,
  body?: unknown,
  headers: Record<string, string> = {},
) => {
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
