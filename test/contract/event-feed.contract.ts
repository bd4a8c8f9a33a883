import { expect } from 'chai';
import type { Storage } from '../../src/application/ports/storage';
import type { OrderEvent } from '../../src/application/ports/order-repository';
import type { Order } from '../../src/domain/order';
import type { OrderEventType } from '../../src/domain/order-events';
import { anOrder } from '../support/order-builder';

const anEvent = (id: string, type: OrderEventType, order: Order): OrderEvent => ({
  id,
  type,
  occurredAt: new Date(order.updatedAt),
  order,
});

/**
 * The events feed of every store (decision 0019), filled by the outbox's relay: each event once, in the
 * order relayed, each order's in version order, `after` and `type` and `hasMore`, another dashboard's
 * events never. `later` is a `now` past any settling delay of the store.
 */
export const eventFeedContract = (adapterName: string, factory: () => Promise<Storage>): void => {
  describe(`EventFeed contract: ${adapterName}`, () => {
    let storage: Storage;
    const later = (): Date => new Date(Date.now() + 60_000);
    const relayAll = async (): Promise<void> => {
      for (const entry of await storage.outbox.pending(100)) await storage.outbox.relay(entry, []);
    };
    const ids = async (dashboardId: string, query: { after?: string; type?: OrderEventType; limit?: number } = {}) => {
      const page = await storage.events.list(dashboardId, { limit: 100, ...query, now: later() });
      return page === undefined ? undefined : { ids: page.events.map((e) => e.id), hasMore: page.hasMore };
    };

    beforeEach(async () => {
      storage = await factory();
    });

    it('lists the relayed events once each, oldest first, each order in version order, with after, type and hasMore', async () => {
      const a = anOrder().inDashboard('dsh_f').with({ id: 'ord_fa', externalId: 'fa' }).build();
      const b = anOrder().inDashboard('dsh_f').with({ id: 'ord_fb', externalId: 'fb' }).build();
      await storage.orders.insert(a, [anEvent('evt_a1', 'order.created', a)]);
      await storage.orders.insert(b, [anEvent('evt_b1', 'order.created', b)]);
      await relayAll();
      const paid = { ...a, status: 'paid' as const, paidAt: new Date('2026-01-03T00:00:00.000Z'), version: 2 };
      expect(
        await storage.orders.replace(paid, [anEvent('evt_a2', 'order.updated', paid), anEvent('evt_a3', 'order.paid', paid)]),
      ).to.equal(true);
      await relayAll();
      await relayAll();
      const all = (await ids('dsh_f'))!;
      expect(all.ids).to.have.members(['evt_a1', 'evt_b1', 'evt_a2', 'evt_a3']);
      expect(all.ids).to.have.length(4);
      expect(all.ids.indexOf('evt_a1')).to.be.below(all.ids.indexOf('evt_a2'));
      expect(all.ids.slice(-2)).to.deep.equal(['evt_a2', 'evt_a3']);
      expect(await ids('dsh_f', { after: all.ids[1] })).to.deep.equal({ ids: all.ids.slice(2), hasMore: false });
      expect(await ids('dsh_f', { limit: 3 })).to.deep.equal({ ids: all.ids.slice(0, 3), hasMore: true });
      expect((await ids('dsh_f', { type: 'order.paid' }))!.ids).to.deep.equal(['evt_a3']);
      const page = await storage.events.list('dsh_f', { limit: 1, after: 'evt_a2', now: later() });
      expect(page?.events[0]).to.deep.include({ id: 'evt_a3', type: 'order.paid' });
      expect(page?.events[0]?.order).to.deep.include({ id: 'ord_fa', status: 'paid', version: 2 });
    });

    it("refuses as `after` an unknown event and another dashboard's, and lists none of another dashboard's", async () => {
      const a = anOrder().inDashboard('dsh_f').with({ id: 'ord_fa', externalId: 'fa' }).build();
      const other = anOrder().inDashboard('dsh_g').with({ id: 'ord_g', externalId: 'g' }).build();
      await storage.orders.insert(a, [anEvent('evt_a1', 'order.created', a)]);
      await storage.orders.insert(other, [anEvent('evt_g1', 'order.created', other)]);
      await relayAll();
      expect(await ids('dsh_f', { after: 'evt_unknown' })).to.equal(undefined);
      expect(await ids('dsh_f', { after: 'evt_g1' })).to.equal(undefined);
      expect(await ids('dsh_f')).to.deep.equal({ ids: ['evt_a1'], hasMore: false });
      expect(await ids('dsh_none')).to.deep.equal({ ids: [], hasMore: false });
    });
  });
};
