import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { InMemoryOrderRepository } from '../../../src/adapters/memory/orders/in-memory-order-repository';
import { CreateOrder } from '../../../src/application/orders/create-order';
import { CountingNudge } from '../../support/counting-nudge';
import { MutableClock } from '../../support/mutable-clock';
import { aNewOrder } from '../../support/order-builder';
import { SequenceIds } from '../../support/sequence-ids';

describe('CreateOrder', () => {
  let orders: InMemoryOrderRepository;
  let clock: MutableClock;
  let createOrder: CreateOrder;
  let nudge: CountingNudge;

  beforeEach(() => {
    orders = new InMemoryOrderRepository();
    clock = new MutableClock('2026-03-01T12:00:00.000Z');
    nudge = new CountingNudge();
    createOrder = new CreateOrder(orders, new SequenceIds(), clock, nudge);
  });

  it('nudges the webhook relay once the order and its events are stored, and not for a refused one', async () => {
    await createOrder.execute('dsh_a', aNewOrder({ externalId: 'order-1' }));
    expect(nudge.outboxChanges).to.equal(1);
    await createOrder.execute('dsh_a', aNewOrder({ externalId: 'order-1' }));
    expect(nudge.outboxChanges).to.equal(1);
  });

  it('records the order in the dashboard, with a service-made id, version 1 and the clock as updatedAt', async () => {
    const result = await createOrder.execute('dsh_a', aNewOrder({ externalId: 'order-1' }));
    expect(E.isRight(result)).to.equal(true);
    if (E.isLeft(result)) return;
    expect(result.right.id).to.equal('ord_000001');
    expect(result.right.dashboardId).to.equal('dsh_a');
    expect(result.right.version).to.equal(1);
    expect(result.right.createdAt).to.deep.equal(new Date('2026-01-02T03:04:05.000Z'));
    expect(result.right.updatedAt).to.deep.equal(new Date('2026-03-01T12:00:00.000Z'));
    expect(await orders.findByExternalId('dsh_a', 'order-1')).to.deep.equal(O.some(result.right));
  });

  it('stores the optional amounts as 0 when they were omitted', async () => {
    await createOrder.execute('dsh_a', aNewOrder({ externalId: 'order-1' }));
    const stored = await orders.findByExternalId('dsh_a', 'order-1');
    expect(O.isSome(stored) && stored.value.amounts).to.deep.equal({
      currency: 'BRL',
      grossCents: 10_000,
      netToSellerCents: 9_000,
      discountCents: 0,
      shippingCents: 0,
      taxesCents: 0,
      totalFeesCents: 0,
    });
  });

  it('stores a paid order sent without paidAt with paidAt = createdAt', async () => {
    await createOrder.execute('dsh_a', aNewOrder({ externalId: 'order-1', status: 'paid' }));
    const stored = await orders.findByExternalId('dsh_a', 'order-1');
    expect(O.isSome(stored) && stored.value.paidAt).to.deep.equal(new Date('2026-01-02T03:04:05.000Z'));
  });

  it('refuses an externalId already used in the dashboard with DuplicateExternalId and keeps the first order', async () => {
    const first = await createOrder.execute('dsh_a', aNewOrder({ externalId: 'order-1', platform: 'shopify' }));
    const second = await createOrder.execute('dsh_a', aNewOrder({ externalId: 'order-1', platform: 'woocommerce' }));
    expect(second).to.deep.equal(E.left({ _tag: 'DuplicateExternalId', externalId: 'order-1' }));
    expect(E.isRight(first)).to.equal(true);
    if (E.isLeft(first)) return;
    expect(await orders.findByExternalId('dsh_a', 'order-1')).to.deep.equal(O.some(first.right));
    expect(first.right.platform).to.equal('shopify');
  });

  it('accepts the same externalId in two dashboards, as two different orders', async () => {
    const inA = await createOrder.execute('dsh_a', aNewOrder({ externalId: 'order-1' }));
    const inB = await createOrder.execute('dsh_b', aNewOrder({ externalId: 'order-1' }));
    expect(E.isRight(inA) && E.isRight(inB)).to.equal(true);
    if (E.isLeft(inA) || E.isLeft(inB)) return;
    expect(inA.right.id).not.to.equal(inB.right.id);
    expect(inA.right.dashboardId).to.equal('dsh_a');
    expect(inB.right.dashboardId).to.equal('dsh_b');
  });

  describe('under a race', () => {
    it('lets exactly one of 20 parallel creations of one externalId win; the 19 others get DuplicateExternalId', async () => {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => createOrder.execute('dsh_a', aNewOrder({ externalId: 'same', platform: `p${i}` }))),
      );
      const winners = results.filter(E.isRight);
      const losers = results.filter(E.isLeft);
      expect(winners).to.have.lengthOf(1);
      expect(losers).to.have.lengthOf(19);
      for (const loser of losers) expect(loser.left).to.deep.equal({ _tag: 'DuplicateExternalId', externalId: 'same' });
      const stored = await orders.findByExternalId('dsh_a', 'same');
      expect(stored).to.deep.equal(O.some(winners[0].right));
      const page = await orders.list('dsh_a', { page: 1, pageSize: 100 });
      expect(page.total).to.equal(1);
    });

    it('lets parallel creations of one externalId in two dashboards both succeed', async () => {
      const [inA, inB] = await Promise.all([
        createOrder.execute('dsh_a', aNewOrder({ externalId: 'same' })),
        createOrder.execute('dsh_b', aNewOrder({ externalId: 'same' })),
      ]);
      expect(E.isRight(inA)).to.equal(true);
      expect(E.isRight(inB)).to.equal(true);
    });
  });

  describe('events', () => {
    const now = new Date('2026-03-01T12:00:00.000Z');

    it('stores order.created, with an evt_ id, the time and the new order, in the outbox of the insert', async () => {
      const result = await createOrder.execute('dsh_a', aNewOrder({ externalId: 'order-1' }));
      const order = E.isRight(result) ? result.right : undefined;
      expect(await orders.findByExternalId('dsh_a', 'order-1')).to.deep.equal(O.some(order));
      expect(await orders.outboxOf('dsh_a', 'order-1')).to.deep.equal([
        { id: 'evt_000001', type: 'order.created', occurredAt: now, order },
      ]);
    });

    it('stores order.created then order.paid for an order created paid', async () => {
      await createOrder.execute('dsh_a', aNewOrder({ externalId: 'order-1', status: 'paid' }));
      const stored = await orders.findByExternalId('dsh_a', 'order-1');
      const order = O.isSome(stored) ? stored.value : undefined;
      expect(await orders.outboxOf('dsh_a', 'order-1')).to.deep.equal([
        { id: 'evt_000001', type: 'order.created', occurredAt: now, order },
        { id: 'evt_000002', type: 'order.paid', occurredAt: now, order },
      ]);
    });

    it('stores no event for a duplicate externalId', async () => {
      await createOrder.execute('dsh_a', aNewOrder({ externalId: 'order-1' }));
      const before = await orders.outboxOf('dsh_a', 'order-1');
      clock.advance(1_000);
      const second = await createOrder.execute('dsh_a', aNewOrder({ externalId: 'order-1', status: 'refused' }));
      expect(E.isLeft(second)).to.equal(true);
      expect(await orders.outboxOf('dsh_a', 'order-1')).to.deep.equal(before);
      expect(before).to.have.lengthOf(1);
    });

    it('stores the events once when a retry with the reserved id finds its own earlier order', async () => {
      const first = await createOrder.execute('dsh_a', aNewOrder({ externalId: 'order-1', status: 'paid' }), 'ord_reserved');
      clock.advance(1_000);
      const retry = await createOrder.execute('dsh_a', aNewOrder({ externalId: 'order-1', status: 'paid' }), 'ord_reserved');
      expect(retry).to.deep.equal(first);
      const outbox = await orders.outboxOf('dsh_a', 'order-1');
      expect(outbox.map((event) => [event.type, event.order.id, event.occurredAt])).to.deep.equal([
        ['order.created', 'ord_reserved', now],
        ['order.paid', 'ord_reserved', now],
      ]);
    });

    it("stores exactly the winner's order.created when 20 creations of one externalId race", async () => {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => createOrder.execute('dsh_a', aNewOrder({ externalId: 'same', platform: `p${i}` }))),
      );
      const winner = results.find(E.isRight)!.right;
      const outbox = await orders.outboxOf('dsh_a', 'same');
      expect(outbox.map((event) => [event.type, event.order])).to.deep.equal([['order.created', winner]]);
      expect(outbox[0].id).to.match(/^evt_\d{6}$/);
    });
  });
});
