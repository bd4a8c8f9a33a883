import { expect } from 'chai';
import { anOrderPayload } from '../../support/order-builder';
import { TEST_ADMIN_TOKEN } from '../../support/test-config';
import { ORDERS, orderPath, useApi, type StorageFactory } from '../harness';

const CANARY = 'BODY-CANARY-93F1';

const requestLines = (logs: readonly string[]): Record<string, unknown>[] =>
  logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry.msg === 'request');

/** Probes and access logs (DECISIONS D11). */
export const operationsAndLogsBehaviour = (storageFactory: StorageFactory): void => {
  describe('probes', () => {
    const h = useApi(storageFactory, { dashboard: false });

    for (const path of ['/healthz', '/readyz']) {
      it(`answers GET ${path} with 200 without authentication`, async () => {
        const res = await h.api.request('GET', path);
        expect(res.status, res.text).to.equal(200);
        expect(res.headers.get('content-type')).to.match(/^application\/json\b/);
      });

      it(`answers GET ${path} with 200 even with a bad token`, async () => {
        expect((await h.api.request('GET', path, { token: 'garbage' })).status).to.equal(200);
      });
    }
  });

  describe('access log', () => {
    const h = useApi(storageFactory);

    it('writes one JSON line per request with requestId, method, route, status, durationMs and dashboardId', async () => {
      h.logs.length = 0;
      const created = await h.api.request('POST', ORDERS, { token: h.token, body: anOrderPayload({ externalId: 'log-1' }) });
      const read = await h.api.request('GET', orderPath('log-1'), { token: h.token });
      const denied = await h.api.request('GET', ORDERS, { token: 'nope' });
      for (const line of h.logs) expect(() => JSON.parse(line), line).not.to.throw();
      const lines = requestLines(h.logs);
      expect(lines).to.have.length(3);
      const [first, second, third] = lines;
      expect(first).to.deep.include({
        requestId: created.headers.get('x-request-id'),
        method: 'POST',
        route: '/api/v1/orders',
        status: 201,
        dashboardId: h.dashboardId,
      });
      expect(second).to.deep.include({
        requestId: read.headers.get('x-request-id'),
        method: 'GET',
        route: '/api/v1/orders/:externalId',
        status: 200,
        dashboardId: h.dashboardId,
      });
      expect(third).to.deep.include({ requestId: denied.headers.get('x-request-id'), method: 'GET', status: 401 });
      expect(third.dashboardId).to.equal(undefined);
      for (const line of lines) expect(line.durationMs).to.be.a('number').that.is.at.least(0);
    });

    it('logs the route pattern, not the externalId of the path', async () => {
      h.logs.length = 0;
      await h.api.request('GET', orderPath(`${CANARY}-path`), { token: h.token });
      expect(requestLines(h.logs)[0]).to.deep.include({ route: '/api/v1/orders/:externalId', status: 404 });
      expect(h.logs.join('\n')).not.to.include(CANARY);
    });

    it('never logs a bearer token, the admin token or any body content', async () => {
      const payload = anOrderPayload({
        externalId: `${CANARY}-id`,
        customer: { email: `${CANARY}@example.com` },
        metadata: { note: CANARY },
      });
      await h.api.request('POST', ORDERS, { token: h.token, body: payload });
      await h.api.request('POST', ORDERS, { token: h.token, body: payload });
      await h.api.request('POST', ORDERS, { token: h.token, body: { ...payload, isTest: CANARY } });
      await h.api.request('POST', ORDERS, { token: h.token, rawBody: `{"x": "${CANARY}"`, headers: { 'content-type': 'application/json' } });
      await h.api.request('POST', ORDERS, { token: h.token, rawBody: CANARY, headers: { 'content-type': 'text/plain' } });
      await h.api.request('PATCH', orderPath(`${CANARY}-id`), { token: h.token, body: { metadata: { note: CANARY } } });
      await h.api.request('GET', ORDERS, { token: `${CANARY}-token` });
      const all = h.logs.join('\n');
      expect(requestLines(h.logs).length).to.be.at.least(9);
      expect(all).not.to.include(h.token);
      expect(all).not.to.include(h.token.slice(-20));
      expect(all).not.to.include(TEST_ADMIN_TOKEN);
      expect(all).not.to.include(CANARY);
      expect(all).not.to.include('credit_card');
    });
  });
};
