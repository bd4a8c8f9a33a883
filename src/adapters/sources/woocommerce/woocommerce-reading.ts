import * as t from 'io-ts';
import type { SourceRequest } from '../../../application/ports/source-platform';
import type { NewOrder } from '../../../domain/order';
import type { OrderStatus } from '../../../domain/order-status';
import type { SourceReading } from '../../../domain/source-reading';
import { trackingOf, type Touch } from '../../../domain/touch';
import { centsOfDecimal } from '../amounts';
import {
  centsOfText,
  currencyCode,
  customerOf,
  decimalText,
  firstProblem,
  givenAmounts,
  lineItemsOf,
  gmtDate,
  maybe,
  parseJson,
  personName,
  productOf,
} from '../payloads';
import { paymentMethodOf } from '../payment-methods';
import { pingOf } from './woocommerce-signature';

/**
 * What a WooCommerce order webhook says (woocommerce.github.io/woocommerce-rest-api-docs, "Order
 * properties" and "Webhooks"): every order topic but order.deleted carries the order as the REST API
 * (v3) gives it; the order is `woocommerce:<order id>`.
 */

const LineItem = t.intersection([
  t.type({ quantity: t.number, subtotal: decimalText }),
  t.partial({ name: maybe(t.string), product_id: maybe(t.union([t.number, t.string])), sku: maybe(t.string) }),
]);

const Order = t.intersection([
  t.type({ id: t.union([t.number, t.string]), status: t.string, date_created_gmt: gmtDate }),
  t.partial({
    number: maybe(t.string),
    currency: maybe(t.string),
    total: maybe(t.unknown),
    discount_total: maybe(t.unknown),
    shipping_total: maybe(t.unknown),
    total_tax: maybe(t.unknown),
    date_modified_gmt: maybe(gmtDate),
    date_paid_gmt: maybe(gmtDate),
    billing: maybe(t.partial({ first_name: maybe(t.string), last_name: maybe(t.string), email: maybe(t.string), phone: maybe(t.string) })),
    payment_method: maybe(t.string),
    payment_method_title: maybe(t.string),
    line_items: maybe(t.array(t.unknown)),
    meta_data: maybe(t.array(t.unknown)),
    refunds: maybe(t.array(t.partial({ total: maybe(t.unknown) }))),
  }),
]);
type Order = t.TypeOf<typeof Order>;

const Meta = t.type({ key: t.string, value: t.unknown });

/**
 * WooCommerce's order statuses → the order's status. Processing (paid, being prepared) and completed
 * are paid; on-hold (awaiting a transfer or a check) is pending; failed and cancelled are refused.
 */
const STATUS: Readonly<Record<string, OrderStatus>> = {
  pending: 'pending',
  'on-hold': 'pending',
  processing: 'paid',
  completed: 'paid',
  failed: 'refused',
  cancelled: 'refused',
  refunded: 'refunded',
};

/** Statuses that say nothing of a payment: the order stays as it is. */
const NOT_A_PAYMENT: Readonly<Record<string, string>> = {
  trash: 'the order was moved to the trash: it stays as it is here',
  'checkout-draft': 'a checkout not placed yet (checkout-draft)',
};

/** The order-attribution meta WooCommerce writes (OrderAttributionMeta, since 8.5): `_wc_order_attribution_utm_source`, … */
const touchOf = (meta: readonly unknown[]): Touch => {
  const values = new Map<string, string>();
  for (const item of meta) {
    const decoded = Meta.decode(item);
    if (decoded._tag === 'Right' && typeof decoded.right.value === 'string') values.set(decoded.right.key, decoded.right.value);
  }
  const get = (field: string): string | undefined => values.get(`_wc_order_attribution_${field}`);
  return {
    utmSource: get('utm_source'),
    utmMedium: get('utm_medium'),
    utmCampaign: get('utm_campaign'),
    utmContent: get('utm_content'),
    utmTerm: get('utm_term'),
  };
};

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', ndash: '–', mdash: '—' };

/** Product names come HTML-escaped (`Ship Your Idea &ndash; Color: Black`): the order holds the text. */
const unescaped = (name: string): string =>
  name.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]+);/gi, (entity, body: string) => {
    const code =
      body.startsWith('#x') || body.startsWith('#X') ? parseInt(body.slice(2), 16) : body.startsWith('#') ? Number(body.slice(1)) : NaN;
    if (!Number.isNaN(code)) return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : entity;
    return ENTITIES[body.toLowerCase()] ?? entity;
  });

/** The refunds' total, from their negative decimal text ("-10.00"). */
const refundedCents = (order: Order): number =>
  (order.refunds ?? []).reduce((sum, refund) => {
    const total = typeof refund.total === 'string' ? centsOfDecimal(refund.total.replace(/^-/, '')) : undefined;
    return sum + (total ?? 0);
  }, 0);

/** The order as the service records it, or why it cannot be. */
const newOrderOf = (order: Order, externalId: string, status: OrderStatus, at: Date): NewOrder | string => {
  const currency = currencyCode.decode(order.currency);
  if (currency._tag === 'Left') return 'the order has no currency';
  const gross = centsOfText(order.total);
  if (gross === undefined) return 'the order has no total (a decimal amount)';
  const items = lineItemsOf(LineItem, order.line_items ?? []);
  if (typeof items === 'string') return items;
  const products =
    items.length === 0
      ? [productOf({ name: `WooCommerce order ${order.number ?? order.id}`, quantity: 1, unitPriceCents: gross })]
      : items.map((item) =>
          productOf({
            name: item.name === null || item.name === undefined ? undefined : unescaped(item.name),
            externalId: item.product_id,
            sku: item.sku,
            quantity: item.quantity,
            // The line's subtotal (before discounts) shared by its units, to the nearest cent.
            unitPriceCents: Math.round(item.subtotal / item.quantity),
          }),
        );
  const discount = centsOfText(order.discount_total);
  const shipping = centsOfText(order.shipping_total);
  const taxes = centsOfText(order.total_tax);
  const billing = order.billing;
  const name = personName(billing?.first_name, billing?.last_name);
  const customer = customerOf({ email: billing?.email, name, phone: billing?.phone });
  const paidAt = order.date_paid_gmt ?? at;
  return {
    externalId,
    platform: 'woocommerce',
    paymentMethod: paymentMethodOf(order.payment_method),
    status,
    isTest: false,
    createdAt: order.date_created_gmt,
    ...(status === 'paid' || status === 'refunded' ? { paidAt } : {}),
    ...(status === 'refunded' ? { refundedAt: at } : {}),
    amounts: {
      currency: currency.right,
      grossCents: gross,
      netToSellerCents: gross,
      ...givenAmounts({ discountCents: discount, shippingCents: shipping, taxesCents: taxes }),
    },
    products,
    tracking: trackingOf(touchOf(order.meta_data ?? [])),
    ...(customer === undefined ? {} : { customer }),
  };
};

/** The status WooCommerce reports, read as the service's, with a word on what was read as what. */
const statusOf = (order: Order): { status: OrderStatus; note?: string } | { ignored: string } => {
  const mapped = STATUS[order.status];
  if (mapped !== undefined) return { status: mapped };
  const ignored = NOT_A_PAYMENT[order.status];
  if (ignored !== undefined) return { ignored };
  // A status a plugin added (shipped, delivered…): whether the order was paid is what counts.
  const status: OrderStatus = order.date_paid_gmt === null || order.date_paid_gmt === undefined ? 'pending' : 'paid';
  return { status, note: `status ${order.status} read as ${status} (${status === 'paid' ? 'it has' : 'it has no'} date_paid_gmt)` };
};

const readOrder = (body: unknown, topic: string, deliveryId: string | undefined): SourceReading => {
  const decoded = Order.decode(body);
  if (decoded._tag === 'Left')
    return { kind: 'refused', topic, ...(deliveryId === undefined ? {} : { eventId: deliveryId }), reason: firstProblem(decoded.left) };
  const order = decoded.right;
  // WooCommerce's delivery id is a hash of the webhook and the second it was sent, the same for
  // every delivery of that webhook in that second; with the order and its status it names one event.
  const labels = { topic, ...(deliveryId === undefined ? {} : { eventId: `${deliveryId}:${order.id}:${order.status}` }) };
  const read = statusOf(order);
  if ('ignored' in read) return { kind: 'ignored', ...labels, reason: read.ignored };
  const { status } = read;
  const externalId = `woocommerce:${order.id}`;
  const at = order.date_modified_gmt ?? order.date_created_gmt;
  const created = newOrderOf(order, externalId, status, at);
  const refunded = refundedCents(order);
  const partial =
    status === 'paid' && refunded > 0 && typeof created !== 'string'
      ? `partially refunded (${(refunded / 100).toFixed(2)} of ${(created.amounts.grossCents / 100).toFixed(2)} ${created.amounts.currency}): the order stays paid`
      : undefined;
  const note = [read.note, partial].filter((part) => part !== undefined).join('; ') || undefined;
  return {
    kind: 'order',
    ...labels,
    externalId,
    at,
    status,
    ...(typeof created === 'string' ? { cannotCreate: created } : { order: created }),
    ...(note === undefined ? {} : { note }),
  };
};

const ORDER_TOPICS = new Set(['order.created', 'order.updated', 'order.restored']);

export const readWooCommerce = (request: SourceRequest): SourceReading => {
  const topic = request.headers['x-wc-webhook-topic'];
  const deliveryId = request.headers['x-wc-webhook-delivery-id'];
  const ping = pingOf(request.body);
  if (topic === undefined && ping !== undefined)
    return { kind: 'ignored', topic: '(ping)', reason: `WooCommerce's ping when the webhook was saved (${ping})` };
  const labels = { topic: topic ?? '(none)', ...(deliveryId === undefined ? {} : { eventId: deliveryId }) };
  if (topic === 'order.deleted')
    return { kind: 'ignored', ...labels, reason: 'order.deleted carries only the order id: the order stays as it is here' };
  if (topic === undefined || !ORDER_TOPICS.has(topic))
    return {
      kind: 'ignored',
      ...labels,
      reason: `WooCommerce's ${topic ?? 'delivery without X-WC-Webhook-Topic'} does not concern orders`,
    };
  const body = parseJson(request.body);
  if (body === undefined) return { kind: 'refused', ...labels, reason: 'the body is not UTF-8 JSON' };
  return readOrder(body, topic, deliveryId);
};
