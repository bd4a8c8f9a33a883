import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { InMemoryOrderRepository } from '../../src/adapters/memory/in-memory-order-repository';
import { CreateOrder } from '../../src/application/create-order';
import { MutableClock } from '../support/mutable-clock';
import { aNewOrder } from '../support/order-builder';
import { SequenceIds } from '../support/sequence-ids';

describe('CreateOrder', () => {
  let orders: InMemoryOrderRepository;
  let clock: MutableClock;
  let createOrder: CreateOrder;

  beforeEach(() => {
    orders = new InMemoryOrderRepository();
    clock = new MutableClock('2026-03-01T12:00:00.000Z');
    createOrder = new CreateOrder(orders, new SequenceIds(), clock);
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
      expect(stored).to.deep.equal(O.some(winners[0]!.right));
      const page = await orders.list('dsh_a', { page: 1, pageSize: 100 });
      expect(page.total).to.equal(1);
    });

    it('lets parallel creations of one externalId in two dashboards both succeed', async () => {
      const [inA, inB] = await Promise.all([
        createOrder.execute('dsh_a', aNewOrder({ externalId: 'same' })),
        createOrder.execute('dsh_b', aNewOrder({ externalId: 'same' })),
      ]);
      expect(E.isRight(inA!)).to.equal(true);
      expect(E.isRight(inB!)).to.equal(true);
    });
  });
});
