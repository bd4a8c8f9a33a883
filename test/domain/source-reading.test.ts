import { expect } from 'chai';
import { createOrder, type Order } from '../../src/domain/order';
import { decideDelivery, type OrderReading } from '../../src/domain/source-reading';
import type { OrderStatus } from '../../src/domain/order-status';
import { aNewOrder } from '../support/order-builder';

const at = (iso: string): Date => new Date(iso);

const stored = (status: OrderStatus, dates: Partial<Pick<Order, 'paidAt' | 'refundedAt' | 'chargedbackAt'>> = {}): Order =>
  createOrder(aNewOrder({ status, ...dates, externalId: 'stripe:pi_1' }), { id: 'ord_1', dashboardId: 'dsh_a' }, at('2026-01-01T00:00:00Z'))
    .order;

const reading = (status: OrderStatus, when: string, extra: Partial<OrderReading> = {}): OrderReading => ({
  kind: 'order',
  externalId: 'stripe:pi_1',
  at: at(when),
  status,
  ...extra,
});

describe('what a delivery does to its order (decision 0021)', () => {
  it('creates an order that does not exist when the delivery carries it, and refuses one that cannot', () => {
    const order = aNewOrder({ status: 'paid' });
    expect(decideDelivery(reading('paid', '2026-01-02T00:00:00Z', { order }), undefined)).to.deep.equal({ action: 'create', order });
    expect(decideDelivery(reading('paid', '2026-01-02T00:00:00Z', { cannotCreate: 'no amount' }), undefined)).to.deep.equal({
      action: 'refuse',
      reason: 'no amount',
    });
  });

  it('moves an order to a later stage, with the platform time as the status date', () => {
    expect(decideDelivery(reading('paid', '2026-01-02T00:00:00Z'), stored('pending'))).to.deep.equal({
      action: 'update',
      changes: { status: 'paid', paidAt: at('2026-01-02T00:00:00Z') },
      reason: 'pending → paid',
    });
    expect(decideDelivery(reading('paid', '2026-01-02T00:00:00Z'), stored('refused'))).to.have.property('action', 'update');
  });

  it('never moves an order back to an earlier stage', () => {
    for (const [from, to] of [
      ['paid', 'pending'],
      ['paid', 'refused'],
      ['refunded', 'paid'],
      ['chargedback', 'pending'],
    ] as const) {
      const decision = decideDelivery(reading(to, '2030-01-01T00:00:00Z'), stored(from));
      expect(decision, `${from} ← ${to}`).to.deep.equal({
        action: 'ignore',
        reason: `older than the order: it is already ${from}, this event says ${to}`,
      });
    }
  });

  it('between a refund and a chargeback, lets the later platform time win', () => {
    const refunded = stored('refunded', { refundedAt: at('2026-01-05T00:00:00Z') });
    expect(decideDelivery(reading('chargedback', '2026-01-04T00:00:00Z'), refunded)).to.have.property('action', 'ignore');
    expect(decideDelivery(reading('chargedback', '2026-01-06T00:00:00Z'), refunded)).to.have.property('action', 'update');
  });

  it('judges a refund against the order: whole refunds it, partial leaves it', () => {
    const paid = stored('paid');
    expect(decideDelivery(reading('refunded', '2026-01-03T00:00:00Z', { refundedCents: paid.amounts.grossCents }), paid)).to.have.property(
      'action',
      'update',
    );
    const partial = decideDelivery(reading('refunded', '2026-01-03T00:00:00Z', { refundedCents: 100 }), paid);
    expect(partial).to.deep.equal({
      action: 'ignore',
      reason: `a partial refund (1.00 BRL of ${(paid.amounts.grossCents / 100).toFixed(2)} BRL): the order stays paid`,
    });
  });

  it('says nothing new for the status the order has', () => {
    expect(decideDelivery(reading('paid', '2026-01-03T00:00:00Z'), stored('paid'))).to.deep.equal({
      action: 'ignore',
      reason: 'nothing new: the order is already paid',
    });
  });
});
