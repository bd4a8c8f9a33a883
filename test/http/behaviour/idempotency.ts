import { expect } from 'chai';
import { requestFingerprint } from '../../../src/adapters/http/kit/middleware/idempotency';
import { StorageUnavailableError } from '../../../src/application/ports/storage-health';
import type { Storage } from '../../../src/application/ports/storage';
import { anOrder, anOrderPayload } from '../../support/order-builder';
import type { ApiResponse } from '../../support/test-api';
import { createOrder, listOrders, ORDERS, orderPath, readOrder, useApi, type Harness, type StorageFactory } from '../harness';
import { expectInvalid, expectProblem } from '../problem-assertions';

type Method = (...args: unknown[]) => Promise<unknown>;
type Instead = (real: Method, args: unknown[]) => Promise<unknown>;
type TappedCall = `${'orders' | 'idempotency'}.${string}`;

/**
 * Watches the orders and idempotency ports of the storage a test's service gets, counts their calls,
 * and lets a test decide what the next call of one method does instead (hold it, fail it, fail after
 * it). Reset each time it wraps a new storage, that is before each test.
 */
class StorageTap {
  private readonly counts = new Map<string, number>();
  private readonly planned = new Map<string, Instead[]>();

  readonly wrap = (storage: Storage): Storage => {
    this.counts.clear();
    this.planned.clear();
    const orders = this.port('orders', storage.orders);
    const idempotency = this.port('idempotency', storage.idempotency);
    return new Proxy(storage, {
      get: (target, prop) => (prop === 'orders' ? orders : prop === 'idempotency' ? idempotency : Reflect.get(target, prop)),
    });
  };

  /** The next call of `name` runs `instead`, which may call the real method itself. */
  next(name: TappedCall, instead: Instead): void {
    this.planned.set(name, [...(this.planned.get(name) ?? []), instead]);
  }

  count(name: TappedCall): number {
    return this.counts.get(name) ?? 0;
  }

  private port<T extends object>(name: string, target: T): T {
    return new Proxy(target, {
      get: (t, prop) => {
        const value: unknown = Reflect.get(t, prop);
        if (typeof value !== 'function' || typeof prop !== 'string') return value;
        const full = `${name}.${prop}`;
        const real = (value as Method).bind(t);
        return (...args: unknown[]) => {
          this.counts.set(full, (this.counts.get(full) ?? 0) + 1);
          const instead = this.planned.get(full)?.shift();
          return instead === undefined ? real(...args) : instead(real, args);
        };
      },
    });
  }
}

/** A promise and the function that settles it, for a test to decide when something happens. */
const signal = (): { promise: Promise<void>; fire: () => void } => {
  let fire!: () => void;
  const promise = new Promise<void>((resolve) => (fire = resolve));
  return { promise, fire };
};

const LEASE_MS = 10_000;
const TTL_MS = 86_400_000;

const postWithKey = (h: Harness, key: string, changes: Record<string, unknown> = {}, token = h.token): Promise<ApiResponse> =>
  h.api.request('POST', ORDERS, { token, body: anOrderPayload(changes), headers: { 'idempotency-key': key } });

const patchWithKey = (h: Harness, externalId: string, key: string, body: unknown): Promise<ApiResponse> =>
  h.api.request('PATCH', orderPath(externalId), { token: h.token, body, headers: { 'idempotency-key': key } });

const mediaType = (res: ApiResponse): string | undefined => res.headers.get('content-type')?.split(';')[0];

/** `res` is a fresh execution, not a replay. */
const expectExecuted = (res: ApiResponse, status: number): void => {
  expect(res.status, res.text).to.equal(status);
  expect(res.headers.get('idempotent-replayed'), 'Idempotent-Replayed').to.equal(null);
};

/** `replay` repeats `original` unchanged (status, body, Location, media type), marked as a replay. */
const expectReplayOf = (replay: ApiResponse, original: ApiResponse): void => {
  expect(replay.status, replay.text).to.equal(original.status);
  expect(replay.headers.get('idempotent-replayed'), 'Idempotent-Replayed').to.equal('true');
  expect(replay.body).to.deep.equal(original.body);
  expect(replay.headers.get('location')).to.equal(original.headers.get('location'));
  expect(mediaType(replay)).to.equal(mediaType(original));
};

/** Idempotency-Key on POST and PATCH (decision 0007). */
export const idempotencyBehaviour = (storageFactory: StorageFactory): void => {
  describe('Idempotency-Key', () => {
    const tap = new StorageTap();
    const h = useApi(storageFactory, { clock: true, storage: tap.wrap });

    describe('replays', () => {
      it('replays a completed POST: same status, body and Location, Idempotent-Replayed: true, nothing executed again', async () => {
        const original = await postWithKey(h, 'k-1', { externalId: 'r-1' });
        expectExecuted(original, 201);
        expect(original.headers.get('location')).to.equal(orderPath('r-1'));
        expect(tap.count('orders.insert')).to.equal(1);
        h.clock.advance(60_000);
        const replay = await postWithKey(h, 'k-1', { externalId: 'r-1' });
        expectReplayOf(replay, original);
        expect(mediaType(replay)).to.equal('application/json');
        expect(tap.count('orders.insert')).to.equal(1);
        expect((await listOrders(h)).total).to.equal(1);
      });

      it('treats a body with its keys in another order, at any depth, as the same request', async () => {
        const payload = anOrderPayload({ externalId: 'order-keys' });
        const original = await postWithKey(h, 'k-order', payload);
        expectExecuted(original, 201);
        const reordered = Object.fromEntries(
          Object.entries(payload)
            .reverse()
            .map(([name, value]) => [name, name === 'amounts' ? Object.fromEntries(Object.entries(value as object).reverse()) : value]),
        );
        expect(JSON.stringify(reordered)).not.to.equal(JSON.stringify(payload));
        const replay = await h.api.request('POST', ORDERS, { token: h.token, body: reordered, headers: { 'idempotency-key': 'k-order' } });
        expectReplayOf(replay, original);
        expect((await listOrders(h)).total).to.equal(1);
      });

      it('replays for any token of the same dashboard: keys belong to the dashboard', async () => {
        const original = await postWithKey(h, 'k-dash', { externalId: 'd-1' });
        expectExecuted(original, 201);
        const second = await h.api.admin('POST', `/admin/v1/dashboards/${h.dashboardId}/tokens`, { name: 'second' });
        expect(second.status, second.text).to.equal(201);
        expectReplayOf(await postWithKey(h, 'k-dash', { externalId: 'd-1' }, second.body.token.token), original);
        expect(tap.count('orders.insert')).to.equal(1);
      });

      it('scopes keys by dashboard: the same key and body in two dashboards execute twice', async () => {
        const other = await h.api.newDashboard('Other shop');
        const mine = await postWithKey(h, 'shared-key', { externalId: 'same' });
        const theirs = await postWithKey(h, 'shared-key', { externalId: 'same' }, other.token);
        expectExecuted(mine, 201);
        expectExecuted(theirs, 201);
        expect(mine.body.order.id).not.to.equal(theirs.body.order.id);
        expect((await listOrders(h)).total).to.equal(1);
        expect((await listOrders(h, '', other.token)).total).to.equal(1);
      });

      it('takes the structured-field form "abc" as the key abc, escapes included', async () => {
        const plain = await postWithKey(h, 'abc', { externalId: 'sf-1' });
        expectExecuted(plain, 201);
        expectReplayOf(await postWithKey(h, '"abc"', { externalId: 'sf-1' }), plain);
        const quoted = await postWithKey(h, '"q\\"k\\\\"', { externalId: 'sf-2' });
        expectExecuted(quoted, 201);
        expectReplayOf(await postWithKey(h, 'q"k\\', { externalId: 'sf-2' }), quoted);
        expect((await listOrders(h)).total).to.equal(2);
      });

      it('accepts a key of 255 visible ASCII characters', async () => {
        const key = `${'!~'.repeat(127)}z`;
        expect(key).to.have.length(255);
        const original = await postWithKey(h, key, { externalId: 'long-key' });
        expectExecuted(original, 201);
        expectReplayOf(await postWithKey(h, key, { externalId: 'long-key' }), original);
      });

      it('replays a completed PATCH without applying it again', async () => {
        await createOrder(h, { externalId: 'p-1', status: 'paid' });
        const original = await patchWithKey(h, 'p-1', 'k-patch', { paidAt: '2026-01-05T10:00:00Z' });
        expectExecuted(original, 200);
        expect(original.body.order.paidAt).to.equal('2026-01-05T10:00:00.000Z');
        const later = await h.api.request('PATCH', orderPath('p-1'), { token: h.token, body: { paidAt: '2026-01-06T10:00:00Z' } });
        expect(later.status, later.text).to.equal(200);
        const replay = await patchWithKey(h, 'p-1', 'k-patch', { paidAt: '2026-01-05T10:00:00Z' });
        expectReplayOf(replay, original);
        expect((await readOrder(h, 'p-1')).paidAt).to.equal('2026-01-06T10:00:00.000Z');
        expect(tap.count('orders.replace')).to.equal(2);
      });

      it('processes a request without the header normally, every time', async () => {
        expectExecuted(await h.api.request('POST', ORDERS, { token: h.token, body: anOrderPayload({ externalId: 'n-1' }) }), 201);
        const again = await h.api.request('POST', ORDERS, { token: h.token, body: anOrderPayload({ externalId: 'n-1' }) });
        expectProblem(again, 409, 'DUPLICATE_EXTERNAL_ID');
        expect(again.headers.get('idempotent-replayed')).to.equal(null);
      });

      it('ignores the header on GET, even a key that would be invalid, and claims nothing with it', async () => {
        await createOrder(h, { externalId: 'g-1' });
        for (const path of [ORDERS, orderPath('g-1')]) {
          for (const key of ['k-get', 'not a valid key']) {
            const res = await h.api.request('GET', path, { token: h.token, headers: { 'idempotency-key': key } });
            expectExecuted(res, 200);
          }
        }
        expect(tap.count('idempotency.claim')).to.equal(0);
        expectExecuted(await postWithKey(h, 'k-get', { externalId: 'g-2' }), 201);
      });
    });

    describe('refusals', () => {
      it('answers 422 IDEMPOTENCY_KEY_REUSED for the same key with another body, executing nothing', async () => {
        expectExecuted(await postWithKey(h, 'k-reuse', { externalId: 'u-1' }), 201);
        const reused = await postWithKey(h, 'k-reuse', { externalId: 'u-2' });
        expectProblem(reused, 422, 'IDEMPOTENCY_KEY_REUSED');
        expect(reused.headers.get('idempotent-replayed')).to.equal(null);
        expectProblem(await postWithKey(h, 'k-reuse', { externalId: 'u-1', isTest: true }), 422, 'IDEMPOTENCY_KEY_REUSED');
        expect(tap.count('orders.insert')).to.equal(1);
        expect((await listOrders(h)).orders.map((o: { externalId: string }) => o.externalId)).to.deep.equal(['u-1']);
      });

      it('answers 422 for the same key on another method and path, in both directions', async () => {
        await createOrder(h, { externalId: 'x-1', status: 'paid' });
        expectExecuted(await postWithKey(h, 'k-post', { externalId: 'x-2' }), 201);
        expectProblem(await patchWithKey(h, 'x-2', 'k-post', { paidAt: '2026-01-05T10:00:00Z' }), 422, 'IDEMPOTENCY_KEY_REUSED');
        expectExecuted(await patchWithKey(h, 'x-1', 'k-patch', { paidAt: '2026-01-05T10:00:00Z' }), 200);
        expectProblem(await patchWithKey(h, 'x-2', 'k-patch', { paidAt: '2026-01-05T10:00:00Z' }), 422, 'IDEMPOTENCY_KEY_REUSED');
        expectProblem(await postWithKey(h, 'k-patch', { externalId: 'x-3' }), 422, 'IDEMPOTENCY_KEY_REUSED');
        expect(tap.count('orders.replace')).to.equal(1);
        expect((await listOrders(h)).total).to.equal(2);
      });

      const invalidKeys: [string, string][] = [
        ['an empty structured-field string ""', '""'],
        ['256 characters', 'k'.repeat(256)],
        ['256 characters in quotes', `"${'k'.repeat(256)}"`],
        ['a non-ASCII character', 'clé-1'],
        ['a space inside', 'two words'],
        ['a space inside quotes', '"two words"'],
      ];
      for (const [name, key] of invalidKeys) {
        it(`answers 400 VALIDATION_FAILED at header.Idempotency-Key for a key with ${name}, executing nothing`, async () => {
          expectInvalid(await postWithKey(h, key), ['header.Idempotency-Key']);
          await createOrder(h, { externalId: 'bad-key-target', status: 'paid' });
          expectInvalid(await patchWithKey(h, 'bad-key-target', key, { paidAt: '2026-01-05T10:00:00Z' }), ['header.Idempotency-Key']);
          expect(tap.count('orders.insert')).to.equal(1);
          expect(tap.count('orders.replace')).to.equal(0);
        });
      }

      it('answers 400 VALIDATION_FAILED for an empty Idempotency-Key header rather than ignoring it', async () => {
        expectInvalid(await postWithKey(h, ''), ['header.Idempotency-Key']);
        expect((await listOrders(h)).total).to.equal(0);
      });
    });

    describe('what is stored', () => {
      it('stores a business 4xx: 409 DUPLICATE_EXTERNAL_ID is replayed as it was', async () => {
        await createOrder(h, { externalId: 'taken' });
        const original = await postWithKey(h, 'k-dup', { externalId: 'taken' });
        expectProblem(original, 409, 'DUPLICATE_EXTERNAL_ID');
        expect(original.headers.get('idempotent-replayed')).to.equal(null);
        const replay = await postWithKey(h, 'k-dup', { externalId: 'taken' });
        expectReplayOf(replay, original);
        expect(mediaType(replay)).to.equal('application/problem+json');
        expect(tap.count('orders.insert')).to.equal(2);
      });

      it('keeps a stored 404 as the answer for its key, even once the order exists', async () => {
        const original = await patchWithKey(h, 'later', 'k-404', { metadata: { a: 1 } });
        expectProblem(original, 404, 'NOT_FOUND');
        await createOrder(h, { externalId: 'later' });
        expectReplayOf(await patchWithKey(h, 'later', 'k-404', { metadata: { a: 1 } }), original);
        expect(tap.count('orders.replace')).to.equal(0);
      });

      it('does not store a 400 VALIDATION_FAILED: the same key with a valid body then executes', async () => {
        expectProblem(await postWithKey(h, 'k-400', { externalId: 'v-1', amounts: { currency: 'BRL' } }), 400, 'VALIDATION_FAILED');
        expectExecuted(await postWithKey(h, 'k-400', { externalId: 'v-1' }), 201);
        expect((await listOrders(h)).total).to.equal(1);
      });

      it('does not store a 400 MALFORMED_JSON nor a 415', async () => {
        const headers = { 'idempotency-key': 'k-raw', 'content-type': 'application/json' };
        expectProblem(await h.api.request('POST', ORDERS, { token: h.token, rawBody: '{"externalId":', headers }), 400, 'MALFORMED_JSON');
        const text = { 'idempotency-key': 'k-raw', 'content-type': 'text/plain' };
        expectProblem(
          await h.api.request('POST', ORDERS, { token: h.token, rawBody: 'externalId=1', headers: text }),
          415,
          'UNSUPPORTED_MEDIA_TYPE',
        );
        expectExecuted(await postWithKey(h, 'k-raw', { externalId: 'raw-1' }), 201);
      });

      it('does not store a 401: the same key then executes for a valid token', async () => {
        expectProblem(await postWithKey(h, 'k-401', { externalId: 'a-1' }, `ok_live_${'A'.repeat(43)}`), 401, 'UNAUTHORIZED');
        expectExecuted(await postWithKey(h, 'k-401', { externalId: 'a-2' }), 201);
        expect(tap.count('orders.insert')).to.equal(1);
      });

      it('does not store a 500 when the insert fails: a retry with the same key (after the lease at most) executes, 201', async () => {
        tap.next('orders.insert', async () => {
          throw new Error('the disk is full');
        });
        expectProblem(await postWithKey(h, 'k-500', { externalId: 'f-1' }), 500, 'INTERNAL_ERROR');
        expect((await listOrders(h)).total).to.equal(0);
        h.clock.advance(LEASE_MS);
        const retry = await postWithKey(h, 'k-500', { externalId: 'f-1' });
        expectExecuted(retry, 201);
        expect(retry.body.order.id).to.equal((await readOrder(h, 'f-1')).id);
        expectReplayOf(await postWithKey(h, 'k-500', { externalId: 'f-1' }), retry);
      });

      it('does not store a 503 when storage is unreachable: a retry with the same key (after the lease at most) executes, 201', async () => {
        tap.next('orders.insert', async () => {
          throw new StorageUnavailableError('connection refused');
        });
        expectProblem(await postWithKey(h, 'k-503', { externalId: 'f-2' }), 503, 'SERVICE_UNAVAILABLE');
        h.clock.advance(LEASE_MS);
        expectExecuted(await postWithKey(h, 'k-503', { externalId: 'f-2' }), 201);
        expect((await listOrders(h)).total).to.equal(1);
      });
    });

    describe('concurrency, leases and expiry', () => {
      /** Holds the next insert until `release.fire()`, saying through `entered` when it is being held. */
      const holdNextInsert = (): { entered: Promise<void>; release: () => void } => {
        const entered = signal();
        const release = signal();
        tap.next('orders.insert', async (insert, args) => {
          entered.fire();
          await release.promise;
          return insert(...args);
        });
        return { entered: entered.promise, release: release.fire };
      };

      it('answers 409 IDEMPOTENCY_KEY_IN_PROGRESS with Retry-After while the first request runs, then replays it', async () => {
        const held = holdNextInsert();
        const first = postWithKey(h, 'k-slow', { externalId: 's-1' });
        try {
          await held.entered;
          const busy = await postWithKey(h, 'k-slow', { externalId: 's-1' });
          expectProblem(busy, 409, 'IDEMPOTENCY_KEY_IN_PROGRESS');
          expect(busy.headers.get('retry-after')).to.equal(String(LEASE_MS / 1000));
          h.clock.advance(4_000);
          expect((await postWithKey(h, 'k-slow', { externalId: 's-1' })).headers.get('retry-after')).to.equal('6');
          expectProblem(await postWithKey(h, 'k-slow', { externalId: 's-other' }), 422, 'IDEMPOTENCY_KEY_REUSED');
        } finally {
          held.release();
        }
        const done = await first;
        expectExecuted(done, 201);
        expectReplayOf(await postWithKey(h, 'k-slow', { externalId: 's-1' }), done);
        expect(tap.count('orders.insert')).to.equal(1);
        expect((await listOrders(h)).total).to.equal(1);
      });

      it('lets a retry take the key over once the lease has passed; both answers are the same single order', async () => {
        const held = holdNextInsert();
        const first = postWithKey(h, 'k-lease', { externalId: 'l-1' });
        let retry: ApiResponse;
        try {
          await held.entered;
          h.clock.advance(LEASE_MS - 1);
          expectProblem(await postWithKey(h, 'k-lease', { externalId: 'l-1' }), 409, 'IDEMPOTENCY_KEY_IN_PROGRESS');
          h.clock.advance(1);
          retry = await postWithKey(h, 'k-lease', { externalId: 'l-1' });
        } finally {
          held.release();
        }
        expectExecuted(retry, 201);
        const late = await first;
        expect(late.status, late.text).to.equal(201);
        expect(late.body).to.deep.equal(retry.body);
        expect((await listOrders(h)).total).to.equal(1);
        expectReplayOf(await postWithKey(h, 'k-lease', { externalId: 'l-1' }), retry);
      });

      it('creates one order from ten parallel requests with one key; the others replay it or are told it is in progress', async () => {
        const answers = await Promise.all(Array.from({ length: 10 }, () => postWithKey(h, 'k-par', { externalId: 'par-1' })));
        const created = answers.filter((res) => res.status === 201);
        for (const res of answers) {
          if (res.status !== 201) expectProblem(res, 409, 'IDEMPOTENCY_KEY_IN_PROGRESS');
        }
        expect(created.filter((res) => res.headers.get('idempotent-replayed') === null)).to.have.length(1);
        for (const res of created) expect(res.body).to.deep.equal(created[0]?.body);
        expect(tap.count('orders.insert')).to.equal(1);
        expect((await listOrders(h)).total).to.equal(1);
      });

      it(`forgets a key ${TTL_MS / 3_600_000} h after its first use: the same key with another body then executes`, async () => {
        expectExecuted(await postWithKey(h, 'k-ttl', { externalId: 't-1' }), 201);
        h.clock.advance(TTL_MS - 1_000);
        expectProblem(await postWithKey(h, 'k-ttl', { externalId: 't-2' }), 422, 'IDEMPOTENCY_KEY_REUSED');
        h.clock.advance(1_000);
        expectExecuted(await postWithKey(h, 'k-ttl', { externalId: 't-2' }), 201);
        expect((await listOrders(h)).total).to.equal(2);
      });
    });

    describe('crash safety', () => {
      it('answers 201 with the order written before the process died, not DUPLICATE_EXTERNAL_ID (response never stored)', async () => {
        tap.next('idempotency.complete', async () => {
          throw new Error('the process died before storing the response');
        });
        const lost = await postWithKey(h, 'k-crash', { externalId: 'c-1' });
        expect(lost.status, lost.text).to.be.at.least(500);
        const written = await readOrder(h, 'c-1');
        // The dead process still holds the key until its lease passes.
        expectProblem(await postWithKey(h, 'k-crash', { externalId: 'c-1' }), 409, 'IDEMPOTENCY_KEY_IN_PROGRESS');
        h.clock.advance(LEASE_MS);
        const retry = await postWithKey(h, 'k-crash', { externalId: 'c-1' });
        expectExecuted(retry, 201);
        expect(retry.body.order).to.deep.equal({ id: written.id, externalId: 'c-1', status: 'pending', isTest: false });
        expect(retry.headers.get('location')).to.equal(orderPath('c-1'));
        expectReplayOf(await postWithKey(h, 'k-crash', { externalId: 'c-1' }), retry);
        expect((await listOrders(h)).total).to.equal(1);
      });

      it('recognises its own order from the state a crash leaves: a claimed key and an order under the reserved id', async () => {
        const storage = h.api.service.storage;
        const payload = anOrderPayload({ externalId: 'c-2' });
        const claimed = await storage.idempotency.claim(
          { dashboardId: h.dashboardId, key: 'k-by-hand' },
          {
            fingerprint: requestFingerprint('POST', ORDERS, payload),
            reservedId: 'ord_reservedbyhand01',
            now: h.clock.now(),
            leaseMs: LEASE_MS,
            ttlMs: TTL_MS,
          },
        );
        expect(claimed.kind).to.equal('acquired');
        const inserted = await storage.orders.insert(
          anOrder().inDashboard(h.dashboardId).withExternalId('c-2').with({ id: 'ord_reservedbyhand01' }).build(),
          [],
        );
        expect(inserted._tag).to.equal('Right');
        const retryByHand = () =>
          h.api.request('POST', ORDERS, { token: h.token, body: payload, headers: { 'idempotency-key': 'k-by-hand' } });
        expectProblem(await retryByHand(), 409, 'IDEMPOTENCY_KEY_IN_PROGRESS');
        h.clock.advance(LEASE_MS);
        const retry = await retryByHand();
        expectExecuted(retry, 201);
        expect(retry.body.order).to.deep.equal({ id: 'ord_reservedbyhand01', externalId: 'c-2', status: 'pending', isTest: false });
        expect((await listOrders(h)).total).to.equal(1);
      });

      it('still answers DUPLICATE_EXTERNAL_ID when the order under that externalId is not the one reserved with the key', async () => {
        await createOrder(h, { externalId: 'c-3' });
        const payload = anOrderPayload({ externalId: 'c-3' });
        await h.api.service.storage.idempotency.claim(
          { dashboardId: h.dashboardId, key: 'k-other-order' },
          {
            fingerprint: requestFingerprint('POST', ORDERS, payload),
            reservedId: 'ord_neverinserted001',
            now: h.clock.now(),
            leaseMs: LEASE_MS,
            ttlMs: TTL_MS,
          },
        );
        h.clock.advance(LEASE_MS);
        const retry = await h.api.request('POST', ORDERS, {
          token: h.token,
          body: payload,
          headers: { 'idempotency-key': 'k-other-order' },
        });
        expectProblem(retry, 409, 'DUPLICATE_EXTERNAL_ID');
      });

      it('answers 201 with the order when storage failed after writing it (acknowledgement lost), on a retry after the lease', async () => {
        tap.next('orders.insert', async (insert, args) => {
          await insert(...args);
          throw new StorageUnavailableError('connection reset before the acknowledgement');
        });
        expectProblem(await postWithKey(h, 'k-ack', { externalId: 'c-4' }), 503, 'SERVICE_UNAVAILABLE');
        const written = await readOrder(h, 'c-4');
        h.clock.advance(LEASE_MS);
        const retry = await postWithKey(h, 'k-ack', { externalId: 'c-4' });
        expect(retry.status, `a retry must finish the work (decision 0007), got ${retry.text}`).to.equal(201);
        expect(retry.body.order.id).to.equal(written.id);
        expect((await listOrders(h)).total).to.equal(1);
      });
    });
  });
};
