import { expect } from 'chai';
import { inMemoryStorage } from '../../src/adapters/memory/in-memory-storage';
import { ROUTES } from '../../src/adapters/http/route-table';
import { grants, SCOPES, type Scope } from '../../src/domain/scope';
import { anOrderPayload } from '../support/order-builder';
import { createOrder, orderPath, ORDERS, useApi, type Harness } from './harness';

/** A token of the harness's dashboard with exactly `scopes`, through the admin API. */
const tokenWith = async (h: Harness, scopes: readonly Scope[], extra: Record<string, unknown> = {}): Promise<string> => {
  const res = await h.api.admin('POST', `/admin/v1/dashboards/${h.dashboardId}/tokens`, { name: 'scoped', scopes, ...extra });
  expect(res.status, res.text).to.equal(201);
  expect(res.body.token.scopes).to.deep.equal(SCOPES.filter((scope) => scopes.includes(scope)));
  return res.body.token.token;
};

/** The route's path with every parameter filled in; what it names need not exist. */
const concrete = (path: string): string => path.replace(/\{[^}]+\}/g, 'x-1');

const scoped = ROUTES.filter((route) => route.guards.includes('token'));

describe('token scopes (decision 0017), route by route from the route table', () => {
  const h = useApi(async () => inMemoryStorage());

  it('every route that takes a token declares its scope, and the document states it', async () => {
    const document = (await h.api.request('GET', '/api/v1/openapi.json')).body;
    for (const route of scoped) {
      expect(route.scope, route.operationId).to.be.a('string');
      const operation = document.paths[route.path][route.method];
      expect(operation.security, route.operationId).to.deep.equal([{ bearerAuth: route.scope === 'any' ? [] : [route.scope] }]);
      if (route.scope !== 'any') expect(operation.responses['403'], route.operationId).to.not.equal(undefined);
    }
  });

  for (const route of scoped.filter((r) => r.scope !== 'any')) {
    const needed = route.scope as Scope;
    const method = route.method.toUpperCase();
    const send = (h: Harness, token: string) =>
      h.api.request(method, concrete(route.path), { token, ...(route.body === undefined ? {} : { body: {} }) });

    it(`${method} ${route.path} refuses a token without ${needed}: 403 INSUFFICIENT_SCOPE, naming it`, async () => {
      const token = await tokenWith(
        h,
        SCOPES.filter((scope) => !grants([scope], needed)),
      );
      const res = await send(h, token);
      expect(res.status, res.text).to.equal(403);
      expect(res.body.code).to.equal('INSUFFICIENT_SCOPE');
      expect(res.body.scope).to.equal(needed);
      expect(res.body.detail).to.contain(needed);
      expect(res.headers.get('www-authenticate')).to.equal(`Bearer error="insufficient_scope", scope="${needed}"`);
      expect(res.headers.get('ratelimit'), 'the refusal counts against the rate limit').to.not.equal(null);
    });

    it(`${method} ${route.path} takes a token with ${needed} alone past the scope check`, async () => {
      const res = await send(h, await tokenWith(h, [needed]));
      expect(res.status, res.text).to.not.be.oneOf([401, 403]);
    });
  }

  it('lets `:write` read the same data, except orders: a checkout token cannot list what it wrote', async () => {
    for (const [write, readPath] of [
      ['links:write', '/api/v1/links'],
      ['webhooks:write', '/api/v1/webhooks'],
      ['spend:write', '/api/v1/spend'],
      ['spend:write', '/api/v1/product-costs'],
    ] as const) {
      const res = await h.api.request('GET', readPath, { token: await tokenWith(h, [write]) });
      expect(res.status, `${write} on ${readPath}`).to.equal(200);
    }
    const checkout = await tokenWith(h, ['orders:write']);
    expect((await h.api.request('GET', ORDERS, { token: checkout })).status).to.equal(403);
  });

  it('lets a checkout token (orders:write alone) create and update orders, and nothing else', async () => {
    const checkout = await tokenWith(h, ['orders:write']);
    const created = await createOrder(h, { externalId: 'chk-1' }, checkout);
    expect(created.externalId).to.equal('chk-1');
    const replayKey = { 'Idempotency-Key': 'chk-key-1' };
    const first = await h.api.request('POST', ORDERS, {
      token: checkout,
      body: anOrderPayload({ externalId: 'chk-2' }),
      headers: replayKey,
    });
    expect(first.status).to.equal(201);
    const patched = await h.api.request('PATCH', orderPath('chk-1'), { token: checkout, body: { metadata: { note: 'x' } } });
    expect(patched.status, patched.text).to.equal(200);
    for (const [method, path] of [
      ['GET', ORDERS],
      ['GET', orderPath('chk-1')],
      ['GET', '/api/v1/reports/breakdown?from=2026-01-01T00:00:00Z&to=2026-01-31T00:00:00Z&by=utmSource'],
      ['GET', '/api/v1/webhooks'],
      ['GET', '/api/v1/links'],
      ['GET', '/api/v1/spend'],
      ['GET', '/api/v1/product-costs'],
      ['GET', '/api/v1/reports/products?from=2026-01-01T00:00:00Z&to=2026-01-31T00:00:00Z'],
    ] as const) {
      expect((await h.api.request(method, path, { token: checkout })).status, `${method} ${path}`).to.equal(403);
    }
    expect((await h.api.request('GET', '/api/v1/dashboard', { token: checkout })).status).to.equal(200);
  });

  it('gives a token every scope when none are asked for, and refuses unknown, repeated or no scopes', async () => {
    const all = await h.api.admin('POST', `/admin/v1/dashboards/${h.dashboardId}/tokens`, { name: 'all' });
    expect(all.body.token.scopes).to.deep.equal([...SCOPES]);
    const bad = await h.api.admin('POST', `/admin/v1/dashboards/${h.dashboardId}/tokens`, {
      scopes: ['orders:read', 'orders:delete', 'orders:read'],
      expiresAt: '2020-01-01T00:00:00Z',
    });
    expect(bad.status).to.equal(400);
    expect(bad.body.details.map((d: { path: string }) => d.path)).to.deep.equal(['scopes.1', 'scopes.2']);
    const none = await h.api.admin('POST', `/admin/v1/dashboards/${h.dashboardId}/tokens`, { scopes: [] });
    expect(none.body.details.map((d: { path: string }) => d.path)).to.deep.equal(['scopes']);
    const past = await h.api.admin('POST', `/admin/v1/dashboards/${h.dashboardId}/tokens`, { expiresAt: '2020-01-01T00:00:00Z' });
    expect(past.body.details).to.deep.equal([{ path: 'expiresAt', message: 'must be in the future' }]);
  });
});

describe('token expiry and last use (decision 0017)', () => {
  const h = useApi(async () => inMemoryStorage());

  it('answers 401 TOKEN_EXPIRED from expiresAt on, and shows expiresAt and lastUsedAt in the list', async () => {
    const expiresAt = new Date(Date.now() + 1_500).toISOString();
    const token = await tokenWith(h, ['orders:read'], { expiresAt });
    expect((await h.api.request('GET', ORDERS, { token })).status).to.equal(200);
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    const expired = await h.api.request('GET', ORDERS, { token });
    expect(expired.status).to.equal(401);
    expect(expired.body.code).to.equal('TOKEN_EXPIRED');
    expect(expired.headers.get('www-authenticate')).to.equal('Bearer error="invalid_token", error_description="The token has expired"');
    const listed = (await h.api.admin('GET', `/admin/v1/dashboards/${h.dashboardId}/tokens`)).body.tokens;
    const entry = listed.find((t: { name: string }) => t.name === 'scoped');
    expect(entry.expiresAt).to.equal(new Date(expiresAt).toISOString());
    const minute = Date.now() - (Date.now() % 60_000);
    expect(Date.parse(entry.lastUsedAt)).to.be.within(minute - 60_000, minute);
    expect(listed.find((t: { id: string }) => t.id === h.tokenId).lastUsedAt).to.equal(null);
  });
});
