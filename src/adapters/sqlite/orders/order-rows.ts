import * as t from 'io-ts';
import type { OrderEvent, OrderSummary } from '../../../application/ports/order-repository';
import { attributionOf } from '../../../domain/attribution';
import type { JsonObject, Order, Product } from '../../../domain/order';
import { ORDER_EVENT_TYPES } from '../../../domain/order-events';
import { ORDER_STATUSES } from '../../../domain/order-status';
import { oneOfCodec } from '../../persistence/corrupt-record';
import { cents, flag, instant, jsonText, optionalInstant, optionalJsonObjectText, positiveCount, present } from '../sqlite-codecs';

const statusCodec = oneOfCodec(ORDER_STATUSES, 'OrderStatus');
const eventTypeCodec = oneOfCodec(ORDER_EVENT_TYPES, 'OrderEventType');

const productCodec = t.intersection([
  t.type({ name: t.string, quantity: positiveCount, unitPriceCents: cents }),
  t.partial({ externalId: t.string, sku: t.string }),
]);

/** The columns `orders` had before decision 0016. */
const originalColumns = {
  id: t.string,
  dashboard_id: t.string,
  external_id: t.string,
  platform: t.string,
  payment_method: t.string,
  status: statusCodec,
  is_test: flag,
  created_at: instant,
  paid_at: optionalInstant,
  refunded_at: optionalInstant,
  chargedback_at: optionalInstant,
  currency: t.string,
  gross_cents: cents,
  net_to_seller_cents: cents,
  discount_cents: cents,
  shipping_cents: cents,
  taxes_cents: cents,
  total_fees_cents: cents,
  products: jsonText(t.array(productCodec)),
  utm_source: t.string,
  utm_medium: t.string,
  utm_campaign: t.string,
  customer: optionalJsonObjectText,
  fees: optionalJsonObjectText,
  metadata: optionalJsonObjectText,
  tracking_extras: optionalJsonObjectText,
  version: positiveCount,
  updated_at: instant,
};

/** The tracking fields added by decision 0016: absent from the rows kept in events written before. */
const absentOrText = t.union([t.undefined, t.null, t.string]);
const trackingColumns = { utm_content: absentOrText, utm_term: absentOrText, utm_id: absentOrText };

/** A row of `orders` as read back: one column per field, in the order of the table. */
export const orderRowCodec = t.type({ ...originalColumns, ...trackingColumns });

/** The columns of `orders`, for SELECT lists. */
export const ORDER_COLUMNS: readonly string[] = [...Object.keys(originalColumns), ...Object.keys(trackingColumns)];

/** An order's attribution, resolved when it is written, for the reports (report-schema.ts). */
const ATTRIBUTION_COLUMNS = [
  'last_content',
  'last_term',
  'first_source',
  'first_medium',
  'first_campaign',
  'first_content',
  'first_term',
] as const;

/** The columns an INSERT or UPDATE of `orders` binds. */
export const WRITE_COLUMNS: readonly string[] = [...ORDER_COLUMNS, ...ATTRIBUTION_COLUMNS];

/** The columns a listing reads, for its SELECT: those of `OrderSummary`, in the order of the table. */
export const SUMMARY_COLUMNS = [
  'id',
  'external_id',
  'platform',
  'payment_method',
  'status',
  'is_test',
  'created_at',
  'paid_at',
  'refunded_at',
  'chargedback_at',
  'currency',
  'gross_cents',
  'net_to_seller_cents',
  'utm_source',
  'utm_medium',
  'utm_campaign',
] as const satisfies readonly (keyof typeof originalColumns)[];

type SummaryColumn = (typeof SUMMARY_COLUMNS)[number];

/**
 * A row of a listing: the summary's columns, each decoded by the codec of `orderRowCodec`, so a corrupt
 * value in a column the listing reads fails it as it fails a read of the whole order. The JSON columns
 * are neither read nor parsed.
 */
export const summaryRowCodec = t.type(
  Object.fromEntries(SUMMARY_COLUMNS.map((column) => [column, originalColumns[column]])) as Pick<typeof originalColumns, SummaryColumn>,
);

/** A row as written: what the statements bind, and what an event keeps of its order. */
export type OrderRow = Readonly<Record<string, string | number | null>>;

const time = (date: Date | undefined): number | null => (date === undefined ? null : date.getTime());
const json = (value: JsonObject | undefined): string | null => (value === undefined ? null : JSON.stringify(value));

const productToJson = (product: Product): Product => ({
  ...(product.externalId === undefined ? {} : { externalId: product.externalId }),
  ...(product.sku === undefined ? {} : { sku: product.sku }),
  name: product.name,
  quantity: product.quantity,
  unitPriceCents: product.unitPriceCents,
});

export const orderToRow = (order: Order): OrderRow => {
  const { last, first } = attributionOf(order);
  return {
    id: order.id,
    dashboard_id: order.dashboardId,
    external_id: order.externalId,
    platform: order.platform,
    payment_method: order.paymentMethod,
    status: order.status,
    is_test: order.isTest ? 1 : 0,
    created_at: order.createdAt.getTime(),
    paid_at: time(order.paidAt),
    refunded_at: time(order.refundedAt),
    chargedback_at: time(order.chargedbackAt),
    currency: order.amounts.currency,
    gross_cents: order.amounts.grossCents,
    net_to_seller_cents: order.amounts.netToSellerCents,
    discount_cents: order.amounts.discountCents,
    shipping_cents: order.amounts.shippingCents,
    taxes_cents: order.amounts.taxesCents,
    total_fees_cents: order.amounts.totalFeesCents,
    products: JSON.stringify(order.products.map(productToJson)),
    utm_source: order.tracking.utmSource,
    utm_medium: order.tracking.utmMedium,
    utm_campaign: order.tracking.utmCampaign,
    customer: json(order.customer),
    fees: json(order.fees),
    metadata: json(order.metadata),
    tracking_extras: json(order.trackingExtras),
    version: order.version,
    updated_at: order.updatedAt.getTime(),
    utm_content: order.tracking.utmContent ?? null,
    utm_term: order.tracking.utmTerm ?? null,
    utm_id: order.tracking.utmId ?? null,
    last_content: last.utmContent,
    last_term: last.utmTerm,
    first_source: first.utmSource,
    first_medium: first.utmMedium,
    first_campaign: first.utmCampaign,
    first_content: first.utmContent,
    first_term: first.utmTerm,
  };
};

const productFromJson = (product: t.TypeOf<typeof productCodec>): Product => productToJson(product);

export const orderFromRow = (row: t.TypeOf<typeof orderRowCodec>): Order => ({
  id: row.id,
  dashboardId: row.dashboard_id,
  externalId: row.external_id,
  platform: row.platform,
  paymentMethod: row.payment_method,
  status: row.status,
  isTest: row.is_test,
  createdAt: row.created_at,
  ...present('paidAt', row.paid_at),
  ...present('refundedAt', row.refunded_at),
  ...present('chargedbackAt', row.chargedback_at),
  amounts: {
    currency: row.currency,
    grossCents: row.gross_cents,
    netToSellerCents: row.net_to_seller_cents,
    discountCents: row.discount_cents,
    shippingCents: row.shipping_cents,
    taxesCents: row.taxes_cents,
    totalFeesCents: row.total_fees_cents,
  },
  products: row.products.map(productFromJson),
  tracking: {
    utmSource: row.utm_source,
    utmMedium: row.utm_medium,
    utmCampaign: row.utm_campaign,
    ...present('utmContent', row.utm_content ?? null),
    ...present('utmTerm', row.utm_term ?? null),
    ...present('utmId', row.utm_id ?? null),
  },
  ...present('customer', row.customer),
  ...present('fees', row.fees),
  ...present('metadata', row.metadata),
  ...present('trackingExtras', row.tracking_extras),
  version: row.version,
  updatedAt: row.updated_at,
});

export const summaryFromRow = (row: t.TypeOf<typeof summaryRowCodec>): OrderSummary => ({
  id: row.id,
  externalId: row.external_id,
  status: row.status,
  isTest: row.is_test,
  platform: row.platform,
  paymentMethod: row.payment_method,
  createdAt: row.created_at,
  ...present('paidAt', row.paid_at),
  ...present('refundedAt', row.refunded_at),
  ...present('chargedbackAt', row.chargedback_at),
  amounts: { currency: row.currency, grossCents: row.gross_cents, netToSellerCents: row.net_to_seller_cents },
  tracking: { utmSource: row.utm_source, utmMedium: row.utm_medium, utmCampaign: row.utm_campaign },
});

/** A row of `order_events` as read back; `order_row` is the order's row as the change left it, as JSON. */
export const eventRowCodec = t.type({
  id: t.string,
  type: eventTypeCodec,
  occurred_at: instant,
  previous_status: t.union([t.null, statusCodec]),
  order_row: jsonText(orderRowCodec),
});

export const EVENT_COLUMNS: readonly string[] = Object.keys(eventRowCodec.props);

/**
 * The rows of a write's events, but for `order_seq`, which the order's write gives. The events of one
 * write carry the order it writes, whose row (`row`) is made once and serialised once for all of them.
 */
/** An event as `order_events` stores it, but for its order's `seq`. */
export interface EventRow {
  readonly id: string;
  readonly type: string;
  readonly occurred_at: number;
  readonly previous_status: string | null;
  readonly order_row: string;
}

export const eventRowsOf = (events: readonly OrderEvent[], order: Order, row: OrderRow): EventRow[] => {
  let json: string | undefined;
  return events.map((event) => ({
    id: event.id,
    type: event.type,
    occurred_at: event.occurredAt.getTime(),
    previous_status: event.previousStatus ?? null,
    order_row: event.order === order ? (json ??= JSON.stringify(row)) : JSON.stringify(orderToRow(event.order)),
  }));
};

export const eventFromRow = (row: t.TypeOf<typeof eventRowCodec>): OrderEvent => ({
  id: row.id,
  type: row.type,
  occurredAt: row.occurred_at,
  order: orderFromRow(row.order_row),
  ...present('previousStatus', row.previous_status),
});
