import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { InMemoryOrderRepository } from '../../src/adapters/memory/in-memory-order-repository';
import { TableTransitionPolicy, type TransitionTable } from '../../src/adapters/transitions/table-transition-policy';
import { ConcurrentUpdateError, UpdateOrder } from '../../src/application/update-order';
import type { Order } from '../../src/domain/order';
import { MutableClock } from '../support/mutable-clock';
import { anOrder } from '../support/order-builder';

/** Another writer always gets there first: every compare-and-set fails. */
class AlwaysOutracedOrderRepository extends InMemoryOrderRepository {
  replaces = 0;

  override async replace(_order: Order): Promise<boolean> {
    this.replaces += 1;
    return false;
  }
}

describe('UpdateOrder', () => {
  let orders: InMemoryOrderRepository;
  let clock: MutableClock;
  const updateOrderWith = (table: TransitionTable): UpdateOrder =>
    new UpdateOrder(orders, new TableTransitionPolicy(table), clock);
  const stored = async (dashboardId: string, externalId: string): Promise<Order> => {
    const found = await orders.findByExternalId(dashboardId, externalId);
    if (O.isNone(found)) throw new Error(`no order ${externalId} in ${dashboardId}`);
    return found.value;
  };

  beforeEach(async () => {
    orders = new InMemoryOrderRepository();
    clock = new MutableClock('2026-03-01T12:00:00.000Z');
    await orders.insert(anOrder().inDashboard('dsh_a').withExternalId('order-1').withStatus('pending').build());
  });

  it('replaces the metadata and stores the next version, stamped with the clock', async () => {
    const result = await updateOrderWith({}).execute('dsh_a', 'order-1', { metadata: { note: 'gift' } });
    expect(E.isRight(result)).to.equal(true);
    const after = await stored('dsh_a', 'order-1');
    expect(result).to.deep.equal(E.right(after));
    expect(after.metadata).to.deep.equal({ note: 'gift' });
    expect(after.version).to.equal(2);
    expect(after.updatedAt).to.deep.equal(new Date('2026-03-01T12:00:00.000Z'));
  });

  it('refuses every change of status with InvalidTransition when no table was given, writing nothing', async () => {
    const result = await updateOrderWith({}).execute('dsh_a', 'order-1', { status: 'paid', metadata: { a: 1 } });
    expect(result).to.deep.equal(E.left({ _tag: 'InvalidTransition', from: 'pending', to: 'paid' }));
    const after = await stored('dsh_a', 'order-1');
    expect(after.status).to.equal('pending');
    expect(after.version).to.equal(1);
    expect(after).not.to.have.property('metadata');
  });

  it('treats setting the current status as a no-op, even with no table, and applies the other fields', async () => {
    const result = await updateOrderWith({}).execute('dsh_a', 'order-1', { status: 'pending', metadata: { a: 1 } });
    expect(E.isRight(result)).to.equal(true);
    const after = await stored('dsh_a', 'order-1');
    expect(after.status).to.equal('pending');
    expect(after.metadata).to.deep.equal({ a: 1 });
  });

  it('applies a change the operator table allows, setting paidAt to the time of the update', async () => {
    clock.set('2026-03-05T08:00:00.000Z');
    const result = await updateOrderWith({ pending: ['paid'] }).execute('dsh_a', 'order-1', { status: 'paid' });
    expect(E.isRight(result)).to.equal(true);
    const after = await stored('dsh_a', 'order-1');
    expect(after.status).to.equal('paid');
    expect(after.paidAt).to.deep.equal(new Date('2026-03-05T08:00:00.000Z'));
  });

  it('answers OrderNotFound for an unknown externalId', async () => {
    const result = await updateOrderWith({}).execute('dsh_a', 'nope', { metadata: {} });
    expect(result).to.deep.equal(E.left({ _tag: 'OrderNotFound', externalId: 'nope' }));
  });

  it("answers OrderNotFound for another dashboard's order and leaves that order untouched", async () => {
    const before = await stored('dsh_a', 'order-1');
    const result = await updateOrderWith({ pending: ['paid'] }).execute('dsh_b', 'order-1', { status: 'paid' });
    expect(result).to.deep.equal(E.left({ _tag: 'OrderNotFound', externalId: 'order-1' }));
    expect(await stored('dsh_a', 'order-1')).to.deep.equal(before);
  });

  describe('under concurrency', () => {
    it('loses no write: 10 parallel updates give 10 successive versions, each built on the one before', async () => {
      const updateOrder = updateOrderWith({});
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => updateOrder.execute('dsh_a', 'order-1', { metadata: { writer: i } })),
      );
      const updated = results.map((result) => {
        if (E.isLeft(result)) throw new Error(`unexpected ${result.left._tag}`);
        return result.right;
      });
      expect(updated.map((order) => order.version).sort((a, b) => a - b)).to.deep.equal([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
      const after = await stored('dsh_a', 'order-1');
      expect(after.version).to.equal(11);
      expect(after).to.deep.equal(updated.find((order) => order.version === 11));
      updated.forEach((order, i) => expect(order.metadata).to.deep.equal({ writer: i }));
    });

    it('decides each change on the status actually stored, not on a stale read', async () => {
      // Test table: pending may become paid or refused, but paid may not become refused, nor the reverse.
      const updateOrder = updateOrderWith({ pending: ['paid', 'refused'] });
      const [toPaid, toRefused] = await Promise.all([
        updateOrder.execute('dsh_a', 'order-1', { status: 'paid' }),
        updateOrder.execute('dsh_a', 'order-1', { status: 'refused' }),
      ]);
      const outcomes = [toPaid!, toRefused!];
      expect(outcomes.filter(E.isRight)).to.have.lengthOf(1);
      const after = await stored('dsh_a', 'order-1');
      expect(after.version).to.equal(2);
      const loser = outcomes.find(E.isLeft);
      expect(loser).to.deep.equal(
        E.left({ _tag: 'InvalidTransition', from: after.status, to: after.status === 'paid' ? 'refused' : 'paid' }),
      );
    });

    it('gives up with ConcurrentUpdateError, after a bounded number of attempts, when every write is outraced', async () => {
      const outraced = new AlwaysOutracedOrderRepository();
      await outraced.insert(anOrder().inDashboard('dsh_a').withExternalId('order-1').build());
      const updateOrder = new UpdateOrder(outraced, new TableTransitionPolicy({}), clock);
      let rejection: unknown;
      try {
        await updateOrder.execute('dsh_a', 'order-1', { metadata: { a: 1 } });
      } catch (error) {
        rejection = error;
      }
      expect(rejection).to.be.instanceOf(ConcurrentUpdateError);
      expect(outraced.replaces).to.be.within(2, 100);
    });
  });
});
