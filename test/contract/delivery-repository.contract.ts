import { expect } from 'chai';
import * as O from 'fp-ts/Option';
import type { DeliveryRepository } from '../../src/application/ports/delivery-repository';
import { DELIVERY_RETENTION_MS, RESPONSE_BODY_LIMIT_BYTES, type Delivery } from '../../src/domain/delivery';
import { TEST_EPOCH } from '../support/mutable-clock';
import { aDelivery } from '../support/webhook-builders';

const T0 = new Date(TEST_EPOCH).getTime();
const at = (ms: number): Date => new Date(T0 + ms);
const LEASE_MS = 60_000;

/** The delivery as an attempt left it: one more attempt, another status and due time. */
const attempted = (delivery: Delivery, changes: Partial<Delivery>): Delivery => ({
  ...delivery,
  attempts: [...delivery.attempts, { at: at(1), durationMs: 12, responseStatus: 500 }],
  ...changes,
});

/** What every DeliveryRepository must do (src/application/ports/delivery-repository.ts). */
export const deliveryRepositoryContract = (adapterName: string, factory: () => Promise<DeliveryRepository>): void => {
  describe(`DeliveryRepository contract: ${adapterName}`, () => {
    let deliveries: DeliveryRepository;
    const claim = (now: Date, limit = 10, skipEndpoints: string[] = [], skipDashboards: string[] = []) =>
      deliveries.claimDue({ now, leaseMs: LEASE_MS, limit, skipEndpoints, skipDashboards });

    beforeEach(async () => {
      deliveries = await factory();
    });

    describe('insert, find and list', () => {
      it('stores a delivery once per event and endpoint: a second insert of the pair stores nothing', async () => {
        expect(await deliveries.insert(aDelivery('dlv_1'))).to.equal(true);
        expect(await deliveries.insert(aDelivery('dlv_2', { eventId: 'evt_dlv_1' }))).to.equal(false);
        expect(await deliveries.insert(aDelivery('dlv_3', { eventId: 'evt_dlv_1', endpointId: 'whk_2' }))).to.equal(true);
        expect(await deliveries.find('dsh_a', 'whk_1', 'dlv_2')).to.deep.equal(O.none);
        expect(await deliveries.find('dsh_a', 'whk_1', 'dlv_1')).to.deep.equal(O.some(aDelivery('dlv_1')));
      });

      // Relies on a unique (eventId, endpointId) in the store: a read then a write stores duplicates.
      it('stores one of 10 racing inserts of one pair', async () => {
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, i) => deliveries.insert(aDelivery(`dlv_${i}`, { eventId: 'evt_same' }))),
        );
        expect(results.filter(Boolean)).to.have.length(1);
        expect((await deliveries.list('dsh_a', 'whk_1', { page: 1, pageSize: 100 })).total).to.equal(1);
      });

      it('gives a finished delivery back with its attempts, and without nextAttemptAt', async () => {
        const finished = aDelivery('dlv_1', {
          status: 'failed',
          attempts: [
            { at: at(1), durationMs: 3, responseStatus: 503 },
            { at: at(2), durationMs: 15_000, error: 'no answer within 15000 ms' },
          ],
          nextAttemptAt: undefined,
          automaticRetries: false,
        });
        const { nextAttemptAt: _n, ...stored } = finished;
        await deliveries.insert(stored);
        const found = await deliveries.find('dsh_a', 'whk_1', 'dlv_1');
        expect(found).to.deep.equal(O.some(stored));
        expect(O.isSome(found) && found.value).not.to.have.property('nextAttemptAt');
      });

      it("never shows another dashboard's or another endpoint's delivery", async () => {
        await deliveries.insert(aDelivery('dlv_1'));
        expect(await deliveries.find('dsh_b', 'whk_1', 'dlv_1')).to.deep.equal(O.none);
        expect(await deliveries.find('dsh_a', 'whk_2', 'dlv_1')).to.deep.equal(O.none);
        expect(await deliveries.retryNow('dsh_b', 'whk_1', 'dlv_1', at(5))).to.deep.equal(O.none);
        expect(await deliveries.list('dsh_b', 'whk_1', { page: 1, pageSize: 10 })).to.deep.equal({ deliveries: [], total: 0 });
      });

      it('lists an endpoint newest first (createdAt, then id), by page, with the total, and by status', async () => {
        await deliveries.insert(aDelivery('dlv_a', { createdAt: at(0) }));
        await deliveries.insert(aDelivery('dlv_b', { createdAt: at(1000) }));
        await deliveries.insert(aDelivery('dlv_c', { createdAt: at(1000), status: 'failed', nextAttemptAt: undefined }));
        await deliveries.insert(aDelivery('dlv_d', { createdAt: at(2000), status: 'succeeded', nextAttemptAt: undefined }));
        await deliveries.insert(aDelivery('dlv_x', { createdAt: at(3000), endpointId: 'whk_2' }));
        const ids = async (query: Parameters<DeliveryRepository['list']>[2]) => {
          const page = await deliveries.list('dsh_a', 'whk_1', query);
          return { ids: page.deliveries.map((d) => d.id), total: page.total };
        };
        expect(await ids({ page: 1, pageSize: 10 })).to.deep.equal({ ids: ['dlv_d', 'dlv_c', 'dlv_b', 'dlv_a'], total: 4 });
        expect(await ids({ page: 2, pageSize: 3 })).to.deep.equal({ ids: ['dlv_a'], total: 4 });
        expect(await ids({ page: 3, pageSize: 3 })).to.deep.equal({ ids: [], total: 4 });
        expect(await ids({ page: 1, pageSize: 10, status: 'pending' })).to.deep.equal({ ids: ['dlv_b', 'dlv_a'], total: 2 });
        expect(await ids({ page: 1, pageSize: 10, status: 'failed' })).to.deep.equal({ ids: ['dlv_c'], total: 1 });
      });
    });

    describe('claims', () => {
      it('claims the due deliveries nobody holds, longest due first, up to the limit', async () => {
        await deliveries.insert(aDelivery('dlv_late', { nextAttemptAt: at(500) }));
        await deliveries.insert(aDelivery('dlv_early', { nextAttemptAt: at(100) }));
        await deliveries.insert(aDelivery('dlv_future', { nextAttemptAt: at(10_000) }));
        await deliveries.insert(aDelivery('dlv_done', { status: 'succeeded', nextAttemptAt: undefined }));
        const claimed = await claim(at(1000));
        expect(claimed.map((c) => c.delivery.id)).to.deep.equal(['dlv_early', 'dlv_late']);
        expect(claimed[0].delivery).to.deep.equal(aDelivery('dlv_early', { nextAttemptAt: at(100) }));
        expect(claimed[0].lease.deliveryId).to.equal('dlv_early');
        expect(await claim(at(1000))).to.deep.equal([]);
        expect((await claim(at(20_000), 1)).map((c) => c.delivery.id)).to.deep.equal(['dlv_future']);
      });

      it('skips the endpoints it is told to', async () => {
        await deliveries.insert(aDelivery('dlv_1', { endpointId: 'whk_busy' }));
        await deliveries.insert(aDelivery('dlv_2', { endpointId: 'whk_free' }));
        expect((await claim(at(1), 10, ['whk_busy'])).map((c) => c.delivery.id)).to.deep.equal(['dlv_2']);
      });

      it('skips the dashboards it is told to, the longest due of the others first', async () => {
        await deliveries.insert(aDelivery('dlv_1', { dashboardId: 'dsh_busy', endpointId: 'whk_b1', nextAttemptAt: at(0) }));
        await deliveries.insert(aDelivery('dlv_2', { dashboardId: 'dsh_busy', endpointId: 'whk_b2', nextAttemptAt: at(0) }));
        await deliveries.insert(aDelivery('dlv_3', { dashboardId: 'dsh_free', endpointId: 'whk_f1', nextAttemptAt: at(2) }));
        await deliveries.insert(aDelivery('dlv_4', { dashboardId: 'dsh_other', endpointId: 'whk_o1', nextAttemptAt: at(1) }));
        expect((await claim(at(5), 10, ['whk_o1'], ['dsh_busy'])).map((c) => c.delivery.id)).to.deep.equal(['dlv_3']);
        expect((await claim(at(5), 10, [], ['dsh_busy'])).map((c) => c.delivery.id)).to.deep.equal(['dlv_4']);
        expect((await claim(at(5), 10, [], [])).map((c) => c.delivery.id)).to.deep.equal(['dlv_1', 'dlv_2']);
      });

      // Relies on an atomic claim (one conditional update per delivery): a read then a write hands
      // one delivery to several claimants.
      it('hands each delivery to one of 10 racing claimants', async () => {
        for (let i = 0; i < 5; i++) await deliveries.insert(aDelivery(`dlv_${i}`));
        const rounds = await Promise.all(Array.from({ length: 10 }, () => claim(at(1), 2)));
        const ids = rounds.flat().map((c) => c.delivery.id);
        expect([...ids].sort()).to.deep.equal(['dlv_0', 'dlv_1', 'dlv_2', 'dlv_3', 'dlv_4']);
      });

      it('lets another claimant take a delivery once its lease has ended, and then refuses the first its writes', async () => {
        await deliveries.insert(aDelivery('dlv_1'));
        const [first] = await claim(at(0));
        expect(await claim(at(LEASE_MS - 1))).to.deep.equal([]);
        const [second] = await claim(at(LEASE_MS));
        expect(second.delivery.id).to.equal('dlv_1');
        expect(second.lease.leaseId).not.to.equal(first.lease.leaseId);
        expect(
          await deliveries.complete(first.lease, attempted(first.delivery, { status: 'succeeded', nextAttemptAt: undefined })),
        ).to.equal(false);
        await deliveries.discard(first.lease);
        await deliveries.release(first.lease);
        expect(await claim(at(LEASE_MS))).to.deep.equal([]);
        expect(
          await deliveries.complete(second.lease, attempted(second.delivery, { status: 'succeeded', nextAttemptAt: undefined })),
        ).to.equal(true);
      });

      it('renews a lease that still holds, moving its end; refuses to renew one taken over', async () => {
        await deliveries.insert(aDelivery('dlv_1'));
        const [first] = await claim(at(0));
        expect(await deliveries.renew(first.lease, at(LEASE_MS * 3))).to.equal(true);
        expect(await claim(at(LEASE_MS * 3 - 1)), 'held until the renewed end').to.deep.equal([]);
        const [second] = await claim(at(LEASE_MS * 3));
        expect(second.delivery.id).to.equal('dlv_1');
        expect(await deliveries.renew(first.lease, at(LEASE_MS * 10))).to.equal(false);
        expect(await claim(at(LEASE_MS * 4 - 1)), "the first claimant's renewal moved nothing").to.deep.equal([]);
        expect(await deliveries.renew(second.lease, at(LEASE_MS * 5))).to.equal(true);
      });

      it('stores what an attempt made of the delivery and ends the lease: due again at its next attempt', async () => {
        await deliveries.insert(aDelivery('dlv_1'));
        const [claimed] = await claim(at(0));
        const retried = attempted(claimed.delivery, { nextAttemptAt: at(5_000) });
        expect(await deliveries.complete(claimed.lease, retried)).to.equal(true);
        expect(await deliveries.find('dsh_a', 'whk_1', 'dlv_1')).to.deep.equal(O.some(retried));
        expect(await claim(at(4_999))).to.deep.equal([]);
        const [again] = await claim(at(5_000));
        expect(again.delivery).to.deep.equal(retried);
        const { nextAttemptAt: _n, ...done } = attempted(again.delivery, { status: 'succeeded' });
        expect(await deliveries.complete(again.lease, done)).to.equal(true);
        expect(await deliveries.find('dsh_a', 'whk_1', 'dlv_1')).to.deep.equal(O.some(done));
        expect(await deliveries.complete(again.lease, done), 'a lease ends with its completion').to.equal(false);
        expect(await claim(at(1_000_000))).to.deep.equal([]);
      });

      it("stores each attempt's response body as it was kept, to its last character, and whether it was cut", async () => {
        // Up to the limit, with what a store could mangle: markup, quotes, a NUL, replacement and 4-byte characters.
        const hostile = `<script>alert("x")</script>\u0000 \uFFFD ção 😀 \\ $where {"$gt": 1}`;
        const long = `${hostile}${'😀'.repeat(Math.floor((RESPONSE_BODY_LIMIT_BYTES - Buffer.byteLength(hostile)) / 4))}`;
        await deliveries.insert(aDelivery('dlv_1'));
        const [claimed] = await claim(at(0));
        const answered: Delivery = {
          ...claimed.delivery,
          attempts: [
            { at: at(1), durationMs: 12, responseStatus: 500, responseBody: long, responseBodyTruncated: true },
            { at: at(2), durationMs: 7, responseStatus: 422, responseBody: '{"error":"unknown order"}', responseBodyTruncated: false },
            { at: at(3), durationMs: 5, responseStatus: 503 },
          ],
          nextAttemptAt: at(5_000),
        };
        expect(await deliveries.complete(claimed.lease, answered)).to.equal(true);
        expect(await deliveries.find('dsh_a', 'whk_1', 'dlv_1')).to.deep.equal(O.some(answered));
        const listed = await deliveries.list('dsh_a', 'whk_1', { page: 1, pageSize: 10 });
        expect(listed.deliveries[0].attempts[0].responseBody).to.equal(long);
        expect(listed.deliveries[0].attempts[2]).not.to.have.property('responseBody');
      });

      it('hands a released delivery back at once, due as it was', async () => {
        await deliveries.insert(aDelivery('dlv_1'));
        const [claimed] = await claim(at(0));
        await deliveries.release(claimed.lease);
        expect((await claim(at(1))).map((c) => c.delivery)).to.deep.equal([aDelivery('dlv_1')]);
      });

      it('deletes a discarded delivery', async () => {
        await deliveries.insert(aDelivery('dlv_1'));
        const [claimed] = await claim(at(0));
        await deliveries.discard(claimed.lease);
        expect(await deliveries.find('dsh_a', 'whk_1', 'dlv_1')).to.deep.equal(O.none);
        expect(await claim(at(LEASE_MS * 2))).to.deep.equal([]);
      });
    });

    describe('retryNow', () => {
      it('brings a pending delivery forward, keeping its attempts and automatic retries', async () => {
        const pending = aDelivery('dlv_1', { attempts: [{ at: at(0), durationMs: 1, responseStatus: 500 }], nextAttemptAt: at(300_000) });
        await deliveries.insert(pending);
        expect(await deliveries.retryNow('dsh_a', 'whk_1', 'dlv_1', at(10))).to.deep.equal(O.some({ ...pending, nextAttemptAt: at(10) }));
        expect((await claim(at(10))).map((c) => c.delivery.id)).to.deep.equal(['dlv_1']);
      });

      it('makes a finished delivery pending for one attempt, without automatic retries', async () => {
        const { nextAttemptAt: _n, ...failed } = aDelivery('dlv_1', {
          status: 'failed',
          attempts: [{ at: at(0), durationMs: 1, responseStatus: 410 }],
        });
        await deliveries.insert(failed);
        const due = { ...failed, status: 'pending' as const, nextAttemptAt: at(10), automaticRetries: false };
        expect(await deliveries.retryNow('dsh_a', 'whk_1', 'dlv_1', at(10))).to.deep.equal(O.some(due));
        expect((await claim(at(10))).map((c) => c.delivery)).to.deep.equal([due]);
      });

      it('does not hand over a delivery whose attempt is in flight', async () => {
        await deliveries.insert(aDelivery('dlv_1'));
        await claim(at(0));
        expect(O.isSome(await deliveries.retryNow('dsh_a', 'whk_1', 'dlv_1', at(5)))).to.equal(true);
        expect(await claim(at(5))).to.deep.equal([]);
      });
    });

    describe('deletions', () => {
      it("deletes every delivery of an endpoint, and only that endpoint's", async () => {
        await deliveries.insert(aDelivery('dlv_1'));
        await deliveries.insert(aDelivery('dlv_2'));
        await deliveries.insert(aDelivery('dlv_3', { endpointId: 'whk_2' }));
        await deliveries.deleteOfEndpoint('dsh_b', 'whk_1');
        expect((await deliveries.list('dsh_a', 'whk_1', { page: 1, pageSize: 10 })).total).to.equal(2);
        await deliveries.deleteOfEndpoint('dsh_a', 'whk_1');
        expect((await deliveries.list('dsh_a', 'whk_1', { page: 1, pageSize: 10 })).total).to.equal(0);
        expect((await deliveries.list('dsh_a', 'whk_2', { page: 1, pageSize: 10 })).total).to.equal(1);
        expect((await claim(at(1))).map((c) => c.delivery.id)).to.deep.equal(['dlv_3']);
      });

      it('deletes the deliveries made 30 days or more before now, and keeps the younger ones', async () => {
        await deliveries.insert(aDelivery('dlv_old', { createdAt: at(0) }));
        await deliveries.insert(aDelivery('dlv_young', { createdAt: at(1) }));
        expect(await deliveries.purgeExpired(at(DELIVERY_RETENTION_MS - 1))).to.equal(0);
        expect(await deliveries.purgeExpired(at(DELIVERY_RETENTION_MS))).to.equal(1);
        expect(await deliveries.find('dsh_a', 'whk_1', 'dlv_old')).to.deep.equal(O.none);
        expect(O.isSome(await deliveries.find('dsh_a', 'whk_1', 'dlv_young'))).to.equal(true);
      });
    });
  });
};
