import { expect } from 'chai';
import { createOrder, isRecordedAs, type NewOrder } from '../../src/domain/order';
import { aNewOrder } from '../support/order-builder';

const ids = { id: 'ord_abc', dashboardId: 'dsh_a' };
const now = new Date('2026-03-01T12:00:00.000Z');

/** The order `input` created, as a store would hold it. */
const stored = (input: NewOrder) => createOrder(input, ids, now).order;

const aFullNewOrder = (changes: Partial<NewOrder> = {}): NewOrder =>
  aNewOrder({
    status: 'paid',
    amounts: { currency: 'BRL', grossCents: 10_000, netToSellerCents: 9_000, shippingCents: 500 },
    products: [
      { externalId: 'p-1', sku: 'SKU-1', name: 'T-shirt', quantity: 2, unitPriceCents: 5_000 },
      { name: 'Cap', quantity: 1, unitPriceCents: 0 },
    ],
    tracking: { utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'black-friday', utmContent: 'ad-1' },
    customer: { name: 'Zoë', tags: ['vip', { since: 2020 }] },
    fees: { gateway: 199 },
    metadata: { note: 'gift' },
    trackingExtras: { gclid: 'abc' },
    ...changes,
  });

describe('isRecordedAs: the stored order is the one a creation payload makes', () => {
  it('holds for the same payload sent again, whenever and with whichever defaults it was stored', () => {
    const input = aFullNewOrder();
    expect(isRecordedAs(stored(input), input)).to.equal(true);
    expect(isRecordedAs(stored(aNewOrder()), aNewOrder())).to.equal(true);
  });

  it('holds when the payload spells out what was defaulted: optional amounts at 0, a status date at createdAt', () => {
    const input = aFullNewOrder();
    const spelled = aFullNewOrder({
      amounts: {
        currency: 'BRL',
        grossCents: 10_000,
        netToSellerCents: 9_000,
        shippingCents: 500,
        discountCents: 0,
        taxesCents: 0,
        totalFeesCents: 0,
      },
      paidAt: input.createdAt,
    });
    expect(isRecordedAs(stored(input), spelled)).to.equal(true);
    expect(isRecordedAs(stored(spelled), input)).to.equal(true);
  });

  it('holds with the members of the free-form objects in another order, and ignores version and updatedAt', () => {
    const input = aFullNewOrder();
    const reordered = aFullNewOrder({ customer: { tags: ['vip', { since: 2020 }], name: 'Zoë' } });
    expect(isRecordedAs({ ...stored(input), version: 3, updatedAt: new Date('2027-01-01T00:00:00.000Z') }, reordered)).to.equal(true);
  });

  const changes: [string, Partial<NewOrder>][] = [
    ['platform', { platform: 'woocommerce' }],
    ['paymentMethod', { paymentMethod: 'pix' }],
    ['status', { status: 'pending' }],
    ['isTest', { isTest: true }],
    ['createdAt by a millisecond', { createdAt: new Date('2026-01-02T03:04:05.001Z') }],
    ['paidAt', { paidAt: new Date('2026-01-03T00:00:00.000Z') }],
    ['refundedAt given', { refundedAt: new Date('2026-01-03T00:00:00.000Z') }],
    ['an optional amount', { amounts: { currency: 'BRL', grossCents: 10_000, netToSellerCents: 9_000, shippingCents: 501 } }],
    ['the currency', { amounts: { currency: 'USD', grossCents: 10_000, netToSellerCents: 9_000, shippingCents: 500 } }],
    [
      'a quantity',
      {
        products: [
          { externalId: 'p-1', sku: 'SKU-1', name: 'T-shirt', quantity: 3, unitPriceCents: 5_000 },
          { name: 'Cap', quantity: 1, unitPriceCents: 0 },
        ],
      },
    ],
    [
      'a product sku dropped',
      {
        products: [
          { externalId: 'p-1', name: 'T-shirt', quantity: 2, unitPriceCents: 5_000 },
          { name: 'Cap', quantity: 1, unitPriceCents: 0 },
        ],
      },
    ],
    [
      'the products in another order',
      {
        products: [
          { name: 'Cap', quantity: 1, unitPriceCents: 0 },
          { externalId: 'p-1', sku: 'SKU-1', name: 'T-shirt', quantity: 2, unitPriceCents: 5_000 },
        ],
      },
    ],
    ['a tracking field dropped', { tracking: { utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'black-friday' } }],
    ['customer dropped', { customer: undefined }],
    ['a nested value of customer', { customer: { name: 'Zoë', tags: ['vip', { since: 2021 }] } }],
    ['fees', { fees: { gateway: 200 } }],
    ['metadata with one more key', { metadata: { note: 'gift', more: null } }],
    ['trackingExtras', { trackingExtras: { gclid: 'abd' } }],
  ];
  for (const [what, change] of changes) {
    it(`does not hold when the payload differs in ${what}`, () => {
      const input = aFullNewOrder();
      expect(isRecordedAs(stored(input), aFullNewOrder(change))).to.equal(false);
      expect(isRecordedAs(stored(aFullNewOrder(change)), input)).to.equal(false);
    });
  }

  it('does not hold once a change moved the order on (a PATCH to another status, new metadata)', () => {
    const input = aNewOrder({ metadata: { note: 'gift' } });
    expect(isRecordedAs({ ...stored(input), status: 'paid', paidAt: now, version: 2 }, input)).to.equal(false);
    expect(isRecordedAs({ ...stored(input), metadata: { note: 'wrapped' }, version: 2 }, input)).to.equal(false);
  });

  it('does not hold for a key that the other object has only through its prototype', () => {
    const input = aNewOrder({ metadata: JSON.parse('{"__proto__": {}}') });
    const other = aNewOrder({ metadata: { other: {} } });
    expect(isRecordedAs(stored(input), other)).to.equal(false);
    expect(isRecordedAs(stored(other), input)).to.equal(false);
  });
});
