import { expect } from 'chai';
import type { OrderEvent } from '../../src/application/ports/order-repository';
import type { Storage } from '../../src/application/ports/storage';
import type { Order } from '../../src/domain/order';
import type { OrderEventType } from '../../src/domain/order-events';
import { anOrder } from '../support/order-builder';
import { aDelivery, anEndpoint } from '../support/webhook-builders';

/** The ports a relay touches, over one store. */
export type OutboxStore = Pick<Storage, 'orders' | 'deliveries' | 'outbox' | 'webhooks' | 'events'>;

const anEvent = (id: string, type: OrderEventType, order: Order): OrderEvent => ({
  id,
  type,
  occurredAt: new Date(order.updatedAt),
  order,
});

/** What every WebhookOutbox must do, with the orders and deliveries of the same store (src/application/ports/webhook-outbox.ts). */
export const webhookOutboxContract = (
  adapterName: string,
  factory: () => Promise<OutboxStore>,
  /** Whether the store relays the events of dashboards without endpoints in one step (`relayUnsubscribed`). */
  relaysUnsubscribed: boolean,
): void => {
  describe(`WebhookOutbox contract: ${adapterName}`, () => {
    let store: OutboxStore;
    const order = anOrder().inDashboard('dsh_a').with({ id: 'ord_1', externalId: 'o-1' }).build();
    const changed = { ...order, status: 'paid' as const, paidAt: new Date('2026-01-03T00:00:00.000Z'), version: 2 };

    beforeEach(async () => {
      store = await factory();
    });

    const pendingIds = async (): Promise<Record<string, string[]>> =>
      Object.fromEntries((await store.outbox.pending(100)).map((entry) => [entry.orderId, entry.events.map((event) => event.id)]));

    it('counts the events waiting in every outbox, and none once relayed', async () => {
      expect(await store.outbox.backlog()).to.equal(0);
      await store.orders.insert(order, [anEvent('evt_1', 'order.created', order)]);
      await store.orders.replace(changed, [anEvent('evt_2', 'order.updated', changed), anEvent('evt_3', 'order.paid', changed)]);
      const other = anOrder().inDashboard('dsh_b').with({ id: 'ord_2', externalId: 'o-2' }).build();
      await store.orders.insert(other, [anEvent('evt_4', 'order.created', other)]);
      expect(await store.outbox.backlog()).to.equal(4);
      const [entry] = (await store.outbox.pending(100)).filter((e) => e.orderId === 'ord_1');
      await store.outbox.relay(entry, []);
      expect(await store.outbox.backlog()).to.equal(1);
    });

    it('finds the orders whose outbox holds events, each with all its events, oldest first, and nothing else', async () => {
      await store.orders.insert(order, [anEvent('evt_1', 'order.created', order)]);
      await store.orders.replace(changed, [anEvent('evt_2', 'order.updated', changed), anEvent('evt_3', 'order.paid', changed)]);
      const quiet = anOrder().inDashboard('dsh_a').with({ id: 'ord_quiet', externalId: 'quiet' }).build();
      await store.orders.insert(quiet, []);
      const entries = await store.outbox.pending(100);
      expect(entries).to.have.length(1);
      expect(entries[0].orderId).to.equal('ord_1');
      expect(entries[0].dashboardId).to.equal('dsh_a');
      expect(entries[0].events).to.deep.equal([
        anEvent('evt_1', 'order.created', order),
        anEvent('evt_2', 'order.updated', changed),
        anEvent('evt_3', 'order.paid', changed),
      ]);
    });

    it('gives at most `limit` orders, and the others after the first are relayed', async () => {
      for (let i = 0; i < 5; i++) {
        const each = anOrder()
          .inDashboard('dsh_a')
          .with({ id: `ord_${i}`, externalId: `o-${i}` })
          .build();
        await store.orders.insert(each, [anEvent(`evt_${i}`, 'order.created', each)]);
      }
      const first = await store.outbox.pending(3);
      expect(first).to.have.length(3);
      for (const entry of first) await store.outbox.relay(entry, []);
      const rest = await store.outbox.pending(3);
      expect(rest).to.have.length(2);
      expect([...first, ...rest].map((entry) => entry.orderId).sort()).to.deep.equal(['ord_0', 'ord_1', 'ord_2', 'ord_3', 'ord_4']);
    });

    it('stores the deliveries and takes the relayed events out of the outbox, keeping those added since', async () => {
      await store.orders.insert(order, [anEvent('evt_1', 'order.created', order)]);
      const [entry] = await store.outbox.pending(100);
      await store.orders.replace(changed, [anEvent('evt_2', 'order.paid', changed)]);
      await store.outbox.relay(entry, [
        aDelivery('dlv_1', { eventId: 'evt_1' }),
        aDelivery('dlv_2', { eventId: 'evt_1', endpointId: 'whk_2' }),
      ]);
      expect(await pendingIds()).to.deep.equal({ ord_1: ['evt_2'] });
      expect((await store.orders.outboxOf('dsh_a', 'o-1')).map((event) => event.id)).to.deep.equal(['evt_2']);
      expect((await store.deliveries.list('dsh_a', 'whk_1', { page: 1, pageSize: 10 })).deliveries.map((d) => d.id)).to.deep.equal([
        'dlv_1',
      ]);
      expect((await store.deliveries.list('dsh_a', 'whk_2', { page: 1, pageSize: 10 })).deliveries.map((d) => d.id)).to.deep.equal([
        'dlv_2',
      ]);
    });

    // What a relay that died half-way, or two relays of one order at once, do: the same relay again,
    // with deliveries of fresh ids. The unique (event, endpoint) keeps one delivery per pair.
    it('relays again without a second delivery of any event to any endpoint', async () => {
      await store.orders.insert(order, [anEvent('evt_1', 'order.created', order)]);
      const [entry] = await store.outbox.pending(100);
      await store.deliveries.insert(aDelivery('dlv_before_crash', { eventId: 'evt_1' }));
      await Promise.all([
        store.outbox.relay(entry, [
          aDelivery('dlv_a', { eventId: 'evt_1' }),
          aDelivery('dlv_b', { eventId: 'evt_1', endpointId: 'whk_2' }),
        ]),
        store.outbox.relay(entry, [
          aDelivery('dlv_c', { eventId: 'evt_1' }),
          aDelivery('dlv_d', { eventId: 'evt_1', endpointId: 'whk_2' }),
        ]),
      ]);
      await store.outbox.relay(entry, [aDelivery('dlv_e', { eventId: 'evt_1' })]);
      expect(await pendingIds()).to.deep.equal({});
      expect((await store.deliveries.list('dsh_a', 'whk_1', { page: 1, pageSize: 10 })).deliveries.map((d) => d.id)).to.deep.equal([
        'dlv_before_crash',
      ]);
      expect((await store.deliveries.list('dsh_a', 'whk_2', { page: 1, pageSize: 10 })).total).to.equal(1);
    });

    // The order of a relay: deliveries first, events out after. The other way round, a relay that
    // fails half-way loses the events.
    it('leaves the events in the outbox when their deliveries cannot be stored', async () => {
      await store.orders.insert(order, [anEvent('evt_1', 'order.created', order)]);
      await store.deliveries.insert(aDelivery('dlv_taken', { eventId: 'evt_other' }));
      const [entry] = await store.outbox.pending(100);
      const failure = await store.outbox.relay(entry, [aDelivery('dlv_taken', { eventId: 'evt_1' })]).catch((err: unknown) => err);
      expect(failure, 'the relay fails').to.be.instanceOf(Error);
      expect(await pendingIds()).to.deep.equal({ ord_1: ['evt_1'] });
      await store.outbox.relay(entry, [aDelivery('dlv_fresh', { eventId: 'evt_1' })]);
      expect(await pendingIds()).to.deep.equal({});
      expect((await store.deliveries.list('dsh_a', 'whk_1', { page: 1, pageSize: 10 })).deliveries.map((d) => d.id)).to.deep.equal([
        'dlv_taken',
        'dlv_fresh',
      ]);
    });

    it('relays an order with no delivery to make: its outbox empties', async () => {
      await store.orders.insert(order, [anEvent('evt_1', 'order.created', order)]);
      const [entry] = await store.outbox.pending(100);
      await store.outbox.relay(entry, []);
      expect(await store.outbox.pending(100)).to.deep.equal([]);
      expect(await store.orders.outboxOf('dsh_a', 'o-1')).to.deep.equal([]);
    });

    describe('relayUnsubscribed', () => {
      const orderIn = (dashboardId: string, n: number): Order =>
        anOrder()
          .inDashboard(dashboardId)
          .with({ id: `ord_${dashboardId}_${n}`, externalId: `o-${n}` })
          .build();
      const feedOf = async (dashboardId: string): Promise<string[]> =>
        // A minute on: MongoDB's feed shows an event once a few seconds have passed (decision 0019).
        (await store.events.list(dashboardId, { limit: 100, now: new Date(Date.now() + 60_000) }))!.events.map((event) => event.id);

      it('moves to the feed, in their order, the events of the dashboards without an endpoint, and no other', async () => {
        await store.webhooks.insert(anEndpoint('whk_a', { dashboardId: 'dsh_a', enabled: false }), 20);
        for (const n of [1, 2]) {
          const placed = orderIn('dsh_none', n);
          const paid = { ...placed, status: 'paid' as const, paidAt: new Date(placed.updatedAt), version: 2 };
          await store.orders.insert(placed, [anEvent(`evt_n${n}_1`, 'order.created', placed)]);
          await store.orders.replace(paid, [anEvent(`evt_n${n}_2`, 'order.updated', paid), anEvent(`evt_n${n}_3`, 'order.paid', paid)]);
          const watched = orderIn('dsh_a', n);
          await store.orders.insert(watched, [anEvent(`evt_a${n}`, 'order.created', watched)]);
        }
        expect(await store.outbox.relayUnsubscribed(100)).to.deep.equal({ relayed: relaysUnsubscribed ? 2 : 0, leftSome: true });
        const left = await pendingIds();
        // An endpoint, even disabled, leaves its dashboard's events to the relay.
        expect(
          Object.keys(left)
            .filter((id) => id.startsWith('ord_dsh_a_'))
            .sort(),
        ).to.deep.equal(['ord_dsh_a_1', 'ord_dsh_a_2']);
        if (relaysUnsubscribed) expect(Object.keys(left).sort()).to.deep.equal(['ord_dsh_a_1', 'ord_dsh_a_2']);
        for (const entry of await store.outbox.pending(100)) await store.outbox.relay(entry, []);
        expect(await store.outbox.backlog()).to.equal(0);
        // Every event once, each order's in their order (the feed orders no more than that).
        const none = await feedOf('dsh_none');
        expect(none.filter((id) => id.startsWith('evt_n1_'))).to.deep.equal(['evt_n1_1', 'evt_n1_2', 'evt_n1_3']);
        expect(none.filter((id) => id.startsWith('evt_n2_'))).to.deep.equal(['evt_n2_1', 'evt_n2_2', 'evt_n2_3']);
        expect(none).to.have.length(6);
        expect((await feedOf('dsh_a')).sort()).to.deep.equal(['evt_a1', 'evt_a2']);
        expect((await store.outbox.relayUnsubscribed(100)).relayed).to.equal(0);
      });

      it('takes at most `limit` orders, the oldest outboxes first', async () => {
        for (const n of [1, 2, 3]) {
          const placed = orderIn('dsh_none', n);
          await store.orders.insert(placed, [anEvent(`evt_${n}`, 'order.created', placed)]);
        }
        expect(await store.outbox.relayUnsubscribed(2)).to.deep.equal({
          relayed: relaysUnsubscribed ? 2 : 0,
          leftSome: !relaysUnsubscribed,
        });
        if (relaysUnsubscribed) expect(Object.keys(await pendingIds())).to.deep.equal(['ord_dsh_none_3']);
        expect(await store.outbox.backlog()).to.equal(relaysUnsubscribed ? 1 : 3);
      });
    });
  });
};
