import { expect } from 'chai';
import type { Logger } from '../../../src/application/ports/logger';
import type { Storage } from '../../../src/application/ports/storage';
import { anOrderPayload } from '../../support/order-builder';
import { TEST_ADMIN_TOKEN } from '../../support/test-config';
import { ORDERS, orderPath, useApi, type StorageFactory } from '../harness';

const CANARY = 'BODY-CANARY-93F1';

const parsed = (logs: readonly string[]): Record<string, unknown>[] => logs.map((line) => JSON.parse(line) as Record<string, unknown>);

const requestLines = (logs: readonly string[]): Record<string, unknown>[] => parsed(logs).filter((entry) => entry.msg === 'request');

/** Reads of orders whose externalId starts with this wait for one another (see `loggingReads`). */
const TOGETHER = 'together-';
const CONCURRENT = 8;

/** Each caller waits until `count` callers are waiting: whoever reaches it is in flight at the same time. */
const barrier = (count: number): (() => Promise<void>) => {
  const waiting: (() => void)[] = [];
  return () =>
    new Promise<void>((pass) => {
      waiting.push(pass);
      if (waiting.length === count) for (const release of waiting) release();
    });
};

/**
 * Storage whose orders.findByExternalId writes a line through the service's logger once it has read,
 * as a store's own warning would: the store knows nothing of requests. Reads of `together-…` orders
 * first wait until CONCURRENT of them are in flight, so that their requests overlap.
 */
const loggingReads = (storage: Storage, logger: Logger): Storage => {
  const together = barrier(CONCURRENT);
  const findByExternalId = async (dashboardId: string, externalId: string) => {
    const found = await storage.orders.findByExternalId(dashboardId, externalId);
    if (externalId.startsWith(TOGETHER)) await together();
    logger.info('store read', { externalId });
    return found;
  };
  const orders = new Proxy(storage.orders, {
    get: (target, prop) => {
      if (prop === 'findByExternalId') return findByExternalId;
      const value: unknown = Reflect.get(target, prop);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return new Proxy(storage, { get: (target, prop) => (prop === 'orders' ? orders : Reflect.get(target, prop)) });
};

/** Probes and access logs (decision 0011). */
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
      for (const line of h.logs.filter((raw) => raw.includes('"msg":"request"')))
        expect(line.match(/"requestId":/g), line).to.have.length(1);
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
      await h.api.request('POST', ORDERS, {
        token: h.token,
        rawBody: `{"x": "${CANARY}"`,
        headers: { 'content-type': 'application/json' },
      });
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

  describe('request ids on every line of a request', () => {
    const h = useApi(storageFactory, { storage: loggingReads });

    const storeReads = (): Record<string, unknown>[] => parsed(h.logs).filter((entry) => entry.msg === 'store read');

    it("puts on a line the store writes during a request that request's id, the one of X-Request-Id", async () => {
      const made = await h.api.request('GET', orderPath('context-1'), { token: h.token });
      const reused = await h.api.request('GET', orderPath('context-2'), { token: h.token, headers: { 'x-request-id': 'client-id-7' } });
      expect(made.status, made.text).to.equal(404);
      expect(reused.headers.get('x-request-id')).to.equal('client-id-7');
      const [first, second] = storeReads();
      expect(first).to.deep.include({ externalId: 'context-1', requestId: made.headers.get('x-request-id') });
      expect(second).to.deep.include({ externalId: 'context-2', requestId: 'client-id-7' });
    });

    it('keeps the ids of concurrent requests apart', async () => {
      const responses = await Promise.all(
        Array.from({ length: CONCURRENT }, (_, i) => h.api.request('GET', orderPath(`${TOGETHER}${i}`), { token: h.token })),
      );
      const idOf = new Map(storeReads().map((entry) => [entry.externalId, entry.requestId]));
      expect(idOf.size).to.equal(CONCURRENT);
      responses.forEach((res, i) => expect(idOf.get(`${TOGETHER}${i}`), `read ${i}`).to.equal(res.headers.get('x-request-id')));
      expect(new Set(idOf.values()).size).to.equal(CONCURRENT);
    });

    it('writes no requestId on lines written outside a request', async () => {
      await h.api.request('GET', orderPath('inside-1'), { token: h.token });
      await h.api.service.storage.orders.findByExternalId(h.dashboardId, 'outside-1');
      const [inside, outside] = storeReads();
      expect(inside).to.have.property('requestId');
      expect(outside).to.deep.include({ externalId: 'outside-1' });
      expect(outside).not.to.have.property('requestId');
      const startUp = parsed(h.logs).filter(
        (entry) => entry.msg === 'listening' || String(entry.msg).startsWith('orders service starting'),
      );
      expect(startUp).to.have.length(2);
      for (const entry of startUp) expect(entry).not.to.have.property('requestId');
    });
  });
};
