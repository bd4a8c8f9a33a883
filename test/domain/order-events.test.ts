import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import { TableTransitionPolicy } from '../../src/adapters/transitions/table-transition-policy';
import { changeOrder, createOrder, type Order, type OrderChanges, type OrderWithEvents } from '../../src/domain/order';
import { ORDER_EVENT_TYPES } from '../../src/domain/order-events';
import { ORDER_STATUSES, type OrderStatus } from '../../src/domain/order-status';
import type { TransitionPolicy } from '../../src/domain/transition-policy';
import { aNewOrder, anOrder } from '../support/order-builder';

const now = new Date('2026-03-01T12:00:00.000Z');
const ids = { id: 'ord_abc', dashboardId: 'dsh_a' };
const allowAll: TransitionPolicy = { allows: () => true };
const refuseAll: TransitionPolicy = { allows: () => false };

/** The event of entering each status (decision 0012); none for pending. */
const STATUS_EVENT: Record<OrderStatus, string | undefined> = {
  pending: undefined,
  paid: 'order.paid',
  refused: 'order.refused',
  refunded: 'order.refunded',
  chargedback: 'order.chargedback',
};

const applied = (order: Order, changes: OrderChanges, policy: TransitionPolicy = refuseAll): OrderWithEvents => {
  const result = changeOrder(order, changes, policy, now);
  if (E.isLeft(result)) throw new Error(`expected a Right, got ${JSON.stringify(result.left)}`);
  return result.right;
};

/** An order that has a paidAt and metadata, at version 3, last changed before `now`. */
const aPaidOrder = (): Order =>
  anOrder()
    .paid('2026-01-02T03:10:00.000Z')
    .with({ metadata: { a: 1, nested: { list: [1, { b: 2 }], x: null } }, version: 3, updatedAt: new Date('2026-02-01T00:00:00.000Z') })
    .build();

describe('order events', () => {
  it('are the six order types of decision 0012, in a const list', () => {
    expect(ORDER_EVENT_TYPES).to.deep.equal([
      'order.created',
      'order.updated',
      'order.paid',
      'order.refused',
      'order.refunded',
      'order.chargedback',
    ]);
  });

  describe('of a creation', () => {
    for (const status of ORDER_STATUSES) {
      const expected = ['order.created', ...(STATUS_EVENT[status] === undefined ? [] : [STATUS_EVENT[status]])];

      it(`in status ${status}: ${expected.join(', ')}, each with the time and the new order at version 1`, () => {
        const { order, events } = createOrder(aNewOrder({ status }), ids, now);
        expect(events.map((event) => event.type)).to.deep.equal(expected);
        for (const event of events) {
          expect(event).to.deep.equal({ type: event.type, occurredAt: now, order });
          expect(event).not.to.have.property('previousStatus');
          expect(event.order.version).to.equal(1);
        }
      });
    }

    it('carries the order with the status date the creation gave it', () => {
      const { events } = createOrder(aNewOrder({ status: 'paid' }), ids, now);
      expect(events[1].order.paidAt).to.deep.equal(new Date('2026-01-02T03:04:05.000Z'));
    });
  });

  describe('of a PATCH that changes the status', () => {
    for (const to of ORDER_STATUSES) {
      const from: OrderStatus = to === 'pending' ? 'paid' : 'pending';
      const expected = ['order.updated', ...(STATUS_EVENT[to] === undefined ? [] : [STATUS_EVENT[to]])];

      it(`${from} → ${to}, allowed: ${expected.join(', ')}, each with previousStatus ${from}`, () => {
        const before = anOrder().withStatus(from).with({ version: 4 }).build();
        const { order, events } = applied(before, { status: to }, new TableTransitionPolicy({ [from]: [to] }));
        expect(order.status).to.equal(to);
        expect(events.map((event) => event.type)).to.deep.equal(expected);
        for (const event of events) {
          expect(event).to.deep.equal({ type: event.type, occurredAt: now, order, previousStatus: from });
        }
      });

      it(`${from} → ${to}, refused by the policy: InvalidTransition, no events`, () => {
        const before = anOrder().withStatus(from).build();
        const policy = new TableTransitionPolicy({ [to]: [from] });
        expect(changeOrder(before, { status: to, metadata: { a: 1 } }, policy, now)).to.deep.equal(
          E.left({ _tag: 'InvalidTransition', from, to }),
        );
      });
    }

    it('carries the order with its new version, updatedAt and status date', () => {
      const before = anOrder().withStatus('pending').with({ version: 7 }).build();
      const { order, events } = applied(before, { status: 'paid' }, allowAll);
      expect(order).to.deep.equal({ ...before, status: 'paid', paidAt: now, version: 8, updatedAt: now });
      expect(events.map((event) => event.order)).to.deep.equal([order, order]);
    });
  });

  describe('of a PATCH that keeps the status', () => {
    it('metadata only: order.updated alone, without previousStatus, with the next version', () => {
      const before = aPaidOrder();
      const { order, events } = applied(before, { metadata: { a: 2 } });
      expect(order).to.deep.equal({ ...before, metadata: { a: 2 }, version: 4, updatedAt: now });
      expect(events).to.deep.equal([{ type: 'order.updated', occurredAt: now, order }]);
    });

    it('dates only: order.updated alone, without previousStatus', () => {
      const before = aPaidOrder();
      const refundedAt = new Date('2026-02-10T00:00:00.000Z');
      const { order, events } = applied(before, { refundedAt });
      expect(order).to.deep.equal({ ...before, refundedAt, version: 4, updatedAt: now });
      expect(events).to.deep.equal([{ type: 'order.updated', occurredAt: now, order }]);
    });

    it('a new date for the status it has: order.updated alone, no second order.paid', () => {
      const { events } = applied(aPaidOrder(), { status: 'paid', paidAt: new Date('2026-01-05T00:00:00.000Z') });
      expect(events.map((event) => event.type)).to.deep.equal(['order.updated']);
      expect(events[0]).not.to.have.property('previousStatus');
    });

    it('the current status and other changes: order.updated alone, without previousStatus', () => {
      const { events } = applied(aPaidOrder(), { status: 'paid', metadata: {} });
      expect(events.map((event) => event.type)).to.deep.equal(['order.updated']);
      expect(events[0]).not.to.have.property('previousStatus');
    });

    for (const [name, metadata] of [
      ['an item of a nested array', { a: 1, nested: { list: [1, { b: 3 }], x: null } }],
      ['the order of array items', { a: 1, nested: { list: [{ b: 2 }, 1], x: null } }],
      ['a null that becomes absent', { a: 1, nested: { list: [1, { b: 2 }] } }],
      ['a number that becomes a string', { a: '1', nested: { list: [1, { b: 2 }], x: null } }],
      ['an extra key', { a: 1, nested: { list: [1, { b: 2 }], x: null }, y: false }],
    ] as const) {
      it(`counts metadata that differs by ${name} as a change`, () => {
        expect(applied(aPaidOrder(), { metadata }).events).to.have.lengthOf(1);
      });
    }

    it('counts metadata {} on an order without metadata as a change', () => {
      expect(applied(anOrder().build(), { metadata: {} }).events).to.have.lengthOf(1);
    });
  });

  describe('of a PATCH that changes nothing', () => {
    const noOps: ReadonlyArray<readonly [string, OrderChanges]> = [
      ['the same status', { status: 'paid' }],
      ['the same date, as another Date object', { paidAt: new Date('2026-01-02T03:10:00.000Z') }],
      ['the same metadata, keys in another order', { metadata: { nested: { x: null, list: [1, { b: 2 }] }, a: 1 } }],
      [
        'all of them at once',
        { status: 'paid', paidAt: new Date('2026-01-02T03:10:00.000Z'), metadata: { a: 1, nested: { list: [1, { b: 2 }], x: null } } },
      ],
      ['fields present with an undefined value', { status: undefined, paidAt: undefined, metadata: undefined }],
    ];

    for (const [name, changes] of noOps) {
      it(`${name}: the order as it was (same version, same updatedAt) and no events`, () => {
        const before = aPaidOrder();
        const { order, events } = applied(before, changes, allowAll);
        expect(order).to.deep.equal(before);
        expect(order.version).to.equal(3);
        expect(order.updatedAt).to.deep.equal(new Date('2026-02-01T00:00:00.000Z'));
        expect(events).to.deep.equal([]);
      });
    }

    it('never asks the policy', () => {
      const asked: string[] = [];
      applied(aPaidOrder(), { status: 'paid' }, { allows: (from, to) => (asked.push(`${from}>${to}`), true) });
      expect(asked).to.deep.equal([]);
    });
  });
});
