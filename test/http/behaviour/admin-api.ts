import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { TEST_ADMIN_TOKEN } from '../../support/test-config';
import { ORDERS, useApi, type StorageFactory } from '../harness';
import { expectInvalid, expectProblem } from '../problem-assertions';

const UTC_WITH_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UNKNOWN_ID = 'dsh_doesnotexist000000000';

/** The admin API of decision 0008. */
export const adminApiBehaviour = (storageFactory: StorageFactory): void => {
  describe('admin API', () => {
    const h = useApi(storageFactory, { dashboard: false, clock: true });

    const newDashboard = async (name = 'Shop'): Promise<string> => {
      const res = await h.api.admin('POST', '/admin/v1/dashboards', { name });
      expect(res.status, res.text).to.equal(201);
      return res.body.dashboard.id;
    };

    it('creates a dashboard: 201 { dashboard: { id, name, timezone, taxRate, createdAt } }, in UTC and untaxed unless told', async () => {
      h.clock.set('2026-03-01T12:00:00.000Z');
      const res = await h.api.admin('POST', '/admin/v1/dashboards', { name: 'Loja da Ana' });
      expect(res.status, res.text).to.equal(201);
      expect(Object.keys(res.body)).to.deep.equal(['dashboard']);
      expect(Object.keys(res.body.dashboard)).to.have.members(['id', 'name', 'timezone', 'taxRate', 'createdAt']);
      expect(res.body.dashboard).to.deep.include({
        name: 'Loja da Ana',
        timezone: 'UTC',
        taxRate: 0,
        createdAt: '2026-03-01T12:00:00.000Z',
      });
      expect(res.body.dashboard.id).to.be.a('string').that.is.not.empty;
    });

    it('issues a token once: 201 { token: { id, dashboardId, token, createdAt } } with 128+ random bits', async () => {
      const dashboardId = await newDashboard();
      const res = await h.api.admin('POST', `/admin/v1/dashboards/${dashboardId}/tokens`, { name: 'checkout' });
      expect(res.status, res.text).to.equal(201);
      expect(Object.keys(res.body)).to.deep.equal(['token']);
      expect(res.body.token).to.include.all.keys('id', 'dashboardId', 'token', 'createdAt');
      expect(res.body.token.dashboardId).to.equal(dashboardId);
      expect(res.body.token.createdAt).to.match(UTC_WITH_MS);
      expect(res.body.token.token).to.match(/^[a-z]+_[a-z]+_[0-9A-Za-z]{22,}$/);
      const other = await h.api.admin('POST', `/admin/v1/dashboards/${dashboardId}/tokens`, {});
      expect(other.status, other.text).to.equal(201);
      expect(other.body.token.token).not.to.equal(res.body.token.token);
    });

    it('issues a token that works as a bearer token on the orders API', async () => {
      const dashboardId = await newDashboard();
      const issued = await h.api.admin('POST', `/admin/v1/dashboards/${dashboardId}/tokens`, {});
      const res = await h.api.request('GET', ORDERS, { token: issued.body.token.token });
      expect(res.status, res.text).to.equal(200);
    });

    it('lists tokens as { id, name, scopes, createdAt, expiresAt, lastUsedAt, revokedAt }, never their hash or plain value', async () => {
      const dashboardId = await newDashboard();
      const issued = await h.api.admin('POST', `/admin/v1/dashboards/${dashboardId}/tokens`, { name: 'one' });
      const plain: string = issued.body.token.token;
      const res = await h.api.admin('GET', `/admin/v1/dashboards/${dashboardId}/tokens`);
      expect(res.status, res.text).to.equal(200);
      expect(res.body.tokens).to.have.length(1);
      expect(Object.keys(res.body.tokens[0])).to.have.members([
        'id',
        'name',
        'scopes',
        'createdAt',
        'expiresAt',
        'lastUsedAt',
        'revokedAt',
      ]);
      expect(res.body.tokens[0]).to.deep.include({ id: issued.body.token.id, name: 'one', revokedAt: null });
      expect(res.text).not.to.include(plain);
      expect(res.text).not.to.include(createHash('sha256').update(plain).digest('hex'));
      expect(res.text).not.to.include(createHash('sha256').update(plain).digest('base64'));
    });

    it('lists only the tokens of the dashboard asked for', async () => {
      const a = await newDashboard('A');
      const b = await newDashboard('B');
      await h.api.admin('POST', `/admin/v1/dashboards/${a}/tokens`, { name: 'a' });
      expect((await h.api.admin('GET', `/admin/v1/dashboards/${b}/tokens`)).body.tokens).to.deep.equal([]);
    });

    it('revokes a token: 200 { token: { id, revokedAt } }, idempotently keeping the first time', async () => {
      const dashboardId = await newDashboard();
      const issued = await h.api.admin('POST', `/admin/v1/dashboards/${dashboardId}/tokens`, {});
      const tokenId: string = issued.body.token.id;
      h.clock.set('2026-03-02T08:00:00.000Z');
      const first = await h.api.admin('POST', `/admin/v1/tokens/${tokenId}/revoke`);
      expect(first.status, first.text).to.equal(200);
      expect(first.body).to.deep.equal({ token: { id: tokenId, revokedAt: '2026-03-02T08:00:00.000Z' } });
      h.clock.set('2026-03-03T08:00:00.000Z');
      const second = await h.api.admin('POST', `/admin/v1/tokens/${tokenId}/revoke`);
      expect(second.status, second.text).to.equal(200);
      expect(second.body).to.deep.equal(first.body);
      const list = await h.api.admin('GET', `/admin/v1/dashboards/${dashboardId}/tokens`);
      expect(list.body.tokens[0].revokedAt).to.equal('2026-03-02T08:00:00.000Z');
    });

    it('answers 404 NOT_FOUND for an unknown dashboard or token', async () => {
      expectProblem(await h.api.admin('POST', `/admin/v1/dashboards/${UNKNOWN_ID}/tokens`, {}), 404, 'NOT_FOUND');
      expectProblem(await h.api.admin('GET', `/admin/v1/dashboards/${UNKNOWN_ID}/tokens`), 404, 'NOT_FOUND');
      expectProblem(await h.api.admin('POST', '/admin/v1/tokens/tok_doesnotexist0000000000/revoke'), 404, 'NOT_FOUND');
    });

    it('validates its bodies', async () => {
      expectInvalid(await h.api.admin('POST', '/admin/v1/dashboards', {}), ['name']);
      expectInvalid(await h.api.admin('POST', '/admin/v1/dashboards', { name: '' }), ['name']);
      expectInvalid(await h.api.admin('POST', '/admin/v1/dashboards', { name: 'x', plan: 'pro' }), ['plan']);
      const dashboardId = await newDashboard();
      expectInvalid(await h.api.admin('POST', `/admin/v1/dashboards/${dashboardId}/tokens`, { name: 5 }), ['name']);
    });

    it('answers 401 UNAUTHORIZED with WWW-Authenticate for a missing or wrong admin token', async () => {
      const dashboardId = await newDashboard();
      const issued = await h.api.admin('POST', `/admin/v1/dashboards/${dashboardId}/tokens`, {});
      const wrong = [undefined, `${TEST_ADMIN_TOKEN}x`, TEST_ADMIN_TOKEN.slice(0, -1), issued.body.token.token as string];
      for (const token of wrong) {
        const calls = [
          h.api.request('POST', '/admin/v1/dashboards', { token, body: { name: 'x' } }),
          h.api.request('POST', `/admin/v1/dashboards/${dashboardId}/tokens`, { token, body: {} }),
          h.api.request('GET', `/admin/v1/dashboards/${dashboardId}/tokens`, { token }),
          h.api.request('POST', `/admin/v1/tokens/${issued.body.token.id}/revoke`, { token }),
        ];
        for (const res of await Promise.all(calls)) {
          expectProblem(res, 401, 'UNAUTHORIZED');
          expect(res.headers.get('www-authenticate')).to.match(/^Bearer/);
        }
      }
      const list = await h.api.admin('GET', `/admin/v1/dashboards/${dashboardId}/tokens`);
      expect(list.body.tokens.map((t: { revokedAt: unknown }) => t.revokedAt)).to.deep.equal([null]);
    });
  });

  describe('admin API without ADMIN_TOKEN', () => {
    const h = useApi(storageFactory, { dashboard: false, config: { adminToken: undefined } });

    it('answers 404 NOT_FOUND on every admin route, whatever token is sent', async () => {
      for (const token of [undefined, TEST_ADMIN_TOKEN, 'anything']) {
        for (const [method, path] of [
          ['POST', '/admin/v1/dashboards'],
          ['POST', '/admin/v1/dashboards/dsh_x/tokens'],
          ['GET', '/admin/v1/dashboards/dsh_x/tokens'],
          ['POST', '/admin/v1/tokens/tok_x/revoke'],
        ] as const) {
          const res = await h.api.request(method, path, { token, body: method === 'POST' ? { name: 'x' } : undefined });
          expectProblem(res, 404, 'NOT_FOUND');
          expect(res.headers.get('www-authenticate')).to.equal(null);
        }
      }
    });
  });
};
