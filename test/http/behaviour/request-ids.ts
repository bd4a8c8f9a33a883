import { expect } from 'chai';
import { anOrderPayload } from '../../support/order-builder';
import { ORDERS, orderPath, useApi, type StorageFactory } from '../harness';

const ACCEPTED = /^[A-Za-z0-9._-]{1,128}$/;

/** X-Request-Id on every response; a well-formed incoming one is reused (decision 0002). */
export const requestIdsBehaviour = (storageFactory: StorageFactory): void => {
  describe('X-Request-Id', () => {
    const h = useApi(storageFactory);

    it('is on every response, success or error, with or without authentication', async () => {
      const calls: [string, string, Record<string, unknown>][] = [
        ['POST', ORDERS, { token: h.token, body: anOrderPayload() }],
        ['GET', ORDERS, { token: h.token }],
        ['GET', orderPath('order-1'), { token: h.token }],
        ['PATCH', orderPath('order-1'), { token: h.token, body: { metadata: { a: 1 } } }],
        ['GET', orderPath('missing'), { token: h.token }],
        ['POST', ORDERS, { token: h.token, body: {} }],
        ['GET', ORDERS, {}],
        ['DELETE', ORDERS, {}],
        ['GET', '/nowhere', {}],
        ['GET', '/healthz', {}],
        ['GET', '/readyz', {}],
        ['POST', '/admin/v1/dashboards', { token: 'wrong-admin-token-000000', body: { name: 'x' } }],
      ];
      const seen = new Set<string>();
      for (const [method, path, options] of calls) {
        const res = await h.api.request(method, path, options);
        const id = res.headers.get('x-request-id');
        expect(id, `${method} ${path} answered ${res.status}`).to.match(ACCEPTED);
        seen.add(id ?? '');
      }
      expect(seen.size).to.equal(calls.length);
    });

    it('reuses a well-formed incoming id, in the header and in the problem body', async () => {
      for (const incoming of ['abc-123_X.y', 'a', 'r'.repeat(128), '01J0000000000000000000000A']) {
        const res = await h.api.request('GET', orderPath('missing'), { token: h.token, headers: { 'x-request-id': incoming } });
        expect(res.headers.get('x-request-id')).to.equal(incoming);
        expect(res.body.requestId).to.equal(incoming);
      }
      const ok = await h.api.request('GET', ORDERS, { token: h.token, headers: { 'x-request-id': 'ok-1' } });
      expect(ok.headers.get('x-request-id')).to.equal('ok-1');
    });

    it('replaces an incoming id that is too long, empty or has other characters', async () => {
      for (const incoming of ['r'.repeat(129), 'has space', 'semi;colon', 'slash/id', 'quote"', 'ünïcode', '{json}']) {
        const res = await h.api.request('GET', orderPath('missing'), { token: h.token, headers: { 'x-request-id': incoming } });
        const id = res.headers.get('x-request-id');
        expect(id).not.to.equal(incoming);
        expect(id).to.match(ACCEPTED);
        expect(res.body.requestId).to.equal(id);
        expect(res.text).not.to.include(incoming);
      }
    });
  });
};
