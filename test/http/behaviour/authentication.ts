import { expect } from 'chai';
import { anOrderPayload } from '../../support/order-builder';
import { ORDERS, orderPath, useApi, type Harness, type StorageFactory } from '../harness';
import { expectProblem } from '../problem-assertions';

const WELL_FORMED_UNKNOWN = `ok_live_${'A'.repeat(43)}`;

/** Every order route, so that none is left unguarded. */
const ROUTES: [string, string, unknown][] = [
  ['GET', ORDERS, undefined],
  ['POST', ORDERS, anOrderPayload()],
  ['GET', orderPath('order-1'), undefined],
  ['PATCH', orderPath('order-1'), { metadata: { a: 1 } }],
];

const call = (h: Harness, method: string, path: string, body: unknown, authorization?: string) =>
  h.api.request(method, path, { body, headers: authorization === undefined ? {} : { authorization } });

const expectUnauthorized = (res: Awaited<ReturnType<typeof call>>): void => {
  expectProblem(res, 401, 'UNAUTHORIZED');
  expect(res.headers.get('www-authenticate')).to.equal('Bearer');
};

/** Bearer tokens on the public API (specification; decisions 0001, 0008). */
export const authenticationBehaviour = (storageFactory: StorageFactory): void => {
  describe('authentication of the orders API', () => {
    const h = useApi(storageFactory);

    const badHeaders: [string, (h: Harness) => string | undefined][] = [
      ['a missing Authorization header', () => undefined],
      ['an empty Authorization header', () => ''],
      ['the Basic scheme', (x) => `Basic ${Buffer.from(`user:${x.token}`).toString('base64')}`],
      ['the token without a scheme', (x) => x.token],
      ['Bearer without a token', () => 'Bearer'],
      ['a malformed token', () => 'Bearer abc'],
      ['the token with a character changed', (x) => `Bearer ${x.token.slice(0, -1)}${x.token.endsWith('a') ? 'b' : 'a'}`],
      ['a well-formed unknown token', () => `Bearer ${WELL_FORMED_UNKNOWN}`],
      ['the admin token', () => 'Bearer test-admin-token-0123456789'],
      ['two tokens', (x) => `Bearer ${x.token} ${x.token}`],
    ];
    for (const [name, header] of badHeaders) {
      it(`answers 401 UNAUTHORIZED with WWW-Authenticate: Bearer for ${name}`, async () => {
        for (const [method, path, body] of ROUTES) {
          expectUnauthorized(await call(h, method, path, body, header(h)));
        }
      });
    }

    it('accepts the scheme in any case, as RFC 9110 says', async () => {
      const res = await call(h, 'GET', ORDERS, undefined, `bearer ${h.token}`);
      expect(res.status, res.text).to.equal(200);
    });

    it('checks the token before the body: no 400 or 415 leaks to an unauthenticated caller', async () => {
      expectUnauthorized(await h.api.request('POST', ORDERS, { rawBody: '{broken', headers: { 'content-type': 'application/json' } }));
      expectUnauthorized(await h.api.request('POST', ORDERS, { rawBody: 'x', headers: { 'content-type': 'text/plain' } }));
      expectUnauthorized(await h.api.request('POST', ORDERS, { body: {} }));
    });

    it('creates nothing for an unauthenticated request', async () => {
      await call(h, 'POST', ORDERS, anOrderPayload({ externalId: 'sneaky' }), `Bearer ${WELL_FORMED_UNKNOWN}`);
      const list = await h.api.request('GET', ORDERS, { token: h.token });
      expect(list.body.total).to.equal(0);
    });

    it('answers 401 TOKEN_REVOKED with WWW-Authenticate error="invalid_token" once the token is revoked', async () => {
      expect((await h.api.request('GET', ORDERS, { token: h.token })).status).to.equal(200);
      const revoked = await h.api.admin('POST', `/admin/v1/tokens/${h.tokenId}/revoke`);
      expect(revoked.status, revoked.text).to.equal(200);
      for (const [method, path, body] of ROUTES) {
        const res = await h.api.request(method, path, { token: h.token, body });
        expectProblem(res, 401, 'TOKEN_REVOKED');
        expect(res.headers.get('www-authenticate')).to.match(/^Bearer error="invalid_token"/);
      }
    });

    it('keeps the other tokens of the dashboard working after one is revoked', async () => {
      const second = await h.api.admin('POST', `/admin/v1/dashboards/${h.dashboardId}/tokens`, { name: 'second' });
      await h.api.admin('POST', `/admin/v1/tokens/${h.tokenId}/revoke`);
      const res = await h.api.request('GET', ORDERS, { token: second.body.token.token });
      expect(res.status, res.text).to.equal(200);
    });
  });
};
