/** Orders and events the OrderRepository contract suites share. */
import { type OrderEvent, type OrderSummary } from '../../src/application/ports/order-repository';
import { MAX_CENTS } from '../../src/domain/money';
import type { Order } from '../../src/domain/order';
import type { OrderEventType } from '../../src/domain/order-events';
import type { OrderStatus } from '../../src/domain/order-status';
import { anOrder } from '../support/order-builder';

/** What a careless caller might do to an object it got back: write through it. */
interface Scribbled {
  status: string;
  metadata?: Record<string, unknown>;
  products: Array<{ name: string }>;
  createdAt: Date;
  amounts: { grossCents: number };
}
export const scribbleOn = (order: Order): void => {
  const target = order as unknown as Scribbled;
  target.status = 'refused';
  target.metadata = { scribbled: true };
  target.products[0].name = 'scribbled';
  target.createdAt.setTime(0);
  target.amounts.grossCents = 1;
};

/** The same, through a listing's summary: no products to write through. */
export const scribbleOnSummary = (summary: OrderSummary): void => {
  const target = summary as unknown as Omit<Scribbled, 'products'>;
  target.status = 'refused';
  target.createdAt.setTime(0);
  target.amounts.grossCents = 1;
};

/** An order that uses every field, with awkward values: ms dates, the money ceiling, nested free-form data. */
export const aFullOrder = (): Order =>
  anOrder()
    .inDashboard('dsh_a')
    .with({
      id: 'ord_full',
      externalId: 'full-1',
      platform: 'plataforma-ção',
      paymentMethod: 'pix',
      status: 'chargedback',
      isTest: true,
      createdAt: new Date('2026-01-02T03:04:05.123Z'),
      paidAt: new Date('2026-01-02T03:05:00.001Z'),
      refundedAt: new Date('2026-01-03T00:00:00.999Z'),
      chargedbackAt: new Date('2026-01-04T23:59:59.500Z'),
      amounts: {
        currency: 'USD',
        grossCents: MAX_CENTS,
        netToSellerCents: MAX_CENTS - 1,
        discountCents: 0,
        shippingCents: 1,
        taxesCents: 123_456_789,
        totalFeesCents: 42,
      },
      products: [
        { externalId: 'p-1', sku: 'SKU-1', name: 'Camiseta 👕', quantity: 1, unitPriceCents: 0 },
        { name: 'No ids', quantity: 500, unitPriceCents: MAX_CENTS },
        { sku: 'only-sku', name: 'Only sku', quantity: 3, unitPriceCents: 7 },
      ],
      tracking: { utmSource: 'newsletter', utmMedium: 'email', utmCampaign: 'natal "2026"' },
      customer: {
        name: 'Zoë',
        email: 'zoe@example.com',
        document: null,
        tags: ['vip', 'b2b'],
        address: { city: 'São Paulo', lines: ['a', { n: 1 }] },
      },
      fees: { gateway: 199, percent: 3.99, negative: -5, items: [] },
      metadata: {
        empty: {},
        list: [1, 'two', null, true, false, [3, [4]], { deep: { deeper: { deepest: 'x' } } }],
        nil: null,
        bool: false,
        zero: 0,
      },
      trackingExtras: { fbclid: 'abc', gclid: null, nested: { utm_content: ['a', 'b'], utm_term: { k: 'v' } } },
      version: 7,
      updatedAt: new Date('2026-02-03T04:05:06.789Z'),
    })
    .build();

/** The order with only the fields every order has. */
export const aMinimalOrder = (): Order => anOrder().inDashboard('dsh_a').with({ id: 'ord_min', externalId: 'min-1' }).build();

/** An event as a use case would store it, about `order` as it stands after the change. */
export const anEvent = (id: string, type: OrderEventType, order: Order, previousStatus?: OrderStatus): OrderEvent => ({
  id,
  type,
  occurredAt: new Date(order.updatedAt),
  order,
  ...(previousStatus === undefined ? {} : { previousStatus }),
});

/** What a careless caller might do to events it gave or got back: write through them. */
export const scribbleOnEvents = (events: readonly OrderEvent[]): void => {
  for (const event of events) {
    const target = event as unknown as { type: string; occurredAt: Date };
    target.type = 'order.refused';
    target.occurredAt.setTime(0);
    scribbleOn(event.order);
  }
};
