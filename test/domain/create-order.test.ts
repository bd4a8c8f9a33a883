import { expect } from 'chai';
import { createOrder } from '../../src/domain/order';
import { aNewOrder } from '../support/order-builder';

const ids = { id: 'ord_abc', dashboardId: 'dsh_a' };
const createdAt = new Date('2026-01-02T03:04:05.000Z');
const now = new Date('2026-03-01T12:00:00.000Z');

describe('createOrder', () => {
  it('takes the id and dashboard it is given and everything else from the input', () => {
    const input = aNewOrder({ isTest: true, metadata: { channel: 'app' } });
    const order = createOrder(input, ids, now).order;
    expect(order).to.deep.equal({
      id: 'ord_abc',
      dashboardId: 'dsh_a',
      externalId: input.externalId,
      platform: input.platform,
      paymentMethod: input.paymentMethod,
      status: 'pending',
      isTest: true,
      createdAt,
      amounts: {
        currency: 'BRL',
        grossCents: 10_000,
        netToSellerCents: 9_000,
        discountCents: 0,
        shippingCents: 0,
        taxesCents: 0,
        totalFeesCents: 0,
      },
      products: input.products,
      tracking: input.tracking,
      metadata: { channel: 'app' },
      version: 1,
      updatedAt: now,
    });
  });

  it('starts at version 1', () => {
    expect(createOrder(aNewOrder(), ids, now).order.version).to.equal(1);
  });

  it('keeps the given optional amounts and defaults only the missing ones to 0', () => {
    const order = createOrder(
      aNewOrder({ amounts: { currency: 'BRL', grossCents: 100, netToSellerCents: 80, taxesCents: 20 } }),
      ids,
      now,
    ).order;
    expect(order.amounts).to.deep.equal({
      currency: 'BRL',
      grossCents: 100,
      netToSellerCents: 80,
      discountCents: 0,
      shippingCents: 0,
      taxesCents: 20,
      totalFeesCents: 0,
    });
  });

  describe('status dates', () => {
    it('gives a pending order no status date', () => {
      const order = createOrder(aNewOrder({ status: 'pending' }), ids, now).order;
      expect(order).not.to.have.any.keys('paidAt', 'refundedAt', 'chargedbackAt');
    });

    it('gives a refused order no status date', () => {
      const order = createOrder(aNewOrder({ status: 'refused' }), ids, now).order;
      expect(order).not.to.have.any.keys('paidAt', 'refundedAt', 'chargedbackAt');
    });

    it('sets paidAt to createdAt (not to now) for a paid order sent without paidAt', () => {
      const order = createOrder(aNewOrder({ status: 'paid' }), ids, now).order;
      expect(order.paidAt).to.deep.equal(createdAt);
      expect(order).not.to.have.any.keys('refundedAt', 'chargedbackAt');
    });

    it('sets refundedAt to createdAt for a refunded order sent without refundedAt', () => {
      const order = createOrder(aNewOrder({ status: 'refunded' }), ids, now).order;
      expect(order.refundedAt).to.deep.equal(createdAt);
      expect(order).not.to.have.any.keys('paidAt', 'chargedbackAt');
    });

    it('sets chargedbackAt to createdAt for a chargedback order sent without chargedbackAt', () => {
      const order = createOrder(aNewOrder({ status: 'chargedback' }), ids, now).order;
      expect(order.chargedbackAt).to.deep.equal(createdAt);
      expect(order).not.to.have.any.keys('paidAt', 'refundedAt');
    });

    it('keeps a paidAt that was given', () => {
      const paidAt = new Date('2026-01-02T04:00:00.000Z');
      expect(createOrder(aNewOrder({ status: 'paid', paidAt }), ids, now).order.paidAt).to.deep.equal(paidAt);
    });

    it('keeps every date that was given, whatever the status', () => {
      const paidAt = new Date('2026-01-03T00:00:00.000Z');
      const refundedAt = new Date('2026-01-04T00:00:00.000Z');
      const chargedbackAt = new Date('2026-01-05T00:00:00.000Z');
      const refunded = createOrder(aNewOrder({ status: 'refunded', paidAt, refundedAt }), ids, now).order;
      expect(refunded.paidAt).to.deep.equal(paidAt);
      expect(refunded.refundedAt).to.deep.equal(refundedAt);
      const chargedback = createOrder(aNewOrder({ status: 'chargedback', paidAt, chargedbackAt }), ids, now).order;
      expect(chargedback.paidAt).to.deep.equal(paidAt);
      expect(chargedback.chargedbackAt).to.deep.equal(chargedbackAt);
      const pending = createOrder(aNewOrder({ status: 'pending', paidAt }), ids, now).order;
      expect(pending.paidAt).to.deep.equal(paidAt);
    });
  });

  it('leaves its input unchanged', () => {
    const input = aNewOrder({ status: 'paid' });
    const before = structuredClone(input);
    createOrder(input, ids, now);
    expect(input).to.deep.equal(before);
  });
});
