import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import { TableTransitionPolicy } from '../../src/adapters/transitions/table-transition-policy';
import { changeOrder, type Order } from '../../src/domain/order';
import type { OrderStatus } from '../../src/domain/order-status';
import type { TransitionPolicy } from '../../src/domain/transition-policy';
import { anOrder } from '../support/order-builder';

const now = new Date('2026-03-01T12:00:00.000Z');

/** A policy that answers from a test-local table and remembers every question it was asked. */
const recordingPolicy = (allowed: Array<`${OrderStatus}>${OrderStatus}`> = []) => {
  const asked: string[] = [];
  const policy: TransitionPolicy = {
    allows(from, to) {
      asked.push(`${from}>${to}`);
      return allowed.includes(`${from}>${to}`);
    },
  };
  return { policy, asked };
};

const refuseAll = new TableTransitionPolicy({});

/** The order a change that was not refused gives. */
const rightOf = (result: ReturnType<typeof changeOrder>): Order => {
  if (E.isLeft(result)) throw new Error(`expected a Right, got ${JSON.stringify(result.left)}`);
  return result.right.order;
};

describe('changeOrder', () => {
  describe('setting the status the order already has', () => {
    it('is a no-op for the status and never asks the policy', () => {
      const { policy, asked } = recordingPolicy();
      const order = anOrder().withStatus('pending').build();
      const changed = rightOf(changeOrder(order, { status: 'pending' }, policy, now));
      expect(changed.status).to.equal('pending');
      expect(asked).to.deep.equal([]);
    });

    it('still applies the other changes when the policy refuses everything', () => {
      const order = anOrder().paid('2026-01-02T03:10:00.000Z').build();
      const changed = rightOf(changeOrder(order, { status: 'paid', metadata: { note: 'x' } }, refuseAll, now));
      expect(changed.status).to.equal('paid');
      expect(changed.metadata).to.deep.equal({ note: 'x' });
      expect(changed.paidAt).to.deep.equal(new Date('2026-01-02T03:10:00.000Z'));
    });
  });

  describe('a change of status', () => {
    it('asks the policy about exactly that change', () => {
      const { policy, asked } = recordingPolicy(['pending>paid']);
      changeOrder(anOrder().withStatus('pending').build(), { status: 'paid' }, policy, now);
      expect(asked).to.deep.equal(['pending>paid']);
    });

    it('is refused with InvalidTransition from/to when the policy refuses it', () => {
      const order = anOrder().withStatus('pending').build();
      expect(changeOrder(order, { status: 'paid', metadata: { a: 1 } }, refuseAll, now)).to.deep.equal(
        E.left({ _tag: 'InvalidTransition', from: 'pending', to: 'paid' }),
      );
    });

    it('is refused when the table allows only the opposite direction', () => {
      const policy = new TableTransitionPolicy({ paid: ['pending'] });
      expect(changeOrder(anOrder().withStatus('pending').build(), { status: 'paid' }, policy, now)).to.deep.equal(
        E.left({ _tag: 'InvalidTransition', from: 'pending', to: 'paid' }),
      );
    });

    it('is applied when the table given by the operator allows it', () => {
      const policy = new TableTransitionPolicy({ pending: ['refused'] });
      const changed = rightOf(changeOrder(anOrder().withStatus('pending').build(), { status: 'refused' }, policy, now));
      expect(changed.status).to.equal('refused');
    });
  });

  describe('status dates', () => {
    const policy = new TableTransitionPolicy({
      pending: ['paid'],
      paid: ['refunded', 'chargedback'],
      refunded: ['paid'],
    });

    it('sets paidAt to the time of the update when the order becomes paid without a paidAt', () => {
      const order = anOrder().withStatus('pending').build();
      const changed = rightOf(changeOrder(order, { status: 'paid' }, policy, now));
      expect(changed.paidAt).to.deep.equal(now);
      expect(changed.paidAt).not.to.deep.equal(order.createdAt);
    });

    it('uses the paidAt sent with the change', () => {
      const paidAt = new Date('2026-02-01T00:00:00.000Z');
      const order = anOrder().withStatus('pending').build();
      const changed = rightOf(changeOrder(order, { status: 'paid', paidAt }, policy, now));
      expect(changed.paidAt).to.deep.equal(paidAt);
    });

    it('keeps the paidAt an order already has when it becomes paid again', () => {
      const earlier = new Date('2026-01-10T00:00:00.000Z');
      const refundedAt = new Date('2026-01-11T00:00:00.000Z');
      const order = anOrder().with({ status: 'refunded', paidAt: earlier, refundedAt }).build();
      const changed = rightOf(changeOrder(order, { status: 'paid' }, policy, now));
      expect(changed.paidAt).to.deep.equal(earlier);
    });

    it('sets refundedAt, and keeps paidAt, when a paid order is refunded', () => {
      const order = anOrder().paid('2026-01-02T03:10:00.000Z').build();
      const changed = rightOf(changeOrder(order, { status: 'refunded' }, policy, now));
      expect(changed.refundedAt).to.deep.equal(now);
      expect(changed.paidAt).to.deep.equal(new Date('2026-01-02T03:10:00.000Z'));
    });

    it('sets chargedbackAt when a paid order is charged back', () => {
      const changed = rightOf(changeOrder(anOrder().paid().build(), { status: 'chargedback' }, policy, now));
      expect(changed.chargedbackAt).to.deep.equal(now);
    });

    it('accepts a date on its own, without a status', () => {
      const refundedAt = new Date('2026-02-02T00:00:00.000Z');
      const changed = rightOf(changeOrder(anOrder().paid().build(), { refundedAt }, refuseAll, now));
      expect(changed.refundedAt).to.deep.equal(refundedAt);
      expect(changed.status).to.equal('paid');
    });
  });

  describe('metadata', () => {
    it('is replaced as a whole, not merged', () => {
      const order = anOrder()
        .with({ metadata: { a: 1, b: { c: 2 } } })
        .build();
      const changed = rightOf(changeOrder(order, { metadata: { d: 3 } }, refuseAll, now));
      expect(changed.metadata).to.deep.equal({ d: 3 });
    });

    it('is kept when the change does not mention it', () => {
      const order = anOrder()
        .with({ metadata: { a: 1 } })
        .paid()
        .build();
      const changed = rightOf(changeOrder(order, { paidAt: now }, refuseAll, now));
      expect(changed.metadata).to.deep.equal({ a: 1 });
    });
  });

  it('ignores changes present with an undefined value instead of erasing fields', () => {
    const order = anOrder()
      .with({ metadata: { a: 1 } })
      .paid('2026-01-02T03:10:00.000Z')
      .build();
    const changed = rightOf(changeOrder(order, { status: undefined, paidAt: undefined, metadata: undefined }, refuseAll, now));
    expect(changed.status).to.equal('paid');
    expect(changed.paidAt).to.deep.equal(new Date('2026-01-02T03:10:00.000Z'));
    expect(changed.metadata).to.deep.equal({ a: 1 });
  });

  it('gives the changed order the next version and the time of the update, and touches nothing else', () => {
    const order: Order = anOrder().with({ version: 4 }).build();
    const changed = rightOf(changeOrder(order, { metadata: { k: 'v' } }, refuseAll, now));
    expect(changed).to.deep.equal({ ...order, metadata: { k: 'v' }, version: 5, updatedAt: now });
  });

  it('leaves the order it was given unchanged', () => {
    const order = anOrder().withStatus('pending').build();
    const before = structuredClone(order);
    changeOrder(order, { status: 'paid', metadata: { x: 1 } }, new TableTransitionPolicy({ pending: ['paid'] }), now);
    expect(order).to.deep.equal(before);
  });
});
