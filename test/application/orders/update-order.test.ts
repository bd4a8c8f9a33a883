import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { InMemoryOrderRepository } from '../../../src/adapters/memory/orders/in-memory-order-repository';
import { TableTransitionPolicy, type TransitionTable } from '../../../src/adapters/transitions/table-transition-policy';
import type { OrderEvent } from '../../../src/application/ports/order-repository';
import { UpdateOrder } from '../../../src/application/orders/update-order';
import { ConcurrentUpdateError } from '../../../src/application/shared/retry-on-conflict';
import type { Order } from '../../../src/domain/order';
import { CountingNudge } from '../../support/counting-nudge';
import { MutableClock } from '../../support/mutable-clock';
import { anOrder } from '../../support/order-builder';
import { SequenceIds } from '../../support/sequence-ids';

/** Another writer always gets there first: every compare-and-set fails. */
class AlwaysOutracedOrderRepository extends InMemoryOrderRepository {
  replaces = 0;

  override async replace(_order: Order): Promise<boolean> {
    this.replaces += 1;
    return false;
  }
}

/**
 * The worst luck a writer can have: before each of its first `others` replaces, another writer
 * changes the order, so the replace finds a newer version and loses.
 */
class InterlopedOrderRepository extends InMemoryOrderRepository {
  constructor(private others: number) {
    super();
  }

  override async replace(order: Order, events: readonly OrderEvent[]): Promise<boolean> {
    if (this.others > 0) {
      this.others -= 1;
      const current = await this.findByExternalId(order.dashboardId, order.externalId);
      if (O.isNone(current)) throw new Error('order not found');
      await super.replace({ ...current.value, metadata: { other: this.others }, version: current.value.version + 1 }, []);
    }
    return super.replace(order, events);
  }
}

/** The embedded store, counting the writes that reach it. */
class CountingOrderRepository extends InMemoryOrderRepository {
  replaces = 0;

  override async replace(order: Order, events: readonly OrderEvent[]): Promise<boolean> {
    this.replaces += 1;
    return super.replace(order, events);
  }
}

describe('UpdateOrder', () => {
  let orders: CountingOrderRepository;
  let clock: MutableClock;
  let ids: SequenceIds;
  let nudge: CountingNudge;
  const updateOrderWith = (table: TransitionTable): UpdateOrder =>
    new UpdateOrder(orders, new TableTransitionPolicy(table), clock, ids, nudge);
  const stored = async (dashboardId: string, externalId: string): Promise<Order> => {
    const found = await orders.findByExternalId(dashboardId, externalId);
    if (O.isNone(found)) throw new Error(`no order ${externalId} in ${dashboardId}`);
    return found.value;
  };

  beforeEach(async () => {
    orders = new CountingOrderRepository();
    clock = new MutableClock('2026-03-01T12:00:00.000Z');
    ids = new SequenceIds();
    nudge = new CountingNudge();
    await orders.insert(anOrder().inDashboard('dsh_a').withExternalId('order-1').withStatus('pending').build(), []);
  });

  it('replaces the metadata and stores the next version, stamped with the clock', async () => {
    const result = await updateOrderWith({}).execute('dsh_a', 'order-1', { metadata: { note: 'gift' } });
    expect(E.isRight(result)).to.equal(true);
    const after = await stored('dsh_a', 'order-1');
    expect(result).to.deep.equal(E.right(after));
    expect(after.metadata).to.deep.equal({ note: 'gift' });
    expect(after.version).to.equal(2);
    expect(after.updatedAt).to.deep.equal(new Date('2026-03-01T12:00:00.000Z'));
    expect(nudge.outboxChanges, 'the webhook relay nudged').to.equal(1);
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
      const outcomes = [toPaid, toRefused];
      expect(outcomes.filter(E.isRight)).to.have.lengthOf(1);
      const after = await stored('dsh_a', 'order-1');
      expect(after.version).to.equal(2);
      const loser = outcomes.find(E.isLeft);
      expect(loser).to.deep.equal(
        E.left({ _tag: 'InvalidTransition', from: after.status, to: after.status === 'paid' ? 'refused' : 'paid' }),
      );
    });

    it('does not give up on a request that loses to each of 49 other writers: 50 concurrent writes of one order all succeed', async function () {
      this.timeout(30_000);
      const interloped = new InterlopedOrderRepository(49);
      await interloped.insert(anOrder().inDashboard('dsh_a').withExternalId('order-1').build(), []);
      const result = await new UpdateOrder(interloped, new TableTransitionPolicy({}), clock, ids, nudge).execute('dsh_a', 'order-1', {
        metadata: { writer: 'last' },
      });
      expect(E.isRight(result)).to.equal(true);
      const found = await interloped.findByExternalId('dsh_a', 'order-1');
      expect(O.isSome(found) && found.value).to.deep.include({ version: 51, metadata: { writer: 'last' } });
    });

    it('gives up with ConcurrentUpdateError, after a bounded number of attempts, when every write is outraced', async () => {
      const outraced = new AlwaysOutracedOrderRepository();
      await outraced.insert(anOrder().inDashboard('dsh_a').withExternalId('order-1').build(), []);
      const updateOrder = new UpdateOrder(outraced, new TableTransitionPolicy({}), clock, ids, nudge);
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

  describe('events', () => {
    it('stores order.updated, with an evt_ id, the time and the order as written, in the outbox of the write', async () => {
      clock.set('2026-03-02T08:00:00.000Z');
      const result = await updateOrderWith({}).execute('dsh_a', 'order-1', { metadata: { note: 'gift' } });
      const after = await stored('dsh_a', 'order-1');
      expect(result).to.deep.equal(E.right(after));
      expect(await orders.outboxOf('dsh_a', 'order-1')).to.deep.equal([
        { id: 'evt_000001', type: 'order.updated', occurredAt: new Date('2026-03-02T08:00:00.000Z'), order: after },
      ]);
      expect(after.version).to.equal(2);
    });

    it('stores order.updated then order.paid, both with previousStatus, for a change of status', async () => {
      await updateOrderWith({ pending: ['paid'] }).execute('dsh_a', 'order-1', { status: 'paid' });
      const after = await stored('dsh_a', 'order-1');
      const occurredAt = new Date('2026-03-01T12:00:00.000Z');
      expect(await orders.outboxOf('dsh_a', 'order-1')).to.deep.equal([
        { id: 'evt_000001', type: 'order.updated', occurredAt, order: after, previousStatus: 'pending' },
        { id: 'evt_000002', type: 'order.paid', occurredAt, order: after, previousStatus: 'pending' },
      ]);
    });

    it('appends the events of each successful change, in order, with increasing versions', async () => {
      const updateOrder = updateOrderWith({ pending: ['paid'], paid: ['refunded'] });
      await updateOrder.execute('dsh_a', 'order-1', { metadata: { step: 1 } });
      await updateOrder.execute('dsh_a', 'order-1', { status: 'paid' });
      await updateOrder.execute('dsh_a', 'order-1', { status: 'refunded' });
      const outbox = await orders.outboxOf('dsh_a', 'order-1');
      expect(outbox.map((event) => [event.type, event.order.version, event.previousStatus])).to.deep.equal([
        ['order.updated', 2, undefined],
        ['order.updated', 3, 'pending'],
        ['order.paid', 3, 'pending'],
        ['order.updated', 4, 'paid'],
        ['order.refunded', 4, 'paid'],
      ]);
      expect(outbox.map((event) => event.id)).to.deep.equal(['evt_000001', 'evt_000002', 'evt_000003', 'evt_000004', 'evt_000005']);
    });

    it('stores nothing when the transition is refused', async () => {
      const result = await updateOrderWith({}).execute('dsh_a', 'order-1', { status: 'paid', metadata: { a: 1 } });
      expect(E.isLeft(result)).to.equal(true);
      expect(await orders.outboxOf('dsh_a', 'order-1')).to.deep.equal([]);
      expect(orders.replaces).to.equal(0);
    });

    it('writes nothing and stores no event for a PATCH that changes nothing: same version, same updatedAt', async () => {
      const before = await stored('dsh_a', 'order-1');
      clock.set('2026-03-09T00:00:00.000Z');
      const result = await updateOrderWith({}).execute('dsh_a', 'order-1', { status: 'pending' });
      expect(result).to.deep.equal(E.right(before));
      expect(await stored('dsh_a', 'order-1')).to.deep.equal(before);
      expect(await orders.outboxOf('dsh_a', 'order-1')).to.deep.equal([]);
      expect(orders.replaces).to.equal(0);
      expect(nudge.outboxChanges, 'nothing to relay, no nudge').to.equal(0);
    });

    it('under 10 parallel changes, stores exactly one order.updated per write, each about the version it wrote', async () => {
      const updateOrder = updateOrderWith({});
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => updateOrder.execute('dsh_a', 'order-1', { metadata: { writer: i } })),
      );
      const outbox = await orders.outboxOf('dsh_a', 'order-1');
      expect(outbox.map((event) => event.type)).to.deep.equal(Array(10).fill('order.updated'));
      expect(outbox.map((event) => event.order.version)).to.deep.equal([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
      expect(new Set(outbox.map((event) => event.id)).size).to.equal(10);
      for (const event of outbox) expect(event.id).to.match(/^evt_\d{6}$/);
      // Each event carries the order its write stored, as the use case answered it.
      const answered = results.map((result) => (E.isRight(result) ? result.right : undefined));
      for (const event of outbox) expect(answered).to.deep.include(event.order);
      expect(outbox[9].order).to.deep.equal(await stored('dsh_a', 'order-1'));
    });

    it('under a race of status changes, stores the events of the winner only, on the version it replaced', async () => {
      const updateOrder = updateOrderWith({ pending: ['paid', 'refused'] });
      await Promise.all([
        updateOrder.execute('dsh_a', 'order-1', { status: 'paid' }),
        updateOrder.execute('dsh_a', 'order-1', { status: 'refused' }),
      ]);
      const after = await stored('dsh_a', 'order-1');
      const outbox = await orders.outboxOf('dsh_a', 'order-1');
      expect(outbox.map((event) => [event.type, event.previousStatus, event.order])).to.deep.equal([
        ['order.updated', 'pending', after],
        [`order.${after.status}`, 'pending', after],
      ]);
    });
  });
});
