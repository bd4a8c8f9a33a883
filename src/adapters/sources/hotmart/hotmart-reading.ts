import * as t from 'io-ts';
import type { SourceRequest } from '../../../application/ports/source-platform';
import type { JsonObject, NewOrder } from '../../../domain/order';
import type { OrderStatus } from '../../../domain/order-status';
import type { SourceReading } from '../../../domain/source-reading';
import { decodeTouch, mergeTouches, trackingOf, type Touch } from '../../../domain/touch';
import {
  currencyCode,
  customerOf,
  decimalAmount,
  firstProblem,
  givenAmounts,
  maybe,
  productOf,
  statusDates,
  text,
  unixMilliseconds,
} from '../payloads';
import { readBodyJson } from '../exact-json';
import { paymentMethodOf } from '../payment-methods';

/**
 * What a Hotmart purchase webhook (version 2.0.0) says
 * (developers.hotmart.com/docs/en/2.0.0/webhook/purchase-webhook): one event per change of a
 * purchase, named by `event`; the order is `hotmart:<purchase.transaction>`.
 */

const Envelope = t.intersection([
  t.type({ id: t.string, event: t.string, creation_date: unixMilliseconds, data: t.unknown }),
  t.partial({ version: maybe(t.string) }),
]);
type Envelope = t.TypeOf<typeof Envelope>;

const Money = maybe(t.partial({ value: t.unknown, currency_value: maybe(t.string) }));

const Purchase = t.intersection([
  t.type({ transaction: t.string }),
  t.partial({
    status: maybe(t.string),
    price: Money,
    order_date: maybe(unixMilliseconds),
    approved_date: maybe(unixMilliseconds),
    payment: maybe(t.partial({ type: maybe(t.string) })),
    origin: maybe(t.partial({ src: maybe(t.string), sck: maybe(t.string) })),
  }),
]);
type Purchase = t.TypeOf<typeof Purchase>;

const Data = t.intersection([
  t.type({ purchase: Purchase }),
  t.partial({
    product: maybe(t.partial({ id: maybe(t.union([t.number, t.string])), name: maybe(t.string) })),
    buyer: maybe(t.partial({ email: maybe(t.string), name: maybe(t.string), checkout_phone: maybe(t.string) })),
    commissions: maybe(t.array(t.partial({ value: t.unknown, source: maybe(t.string), currency_value: maybe(t.string) }))),
  }),
]);
type Data = t.TypeOf<typeof Data>;

const Product = t.partial({ product: maybe(t.partial({ id: t.unknown })) });

/**
 * Hotmart's purchase events → the order's status. A protest (the buyer asked for a refund) leaves the
 * order paid until Hotmart refunds it or charges it back; a printed billet and a delayed payment are
 * not paid yet; a cancelled or expired purchase was never paid.
 */
const EVENTS: Readonly<Record<string, { readonly status: OrderStatus; readonly note?: string }>> = {
  PURCHASE_APPROVED: { status: 'paid' },
  PURCHASE_COMPLETE: { status: 'paid', note: 'complete: its warranty period is over' },
  PURCHASE_PROTEST: {
    status: 'paid',
    note: 'the buyer asked for a refund: the order stays paid until Hotmart refunds it or charges it back',
  },
  PURCHASE_BILLET_PRINTED: { status: 'pending', note: 'a billet was printed, not paid yet' },
  PURCHASE_DELAYED: { status: 'pending', note: 'the payment is late' },
  PURCHASE_CANCELED: { status: 'refused' },
  PURCHASE_EXPIRED: { status: 'refused', note: 'expired unpaid' },
  PURCHASE_REFUNDED: { status: 'refunded' },
  PURCHASE_CHARGEBACK: { status: 'chargedback' },
};

/**
 * The campaign of a purchase: the compact touch the tracking script writes into `sck`, and for a
 * source it lacks, `src` (the label an affiliate or a producer puts on a link, as Hotmart's own
 * "sales by origin" report reads it). Any other `sck` is the producer's own code, not read as a field.
 */
const touchOf = (origin: Purchase['origin']): Touch => {
  const compact = origin?.sck === null || origin?.sck === undefined ? undefined : decodeTouch(origin.sck.trim());
  return mergeTouches(compact ?? {}, { utmSource: origin?.src ?? undefined });
};

/** `src` and `sck` as they came, beside the campaign fields, as the tracking script keeps them. */
const extrasOf = (origin: Purchase['origin']): JsonObject | undefined => {
  const src = text(origin?.src);
  const sck = text(origin?.sck);
  return src === undefined && sck === undefined
    ? undefined
    : { ...(src === undefined ? {} : { src }), ...(sck === undefined ? {} : { sck }) };
};

/** What Hotmart kept of the price (the producer's commission) and took (its own), in the purchase's currency. */
const commissionsOf = (data: Data, currency: string, gross: number): { net: number; fees?: number } => {
  const of = (source: string): number | undefined => {
    const found = (data.commissions ?? []).find(
      (c) => c.source === source && (c.currency_value === null || c.currency_value === undefined || c.currency_value === currency),
    );
    const cents = found === undefined ? undefined : decimalAmount.decode(found.value);
    return cents !== undefined && cents._tag === 'Right' && cents.right <= gross ? cents.right : undefined;
  };
  const fees = of('MARKETPLACE');
  return { net: of('PRODUCER') ?? gross, ...(fees === undefined ? {} : { fees }) };
};

/** The order as the service records it, or why it cannot be. */
const newOrderOf = (envelope: Envelope, data: Data, externalId: string, status: OrderStatus): NewOrder | string => {
  const purchase = data.purchase;
  const currency = currencyCode.decode(purchase.price?.currency_value);
  if (currency._tag === 'Left') return 'the purchase has no price.currency_value';
  const price = decimalAmount.decode(purchase.price?.value);
  if (price._tag === 'Left') {
    // A number of more digits than a double holds arrives as its text (exact-json.ts): shown as sent.
    const sent = purchase.price?.value;
    const shown = typeof sent === 'string' ? sent : String(JSON.stringify(sent));
    return `the purchase's price.value ${shown.slice(0, 40)} is not an amount with at most 2 fraction digits`;
  }
  const gross = price.right;
  const { net, fees } = commissionsOf(data, currency.right, gross);
  const at = envelope.creation_date;
  const customer = customerOf({ email: data.buyer?.email, name: data.buyer?.name, phone: data.buyer?.checkout_phone });
  const trackingExtras = extrasOf(purchase.origin);
  return {
    externalId,
    platform: 'hotmart',
    paymentMethod: paymentMethodOf(purchase.payment?.type),
    status,
    isTest: false,
    createdAt: purchase.order_date ?? at,
    ...statusDates(status, purchase.approved_date ?? at, at),
    amounts: {
      currency: currency.right,
      grossCents: gross,
      netToSellerCents: net,
      ...givenAmounts({ totalFeesCents: fees }),
    },
    products: [
      productOf({
        name: text(data.product?.name) ?? `Hotmart purchase ${purchase.transaction}`,
        externalId: data.product?.id,
        quantity: 1,
        unitPriceCents: gross,
      }),
    ],
    tracking: trackingOf(touchOf(purchase.origin)),
    ...(trackingExtras === undefined ? {} : { trackingExtras }),
    ...(customer === undefined ? {} : { customer }),
  };
};

/** Hotmart's test events ("send a test" in its webhook settings) are its documented example, of product id 0. */
const isTestEvent = (data: unknown): boolean => {
  const decoded = Product.decode(data);
  return decoded._tag === 'Right' && (decoded.right.product?.id === 0 || decoded.right.product?.id === '0');
};

const readPurchase = (envelope: Envelope, meaning: { status: OrderStatus; note?: string }): SourceReading => {
  const labels = { eventId: envelope.id, topic: envelope.event };
  if (isTestEvent(envelope.data)) return { kind: 'ignored', ...labels, reason: "Hotmart's test event (product id 0)" };
  const decoded = Data.decode(envelope.data);
  if (decoded._tag === 'Left') return { kind: 'refused', ...labels, reason: firstProblem(decoded.left) };
  const externalId = `hotmart:${decoded.right.purchase.transaction}`;
  const created = newOrderOf(envelope, decoded.right, externalId, meaning.status);
  return {
    kind: 'order',
    ...labels,
    externalId,
    at: envelope.creation_date,
    status: meaning.status,
    ...(typeof created === 'string' ? { cannotCreate: created } : { order: created }),
    ...(meaning.note === undefined ? {} : { note: meaning.note }),
  };
};

export const readHotmart = (request: SourceRequest): SourceReading => {
  const body = readBodyJson(request.body);
  if (!body.ok) return { kind: 'refused', reason: body.problem };
  const decoded = Envelope.decode(body.value);
  if (decoded._tag === 'Left') return { kind: 'refused', reason: `not a Hotmart 2.0.0 event: ${firstProblem(decoded.left)}` };
  const envelope = decoded.right;
  const labels = { eventId: envelope.id, topic: envelope.event };
  const version = envelope.version ?? '(none)';
  if (!version.startsWith('2.'))
    return { kind: 'refused', ...labels, reason: `webhook version ${version}: choose version 2.0.0 in Hotmart's webhook settings` };
  if (envelope.event === 'PURCHASE_OUT_OF_SHOPPING_CART')
    return { kind: 'ignored', ...labels, reason: 'a cart abandoned at the checkout is not an order' };
  const meaning = EVENTS[envelope.event];
  return meaning === undefined
    ? { kind: 'ignored', ...labels, reason: `Hotmart's ${envelope.event} does not concern orders` }
    : readPurchase(envelope, meaning);
};
