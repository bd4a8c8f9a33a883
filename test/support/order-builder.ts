import type { NewOrder, Order } from '../../src/domain/order';
import type { OrderStatus } from '../../src/domain/order-status';

let sequence = 0;

/** A domain order with fixed values; each build gets a fresh id unless one is given. */
export class OrderBuilder {
  private props: Order;

  constructor() {
    sequence += 1;
    const createdAt = new Date('2026-01-02T03:04:05.000Z');
    this.props = {
      id: `ord_test${String(sequence).padStart(6, '0')}`,
      dashboardId: 'dsh_a',
      externalId: `ext-${sequence}`,
      platform: 'shopify',
      paymentMethod: 'credit_card',
      status: 'pending',
      isTest: false,
      createdAt,
      amounts: {
        currency: 'BRL',
        grossCents: 10_000,
        netToSellerCents: 9_000,
        discountCents: 0,
        shippingCents: 0,
        taxesCents: 0,
        totalFeesCents: 1_000,
      },
      products: [{ externalId: 'p-1', sku: 'SKU-1', name: 'T-shirt', quantity: 2, unitPriceCents: 5_000 }],
      tracking: { utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'black-friday' },
      version: 1,
      updatedAt: createdAt,
    };
  }

  with(changes: Partial<Order>): this {
    this.props = { ...this.props, ...changes };
    return this;
  }

  inDashboard(dashboardId: string): this {
    return this.with({ dashboardId });
  }

  withExternalId(externalId: string): this {
    return this.with({ externalId });
  }

  createdAt(iso: string): this {
    return this.with({ createdAt: new Date(iso) });
  }

  withStatus(status: OrderStatus): this {
    return this.with({ status });
  }

  paid(at = '2026-01-02T03:10:00.000Z'): this {
    return this.with({ status: 'paid', paidAt: new Date(at) });
  }

  build(): Order {
    return structuredClone(this.props);
  }
}

export const anOrder = (): OrderBuilder => new OrderBuilder();

/** A creation input as the use case receives it, after decoding. */
export const aNewOrder = (changes: Partial<NewOrder> = {}): NewOrder => ({
  externalId: 'order-1',
  platform: 'shopify',
  paymentMethod: 'credit_card',
  status: 'pending',
  isTest: false,
  createdAt: new Date('2026-01-02T03:04:05.000Z'),
  amounts: { currency: 'BRL', grossCents: 10_000, netToSellerCents: 9_000 },
  products: [{ name: 'T-shirt', quantity: 2, unitPriceCents: 5_000 }],
  tracking: { utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'black-friday' },
  ...changes,
});

/** The minimal JSON creation payload of the specification, as a client sends it. */
export const anOrderPayload = (changes: Record<string, unknown> = {}): Record<string, unknown> => ({
  externalId: 'order-1',
  platform: 'shopify',
  paymentMethod: 'credit_card',
  status: 'pending',
  createdAt: '2026-01-02T03:04:05Z',
  isTest: false,
  amounts: { currency: 'BRL', grossCents: 10_000, netToSellerCents: 9_000 },
  products: [{ externalId: 'p-1', sku: 'SKU-1', name: 'T-shirt', quantity: 2, unitPriceCents: 5_000 }],
  tracking: { utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'black-friday' },
  ...changes,
});

/** A free-form object at its key limit: 50 keys, each with a short string. */
const freeFormAtItsLimit = (prefix: string): Record<string, string> =>
  Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`${prefix}${i}`, 'v']));

/**
 * An order at every per-order limit that counts values (decisions 0003, 0023): every optional field, 500
 * products with all their fields, each free-form object with its 50 keys. Short strings keep it small.
 */
export const anOrderAtItsLimits = (externalId: string): Record<string, unknown> =>
  anOrderPayload({
    externalId,
    status: 'paid',
    paidAt: '2026-01-02T03:04:05Z',
    refundedAt: '2026-01-02T03:04:05Z',
    chargedbackAt: '2026-01-02T03:04:05Z',
    amounts: {
      currency: 'BRL',
      grossCents: 100,
      netToSellerCents: 90,
      discountCents: 0,
      shippingCents: 0,
      taxesCents: 0,
      totalFeesCents: 10,
    },
    products: Array.from({ length: 500 }, (_, i) => ({ externalId: `p${i}`, sku: `s${i}`, name: `n${i}`, quantity: 1, unitPriceCents: 1 })),
    tracking: { utmSource: 's', utmMedium: 'm', utmCampaign: 'c', utmContent: 'ct', utmTerm: 't', utmId: 'i' },
    customer: freeFormAtItsLimit('c'),
    fees: freeFormAtItsLimit('f'),
    metadata: freeFormAtItsLimit('m'),
    trackingExtras: freeFormAtItsLimit('t'),
  });

/** How many JSON values `value` holds: each object, array, string, number, boolean and null counts one. */
export const jsonValuesOf = (value: unknown): number =>
  1 +
  (Array.isArray(value)
    ? value.reduce((sum: number, item) => sum + jsonValuesOf(item), 0)
    : typeof value === 'object' && value !== null
      ? Object.values(value).reduce((sum: number, item) => sum + jsonValuesOf(item), 0)
      : 0);
