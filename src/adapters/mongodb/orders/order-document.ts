import type { Long } from 'mongodb';
import * as t from 'io-ts';
import { summaryOf, type OrderEvent, type OrderSummary } from '../../../application/ports/order-repository';
import type { Order, Product } from '../../../domain/order';
import { ORDER_EVENT_TYPES } from '../../../domain/order-events';
import { ORDER_STATUSES } from '../../../domain/order-status';
import { oneOfCodec } from '../../persistence/corrupt-record';
import { bsonCents, bsonCount, bsonDate, bsonJsonObject, int64, withoutUndefined } from '../bson-codecs';

const statusCodec = oneOfCodec(ORDER_STATUSES);

const productCodec = t.intersection([
  t.type({ name: t.string, quantity: bsonCount, unitPriceCents: bsonCents }),
  t.partial({ externalId: t.string, sku: t.string }),
]);

/** Every field of an order but its id, as stored: the order document and its events' snapshots share them. */
const requiredOrderFields = {
  dashboardId: t.string,
  externalId: t.string,
  platform: t.string,
  paymentMethod: t.string,
  status: statusCodec,
  isTest: t.boolean,
  createdAt: bsonDate,
  amounts: t.type({
    currency: t.string,
    grossCents: bsonCents,
    netToSellerCents: bsonCents,
    discountCents: bsonCents,
    shippingCents: bsonCents,
    taxesCents: bsonCents,
    totalFeesCents: bsonCents,
  }),
  products: t.array(productCodec),
  tracking: t.intersection([
    t.type({ utmSource: t.string, utmMedium: t.string, utmCampaign: t.string }),
    t.partial({ utmContent: t.string, utmTerm: t.string, utmId: t.string }),
  ]),
  version: bsonCount,
  updatedAt: bsonDate,
};

const optionalOrderFields = t.partial({
  paidAt: bsonDate,
  refundedAt: bsonDate,
  chargedbackAt: bsonDate,
  customer: bsonJsonObject,
  fees: bsonJsonObject,
  metadata: bsonJsonObject,
  trackingExtras: bsonJsonObject,
});

/**
 * An order as read from the `orders` collection. `_id` is the order id, so it is unique without an
 * index of its own and is the tie-breaker of the listing sort. The document also holds the order's
 * outbox (`outbox`), which is read on its own (`outboxDocumentCodec`).
 */
export const orderDocumentCodec = t.intersection([t.type({ _id: t.string, ...requiredOrderFields }), optionalOrderFields]);

const pick = <P extends t.Props, K extends keyof P & string>(props: P, keys: readonly K[]): Pick<P, K> =>
  Object.fromEntries(keys.map((key) => [key, props[key]])) as Pick<P, K>;

const summaryAmounts = t.type(pick(requiredOrderFields.amounts.props, ['currency', 'grossCents', 'netToSellerCents']));

/**
 * An order as a listing reads it: the fields of `OrderSummary`, each decoded by the codec of
 * `orderDocumentCodec`, so a corrupt value in a field the listing reads fails it as it fails a read
 * of the whole order.
 */
export const summaryDocumentCodec = t.intersection([
  t.type({
    _id: t.string,
    ...pick(requiredOrderFields, ['externalId', 'platform', 'paymentMethod', 'status', 'isTest', 'createdAt', 'tracking']),
    amounts: summaryAmounts,
  }),
  t.partial(pick(optionalOrderFields.props, ['paidAt', 'refundedAt', 'chargedbackAt'])),
]);

/**
 * What a listing asks the server for: the fields of `summaryDocumentCodec`, and of the amounts only
 * those it shows. Products, the free-form objects and the outbox stay on the server.
 */
export const SUMMARY_PROJECTION: Readonly<Record<string, 1>> = Object.fromEntries(
  [
    ...summaryDocumentCodec.types.flatMap((part) => Object.keys(part.props)).filter((field) => field !== 'amounts'),
    ...Object.keys(summaryAmounts.props).map((field) => `amounts.${field}`),
  ].map((field) => [field, 1]),
);

/** The order an event carries, stored like the order itself, its id as `id`: `_id` is the document's. */
const snapshotCodec = t.intersection([t.type({ id: t.string, ...requiredOrderFields }), optionalOrderFields]);

const eventTypeCodec = oneOfCodec(ORDER_EVENT_TYPES);

export const outboxEventCodec = t.intersection([
  t.type({ id: t.string, type: eventTypeCodec, occurredAt: bsonDate, order: snapshotCodec }),
  t.partial({ previousStatus: statusCodec }),
]);

/**
 * The outbox of an order document: its events not yet relayed, oldest first. An order stored before
 * events existed has no `outbox` field, which reads as an empty outbox.
 */
export const outboxDocumentCodec = t.intersection([t.type({ _id: t.string }), t.partial({ outbox: t.array(outboxEventCodec) })]);

type OrderDocumentRead = t.TypeOf<typeof orderDocumentCodec>;

/** What is written: the same fields, money as int64, free-form objects as sub-documents. */
export interface OrderDocument {
  readonly _id: string;
  readonly dashboardId: string;
  readonly externalId: string;
  readonly [field: string]: unknown;
}

const productToDocument = (product: Product): Record<string, unknown> =>
  withoutUndefined({
    externalId: product.externalId,
    sku: product.sku,
    name: product.name,
    quantity: product.quantity,
    unitPriceCents: int64(product.unitPriceCents),
  });

const orderToDocument = (order: Order): OrderDocument => {
  const { amounts } = order;
  const money: Record<string, Long | string> = {
    currency: amounts.currency,
    grossCents: int64(amounts.grossCents),
    netToSellerCents: int64(amounts.netToSellerCents),
    discountCents: int64(amounts.discountCents),
    shippingCents: int64(amounts.shippingCents),
    taxesCents: int64(amounts.taxesCents),
    totalFeesCents: int64(amounts.totalFeesCents),
  };
  return withoutUndefined({
    _id: order.id,
    dashboardId: order.dashboardId,
    externalId: order.externalId,
    platform: order.platform,
    paymentMethod: order.paymentMethod,
    status: order.status,
    isTest: order.isTest,
    createdAt: order.createdAt,
    paidAt: order.paidAt,
    refundedAt: order.refundedAt,
    chargedbackAt: order.chargedbackAt,
    amounts: money,
    products: order.products.map(productToDocument),
    tracking: withoutUndefined({
      utmSource: order.tracking.utmSource,
      utmMedium: order.tracking.utmMedium,
      utmCampaign: order.tracking.utmCampaign,
      utmContent: order.tracking.utmContent,
      utmTerm: order.tracking.utmTerm,
      utmId: order.tracking.utmId,
    }),
    customer: order.customer,
    fees: order.fees,
    metadata: order.metadata,
    trackingExtras: order.trackingExtras,
    version: order.version,
    updatedAt: order.updatedAt,
  });
};

const productFromDocument = (product: t.TypeOf<typeof productCodec>): Product =>
  withoutUndefined({
    externalId: product.externalId,
    sku: product.sku,
    name: product.name,
    quantity: product.quantity,
    unitPriceCents: product.unitPriceCents,
  });

/** Builds the domain order field by field, so nothing of the document (`_id`, extra fields) leaks out. */
export const orderFromDocument = (doc: OrderDocumentRead): Order =>
  withoutUndefined({
    id: doc._id,
    dashboardId: doc.dashboardId,
    externalId: doc.externalId,
    platform: doc.platform,
    paymentMethod: doc.paymentMethod,
    status: doc.status,
    isTest: doc.isTest,
    createdAt: doc.createdAt,
    paidAt: doc.paidAt,
    refundedAt: doc.refundedAt,
    chargedbackAt: doc.chargedbackAt,
    amounts: {
      currency: doc.amounts.currency,
      grossCents: doc.amounts.grossCents,
      netToSellerCents: doc.amounts.netToSellerCents,
      discountCents: doc.amounts.discountCents,
      shippingCents: doc.amounts.shippingCents,
      taxesCents: doc.amounts.taxesCents,
      totalFeesCents: doc.amounts.totalFeesCents,
    },
    products: doc.products.map(productFromDocument),
    tracking: withoutUndefined({
      utmSource: doc.tracking.utmSource,
      utmMedium: doc.tracking.utmMedium,
      utmCampaign: doc.tracking.utmCampaign,
      utmContent: doc.tracking.utmContent,
      utmTerm: doc.tracking.utmTerm,
      utmId: doc.tracking.utmId,
    }),
    customer: doc.customer,
    fees: doc.fees,
    metadata: doc.metadata,
    trackingExtras: doc.trackingExtras,
    version: doc.version,
    updatedAt: doc.updatedAt,
  });

/** The summary of a listed document: `summaryOf` copies the summary's fields alone, so `_id` and extra fields stay out. */
export const summaryFromDocument = (doc: t.TypeOf<typeof summaryDocumentCodec>): OrderSummary => summaryOf({ ...doc, id: doc._id });

export const eventToDocument = (event: OrderEvent): Record<string, unknown> => {
  const { _id, ...snapshot } = orderToDocument(event.order);
  return withoutUndefined({
    id: event.id,
    type: event.type,
    occurredAt: event.occurredAt,
    order: { id: _id, ...snapshot },
    previousStatus: event.previousStatus,
  });
};

export const eventFromDocument = (doc: t.TypeOf<typeof outboxEventCodec>): OrderEvent =>
  withoutUndefined({
    id: doc.id,
    type: doc.type,
    occurredAt: doc.occurredAt,
    order: orderFromDocument({ ...doc.order, _id: doc.order.id }),
    previousStatus: doc.previousStatus,
  });

/**
 * Marks an order whose report totals are not yet counted (mongo-report-rollup.ts): set in the same
 * single-document write as every change, cleared by the rollup once it has counted that version.
 */
export const REPORT_DIRTY = 'reportDirty';

/** A new order's document: the order, its first events as its outbox, and its mark for the reports. */
export const newOrderDocument = (order: Order, events: readonly OrderEvent[]): OrderDocument => ({
  ...orderToDocument(order),
  outbox: events.map(eventToDocument),
  [REPORT_DIRTY]: true,
});

/**
 * The update that turns a stored order into `order` and appends `events` to its outbox, in one
 * write: `$set` of every field and of the reports' mark, `$unset` of the optional ones `order` no
 * longer has, `$push` of the events. `_id` never changes, and the outbox is never replaced.
 */
export const orderUpdate = (order: Order, events: readonly OrderEvent[]): Record<string, Record<string, unknown>> => {
  const { _id, ...fields } = orderToDocument(order);
  const absent = Object.keys(optionalOrderFields.props).filter((field) => !(field in fields));
  return {
    $set: { ...fields, [REPORT_DIRTY]: true },
    ...(absent.length === 0 ? {} : { $unset: Object.fromEntries(absent.map((field) => [field, ''])) }),
    ...(events.length === 0 ? {} : { $push: { outbox: { $each: events.map(eventToDocument) } } }),
  };
};

/** The events of an outbox document, oldest first. */
export const outboxFromDocument = (doc: t.TypeOf<typeof outboxDocumentCodec>): OrderEvent[] => (doc.outbox ?? []).map(eventFromDocument);
