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
  MAX_SHOP_LENGTH,
  personName,
  productsOf,
  statusDates,
  utmTouch,
} from '../payloads';
import { readBodyJson } from '../exact-json';
import { paymentMethodOf } from '../payment-methods';
import { pingOf } from './woocommerce-signature';

/**
 * What a WooCommerce order webhook says (woocommerce.github.io/woocommerce-rest-api-docs, "Order
 * properties" and "Webhooks"): every order topic but order.deleted carries the order as the REST API
 * (v3) gives it. WooCommerce numbers orders per site, so the order is `woocommerce:<site>:<order id>`,
 * the site being the `X-WC-Webhook-Source` WC_Webhook::deliver sends (its home_url, as
 * `shop.example.com` or `example.com/shop`).
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
 * The statuses that decide on their own: pending (awaiting payment) and on-hold (awaiting a transfer, a
 * check, a review) are not paid, whatever else the order says; failed and cancelled were never paid;
 * refunded is refunded. Every other status (processing, completed, a plugin's) is paid exactly when
 * WooCommerce recorded the payment's date (below).
 */
const STATUS: Readonly<Record<string, OrderStatus>> = {
  pending: 'pending',
  'on-hold': 'pending',
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
  return utmTouch((field) => values.get(`_wc_order_attribution_${field}`));
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
  const products = productsOf(
    items,
    (item) => ({
      name: item.name === null || item.name === undefined ? undefined : unescaped(item.name),
      externalId: item.product_id,
      sku: item.sku,
      quantity: item.quantity,
      // The line's subtotal (before discounts) shared by its units, to the nearest cent.
      unitPriceCents: Math.round(item.subtotal / item.quantity),
    }),
    { name: `WooCommerce order ${order.number ?? order.id}`, cents: gross },
  );
  const discount = centsOfText(order.discount_total);
  const shipping = centsOfText(order.shipping_total);
  const taxes = centsOfText(order.total_tax);
  const billing = order.billing;
  const name = personName(billing?.first_name, billing?.last_name);
  const customer = customerOf({ email: billing?.email, name, phone: billing?.phone });
  return {
    externalId,
    platform: 'woocommerce',
    paymentMethod: paymentMethodOf(order.payment_method),
    status,
    isTest: false,
    createdAt: order.date_created_gmt,
    ...statusDates(status, order.date_paid_gmt ?? at, at),
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

/**
 * The status WooCommerce reports, read as the service's, with a word on what was read as what. A
 * payment is WooCommerce's `date_paid`: a gateway sets it when the money is taken (payment_complete),
 * while cash on delivery leaves a processing order without it until the order is completed
 * (WC_Gateway_COD makes completed its paid status), so processing alone is not paid.
 */
const statusOf = (order: Order): { status: OrderStatus; note?: string } | { ignored: string } => {
  const mapped = STATUS[order.status];
  if (mapped !== undefined) return { status: mapped };
  const ignored = NOT_A_PAYMENT[order.status];
  if (ignored !== undefined) return { ignored };
  const paid = order.date_paid_gmt !== null && order.date_paid_gmt !== undefined;
  if (paid)
    return order.status === 'processing' || order.status === 'completed'
      ? { status: 'paid' }
      : { status: 'paid', note: `status ${order.status} read as paid (it has date_paid_gmt)` };
  return { status: 'pending', note: `status ${order.status} without date_paid_gmt: WooCommerce has recorded no payment yet` };
};

/**
 * The site a delivery comes from: `X-WC-Webhook-Source`, WordPress's home URL
 * (`https://shop.example.com/`), as its host and path (`shop.example.com`, `example.com/shop`): the
 * same whether the site is reached over http or https. Undefined when it is missing or not a URL.
 */
const siteOf = (source: string | undefined): string | undefined => {
  if (source === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(source.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  const site = `${url.host}${url.pathname.replace(/\/+$/, '')}`;
  return site.length <= MAX_SHOP_LENGTH ? site : undefined;
};

/**
 * What to change in WooCommerce when a webhook's API version sends another shape than the REST API's
 * v3 order: the legacy API wraps the order in `{ "order": … }`, WP REST API Integration v1 has no
 * `date_created_gmt`.
 */
const API_VERSION =
  'set the webhook’s API version to WP REST API Integration v3 (WooCommerce → Settings → Advanced → Webhooks → the webhook)';
const LegacyOrder = t.type({ order: t.UnknownRecord });
const V1Order = t.type({ id: t.unknown, date_created: t.string });

const otherApiVersion = (body: unknown): string | undefined => {
  if (LegacyOrder.is(body) && !t.type({ id: t.unknown }).is(body))
    return `the webhook sends the legacy API’s format ({ "order": … }): ${API_VERSION}`;
  if (V1Order.is(body) && !t.type({ date_created_gmt: t.unknown }).is(body))
    return `the webhook sends the order without date_created_gmt, as WP REST API Integration v1 does: ${API_VERSION}`;
  return undefined;
};

const readOrder = (body: unknown, site: string, topic: string, deliveryId: string | undefined): SourceReading => {
  const other = otherApiVersion(body);
  if (other !== undefined) return { kind: 'refused', topic, ...(deliveryId === undefined ? {} : { eventId: deliveryId }), reason: other };
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
  const externalId = `woocommerce:${site}:${order.id}`;
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
    formerExternalId: `woocommerce:${order.id}`,
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
  const site = siteOf(request.headers['x-wc-webhook-source']);
  if (site === undefined)
    return {
      kind: 'refused',
      ...labels,
      reason:
        'X-WC-Webhook-Source is missing or not the site’s address: WooCommerce sends it with every webhook, and a relay between WooCommerce and this service must pass it on as it is',
    };
  const body = readBodyJson(request.body);
  if (!body.ok) return { kind: 'refused', ...labels, reason: body.problem };
  return readOrder(body.value, site, topic, deliveryId);
};
