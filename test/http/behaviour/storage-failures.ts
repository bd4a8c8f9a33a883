import { expect } from 'chai';
import { StorageUnavailableError } from '../../../src/application/ports/storage-health';
import type { BackgroundWorker } from '../../../src/application/ports/background-worker';
import type { Storage } from '../../../src/application/ports/storage';
import { ORDERS, useApi, type StorageFactory } from '../harness';
import { expectProblem } from '../problem-assertions';
import { anOrderPayload } from '../../support/order-builder';

/** An object whose methods are the target's, bound to it, except `method`, which rejects with `failure()`. */
const failingMethod = <T extends object>(target: T, method: string, failure: () => Error): T =>
  new Proxy(target, {
    get: (t, prop) => {
      if (prop === method) return async () => Promise.reject(failure());
      const value: unknown = Reflect.get(t, prop);
      return typeof value === 'function' ? value.bind(t) : value;
    },
  });

/** `storage` with `replaced` instead of some of its ports; whatever else it holds is left as it is. */
const replacing = (storage: Storage, replaced: Partial<Storage>): Storage =>
  new Proxy(storage, {
    get: (t, prop) => (Object.hasOwn(replaced, prop) ? (replaced as Record<PropertyKey, unknown>)[prop] : Reflect.get(t, prop)),
  });

const withFailingList =
  (failure: () => Error) =>
  (storage: Storage): Storage =>
    replacing(storage, { orders: failingMethod(storage.orders, 'list', failure) });

/** The background work of the store under test (MongoDB's report rollup), which /readyz lists beside the webhooks', the ad syncs' and the conversions'. */
let storeWorkers: readonly BackgroundWorker[] = [];
const runningWorkers = (): Record<string, string> => ({
  webhooks: 'running',
  'ad-sync': 'running',
  'ad-conversions': 'running',
  ...Object.fromEntries(storeWorkers.map((worker) => [worker.name, 'running'])),
});

const INTERNAL_MESSAGE = 'boom at /work/secret/orders.ts:12 with password=hunter2';

/** Failures of the store become 500 or 503 without internals (decisions 0001, 0002, 0011). */
export const storageFailuresBehaviour = (storageFactory: StorageFactory): void => {
  describe('an unexpected failure', () => {
    const h = useApi(storageFactory, { storage: withFailingList(() => new TypeError(INTERNAL_MESSAGE)) });

    it('answers 500 INTERNAL_ERROR with no stack trace and no internal message', async () => {
      const res = await h.api.request('GET', ORDERS, { token: h.token });
      expectProblem(res, 500, 'INTERNAL_ERROR');
      expect(res.text).not.to.include('boom');
      expect(res.text).not.to.include('hunter2');
      expect(res.text).not.to.include('TypeError');
    });

    it('keeps the service answering after the failure', async () => {
      await h.api.request('GET', ORDERS, { token: h.token });
      expect((await h.api.request('GET', '/healthz')).status).to.equal(200);
      const res = await h.api.request('POST', ORDERS, { token: h.token, body: { externalId: 'x' } });
      expect(res.status).to.equal(400);
    });
  });

  describe('storage that cannot be reached', () => {
    const h = useApi(storageFactory, { storage: withFailingList(() => new StorageUnavailableError('connection refused 10.0.0.7:27017')) });

    it('answers 503 SERVICE_UNAVAILABLE with Retry-After', async () => {
      const res = await h.api.request('GET', ORDERS, { token: h.token });
      expectProblem(res, 503, 'SERVICE_UNAVAILABLE');
      expect(Number(res.headers.get('retry-after'))).to.be.above(0);
      expect(res.text).not.to.include('10.0.0.7');
    });
  });

  describe('/readyz when storage does not answer', () => {
    const h = useApi(storageFactory, {
      storage: (storage) => {
        storeWorkers = storage.workers ?? [];
        return replacing(storage, {
          health: { ping: async () => false, canWrite: async () => false, close: () => storage.health.close() },
        });
      },
    });

    it('answers 503 on /readyz, while /healthz stays 200', async () => {
      const problem = expectProblem(await h.api.request('GET', '/readyz'), 503, 'SERVICE_UNAVAILABLE', ['components']);
      expect(problem.components).to.deep.equal({ store: 'down', workers: runningWorkers() });
      expect((await h.api.request('GET', '/healthz')).status).to.equal(200);
    });
  });

  describe('storage that answers reads but cannot keep a write (a full disk)', () => {
    let full = true;
    const unavailable = () => new StorageUnavailableError('SQLite store unavailable (SQLITE_FULL): the disk or the file is full');
    const h = useApi(storageFactory, {
      storage: (storage) =>
        replacing(((storeWorkers = storage.workers ?? []), storage), {
          // A read: it answers while the disk is full.
          rateLimits: {
            hit: (...args) => (full ? Promise.reject(unavailable()) : storage.rateLimits.hit(...args)),
            peek: (...args) => storage.rateLimits.peek(...args),
          },
          orders: new Proxy(storage.orders, {
            get: (t, prop) => {
              const value: unknown = Reflect.get(t, prop);
              if (typeof value !== 'function') return value;
              return prop === 'insert' || prop === 'replace'
                ? (...args: unknown[]) => (full ? Promise.reject(unavailable()) : (value as (...a: unknown[]) => unknown).apply(t, args))
                : value.bind(t);
            },
          }),
          health: {
            ping: () => storage.health.ping(),
            canWrite: async () => !full && (await storage.health.canWrite()),
            close: () => storage.health.close(),
          },
        }),
    });
    beforeEach(() => (full = true));

    it('still answers reads, counted in the process while the count cannot be written, and 503 to writes', async () => {
      full = false;
      expect((await h.api.request('POST', ORDERS, { token: h.token, body: anOrderPayload({ externalId: 'kept' }) })).status).to.equal(201);
      full = true;
      const list = await h.api.request('GET', ORDERS, { token: h.token });
      expect(list.status, list.text).to.equal(200);
      expect(list.body.orders.map((o: { externalId: string }) => o.externalId)).to.deep.equal(['kept']);
      expect(list.headers.get('ratelimit')).to.match(/^"default";r=\d+;t=\d+$/);
      expect((await h.api.request('GET', `${ORDERS}/kept`, { token: h.token })).status).to.equal(200);
      const write = await h.api.request('POST', ORDERS, { token: h.token, body: anOrderPayload({ externalId: 'lost' }) });
      expectProblem(write, 503, 'SERVICE_UNAVAILABLE');
    });

    it('answers 503 on /readyz with the store read-only, and 200 again once it can write', async () => {
      const problem = expectProblem(await h.api.request('GET', '/readyz'), 503, 'SERVICE_UNAVAILABLE', ['components']);
      expect(problem.components).to.deep.equal({ store: 'read-only', workers: runningWorkers() });
      full = false;
      const ready = await h.api.request('GET', '/readyz');
      expect(ready.status, ready.text).to.equal(200);
      expect(ready.body.components.store).to.equal('up');
    });
  });
};
