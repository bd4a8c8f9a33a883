import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import { summaryOf, type OrderEvent, type OrderRepository } from '../../src/application/ports/order-repository';
import type { Order } from '../../src/domain/order';
import { anOrder } from '../support/order-builder';
import { aFullOrder, aMinimalOrder, anEvent, scribbleOnEvents } from './order-contract-fixtures';
import type { OrderContract } from './order-repository.contract';

/** The OrderRepository contract, its outbox: the events stored with each write. */
export const orderOutboxContract = ({ orders: current, found, inserted }: OrderContract): void => {
  let orders: OrderRepository;

  beforeEach(() => {
    orders = current();
  });

  describe('outbox', () => {
    const created = (order: Order): OrderEvent[] => [anEvent('evt_c1', 'order.created', order)];
    /** The minimal order, changed to version 2 by `writer`, and the events of that change. */
    const secondVersion = (writer: string): { order: Order; events: OrderEvent[] } => {
      const order: Order = {
        ...aMinimalOrder(),
        status: 'paid',
        paidAt: new Date('2026-02-01T00:00:00.001Z'),
        metadata: { writer },
        version: 2,
        updatedAt: new Date('2026-02-01T00:00:00.002Z'),
      };
      return {
        order,
        events: [anEvent(`evt_${writer}_u`, 'order.updated', order, 'pending'), anEvent(`evt_${writer}_p`, 'order.paid', order, 'pending')],
      };
    };

    it("resolves [] for an order stored without events, an unknown order and another dashboard's order", async () => {
      await inserted(aMinimalOrder());
      expect(await orders.outboxOf('dsh_a', 'min-1')).to.deep.equal([]);
      expect(await orders.outboxOf('dsh_a', 'missing')).to.deep.equal([]);
      const inB: Order = { ...aMinimalOrder(), id: 'ord_b', dashboardId: 'dsh_b' };
      await orders.insert(inB, created(inB));
      expect(await orders.outboxOf('dsh_a', 'min-1')).to.deep.equal([]);
      expect(await orders.outboxOf('dsh_b', 'min-1')).to.deep.equal(created(inB));
      expect(await orders.outboxOf('dsh_c', 'min-1')).to.deep.equal([]);
    });

    it('holds the events given to insert, in their order, exactly: the full order in each, previousStatus only where given', async () => {
      const order = aFullOrder();
      const events = [
        anEvent('evt_1', 'order.created', order),
        anEvent('evt_2', 'order.chargedback', order),
        { ...anEvent('evt_3', 'order.updated', order, 'paid'), occurredAt: new Date('2026-02-03T04:05:06.001Z') },
      ];
      expect(await orders.insert(order, events)).to.deep.equal(E.right(order));
      const outbox = await orders.outboxOf('dsh_a', 'full-1');
      expect(outbox).to.deep.equal(events);
      expect(outbox[0]).not.to.have.property('previousStatus');
      expect(outbox[2].occurredAt.toISOString()).to.equal('2026-02-03T04:05:06.001Z');
    });

    it('gives back a minimal order in an event without inventing optional fields', async () => {
      await orders.insert(aMinimalOrder(), created(aMinimalOrder()));
      const [event] = await orders.outboxOf('dsh_a', 'min-1');
      expect(event.order).to.deep.equal(aMinimalOrder());
      expect(event.order).not.to.have.any.keys('paidAt', 'refundedAt', 'chargedbackAt', 'customer', 'fees', 'metadata', 'trackingExtras');
    });

    it("keeps the outbox out of the order: find gives the order alone, list the order's summary alone", async () => {
      await orders.insert(aFullOrder(), created(aFullOrder()));
      expect(await found('dsh_a', 'full-1')).to.deep.equal(aFullOrder());
      expect(await orders.list('dsh_a', { page: 1, pageSize: 20 })).to.deep.equal({ orders: [summaryOf(aFullOrder())], total: 1 });
    });

    it('appends the events given to replace after those already there, with the new order', async () => {
      await orders.insert(aMinimalOrder(), created(aMinimalOrder()));
      const second = secondVersion('one');
      expect(await orders.replace(second.order, second.events)).to.equal(true);
      const third: Order = { ...second.order, metadata: { writer: 'two' }, version: 3 };
      expect(await orders.replace(third, [anEvent('evt_3', 'order.updated', third)])).to.equal(true);
      expect(await orders.outboxOf('dsh_a', 'min-1')).to.deep.equal([
        ...created(aMinimalOrder()),
        ...second.events,
        anEvent('evt_3', 'order.updated', third),
      ]);
      expect(await found('dsh_a', 'min-1')).to.deep.equal(third);
    });

    it('keeps the outbox as it was when replace is given no events', async () => {
      await orders.insert(aMinimalOrder(), created(aMinimalOrder()));
      expect(await orders.replace({ ...aMinimalOrder(), metadata: { a: 1 }, version: 2 }, [])).to.equal(true);
      expect(await orders.outboxOf('dsh_a', 'min-1')).to.deep.equal(created(aMinimalOrder()));
    });

    it('stores no event when replace loses: a stale version, a version too far, an order gone or of another dashboard', async () => {
      await orders.insert(aMinimalOrder(), created(aMinimalOrder()));
      const { order, events } = secondVersion('late');
      expect(await orders.replace({ ...order, version: 1 }, events)).to.equal(false);
      expect(await orders.replace({ ...order, version: 3 }, events)).to.equal(false);
      expect(await orders.replace({ ...order, dashboardId: 'dsh_b' }, events)).to.equal(false);
      expect(await orders.replace({ ...order, id: 'ord_other', externalId: 'other' }, events)).to.equal(false);
      expect(await orders.outboxOf('dsh_a', 'min-1')).to.deep.equal(created(aMinimalOrder()));
      expect(await orders.outboxOf('dsh_b', 'min-1')).to.deep.equal([]);
      expect(await orders.outboxOf('dsh_a', 'other')).to.deep.equal([]);
    });

    it('stores no event of a replace that another write beat to the version', async () => {
      await orders.insert(aMinimalOrder(), created(aMinimalOrder()));
      const first = secondVersion('first');
      const late = secondVersion('late');
      expect(await orders.replace(first.order, first.events)).to.equal(true);
      expect(await orders.replace(late.order, late.events)).to.equal(false);
      expect(await orders.outboxOf('dsh_a', 'min-1')).to.deep.equal([...created(aMinimalOrder()), ...first.events]);
    });

    it("stores no event of a duplicate insert, and keeps the first order's outbox", async () => {
      const first = anOrder().inDashboard('dsh_a').withExternalId('dup').with({ platform: 'first' }).build();
      const second = anOrder().inDashboard('dsh_a').withExternalId('dup').with({ platform: 'second' }).build();
      await orders.insert(first, [anEvent('evt_first', 'order.created', first)]);
      expect(E.isLeft(await orders.insert(second, [anEvent('evt_second', 'order.created', second)]))).to.equal(true);
      expect(await orders.outboxOf('dsh_a', 'dup')).to.deep.equal([anEvent('evt_first', 'order.created', first)]);
    });

    it("holds exactly the winner's events after 20 parallel inserts of one externalId", async () => {
      const candidates = Array.from({ length: 20 }, (_, i) =>
        anOrder()
          .inDashboard('dsh_a')
          .withExternalId('race')
          .with({ platform: `p${i}` })
          .build(),
      );
      const results = await Promise.all(candidates.map((order, i) => orders.insert(order, [anEvent(`evt_${i}`, 'order.created', order)])));
      const winner = results.findIndex(E.isRight);
      expect(results.filter(E.isRight)).to.have.lengthOf(1);
      expect(await orders.outboxOf('dsh_a', 'race')).to.deep.equal([anEvent(`evt_${winner}`, 'order.created', candidates[winner])]);
    });

    it("holds exactly the winner's events after ten parallel replaces from the same version (atomic conditional update)", async () => {
      await orders.insert(aMinimalOrder(), created(aMinimalOrder()));
      const writers = Array.from({ length: 10 }, (_, i) => secondVersion(`w${i}`));
      const outcomes = await Promise.all(writers.map(({ order, events }) => orders.replace(order, events)));
      expect(outcomes.filter((won) => won)).to.have.lengthOf(1);
      const winner = writers[outcomes.indexOf(true)];
      expect(await orders.outboxOf('dsh_a', 'min-1')).to.deep.equal([...created(aMinimalOrder()), ...winner.events]);
      expect(await found('dsh_a', 'min-1')).to.deep.equal(winner.order);
    });

    it('gives copies: changing the events read changes nothing stored', async () => {
      await orders.insert(aMinimalOrder(), created(aMinimalOrder()));
      scribbleOnEvents(await orders.outboxOf('dsh_a', 'min-1'));
      expect(await orders.outboxOf('dsh_a', 'min-1')).to.deep.equal(created(aMinimalOrder()));
    });

    it('keeps no reference to the events it was given, by insert or by replace', async () => {
      const given = created(aMinimalOrder());
      await orders.insert(aMinimalOrder(), given);
      scribbleOnEvents(given);
      const second = secondVersion('one');
      expect(await orders.replace(second.order, second.events)).to.equal(true);
      scribbleOnEvents(second.events);
      expect(await orders.outboxOf('dsh_a', 'min-1')).to.deep.equal([...created(aMinimalOrder()), ...secondVersion('one').events]);
    });
  });
};
