import * as t from 'io-ts';
import type { SourceRequest } from '../../../application/ports/source-platform';
import type { NewOrder } from '../../../domain/order';
import type { OrderStatus } from '../../../domain/order-status';
import type { SourceReading } from '../../../domain/source-reading';
import { decodeTouch, mergeTouches, trackingOf, type Touch } from '../../../domain/touch';
import {
  centsOfText,
  currencyCode,
  customerOf,
  decimalText,
  firstProblem,
  givenAmounts,
  lineItemsOf,
  maybe,
  MAX_SHOP_LENGTH,
  personName,
  platformDate,
  productsOf,
  statusDates,
  text,
  utmTouch,
} from '../payloads';
import { readBodyJson } from '../exact-json';
import { paymentMethodOf } from '../payment-methods';

/**
 * What a Shopify order webhook says (shopify.dev/docs/api/admin-rest/latest/resources/order and
 * .../resources/webhook, topics orders/create, orders/paid, orders/updated, orders/cancelled,
 * refunds/create). Every order topic carries the whole order, so any of them can record it; the
 * order is `shopify:<shop>:<order id>`, the shop being the `<name>.myshopify.com` of
 * `X-Shopify-Shop-Domain` (shopify.dev/docs/apps/build/webhooks/subscribe/https), which a shop keeps
 * for life. Ids pass 2^53 (820982911946154508) and are read as sent (exact-json.ts).
 */

const LineItem = t.intersection([
  t.type({ quantity: t.number, price: decimalText }),
  t.partial({
    name: maybe(t.string),
    title: maybe(t.string),
    sku: maybe(t.string),
    product_id: maybe(t.union([t.number, t.string])),
    variant_id: maybe(t.union([t.number, t.string])),
  }),
]);

const Order = t.intersection([
  t.type({ id: t.union([t.number, t.string]), updated_at: platformDate, created_at: platformDate, financial_status: maybe(t.string) }),
  t.partial({
    name: maybe(t.string),
    cancelled_at: maybe(t.string),
    processed_at: maybe(platformDate),
    currency: maybe(t.string),
    total_price: maybe(t.unknown),
    total_discounts: maybe(t.unknown),
    total_tax: maybe(t.unknown),
    total_shipping_price_set: maybe(t.partial({ shop_money: maybe(t.partial({ amount: maybe(t.unknown) })) })),
    test: maybe(t.boolean),
    landing_site: maybe(t.string),
    email: maybe(t.string),
    phone: maybe(t.string),
    customer: maybe(t.partial({ email: maybe(t.string), first_name: maybe(t.string), last_name: maybe(t.string), phone: maybe(t.string) })),
    line_items: maybe(t.array(t.unknown)),
    payment_gateway_names: maybe(t.array(t.string)),
    gateway: maybe(t.string),
  }),
]);
type Order = t.TypeOf<typeof Order>;

const Refund = t.intersection([
  t.type({ order_id: t.union([t.number, t.string]), created_at: platformDate }),
  t.partial({
    transactions: maybe(t.array(t.partial({ kind: maybe(t.string), status: maybe(t.string), amount: maybe(t.unknown) }))),
  }),
]);

/**
 * Shopify's financial_status, the field that says whether the money arrived → the order's status.
 * Pending (cash on delivery, a bank deposit, a manual payment awaited), authorized (not captured) and
 * partially paid are not paid yet; a partial refund leaves the order paid; voided (an authorization
 * cancelled) and expired are refused.
 */
const STATUS: Readonly<Record<string, OrderStatus>> = {
  pending: 'pending',
  authorized: 'pending',
  partially_paid: 'pending',
  paid: 'paid',
  partially_refunded: 'paid',
  refunded: 'refunded',
  voided: 'refused',
  expired: 'refused',
};

/** The campaign fields of the landing page's query (`utm_*`), then of a compact touch in its `sck` for those missing. */
const touchOf = (landingSite: string | null | undefined): Touch => {
  if (landingSite === null || landingSite === undefined) return {};
  let query: URLSearchParams;
  try {
    query = new URL(landingSite, 'https://shop.invalid').searchParams;
  } catch {
    return {};
  }
  const get = (name: string): string | undefined => query.get(name) ?? undefined;
  const compact = get('sck');
  return mergeTouches(utmTouch(get), (compact === undefined ? undefined : decodeTouch(compact)) ?? {});
};

/** The order as the service records it, or why it cannot be. */
const newOrderOf = (order: Order, externalId: string, status: OrderStatus): NewOrder | string => {
  const currency = currencyCode.decode(order.currency);
  if (currency._tag === 'Left') return 'the order has no currency';
  const gross = centsOfText(order.total_price);
  if (gross === undefined) return 'the order has no total_price (a decimal amount)';
  const items = lineItemsOf(LineItem, order.line_items ?? []);
  if (typeof items === 'string') return items;
  const products = productsOf(
    items,
    (item) => ({
      name: text(item.title) ?? text(item.name),
      externalId: item.product_id,
      sku: item.sku,
      quantity: item.quantity,
      unitPriceCents: item.price,
    }),
    { name: text(order.name) ?? `Shopify order ${order.id}`, cents: gross },
  );
  const shipping = centsOfText(order.total_shipping_price_set?.shop_money?.amount);
  const discount = centsOfText(order.total_discounts);
  const taxes = centsOfText(order.total_tax);
  const name = personName(order.customer?.first_name, order.customer?.last_name);
  const customer = customerOf({ email: order.customer?.email ?? order.email, name, phone: order.customer?.phone ?? order.phone });
  return {
    externalId,
    platform: 'shopify',
    paymentMethod: paymentMethodOf(order.payment_gateway_names?.[0] ?? order.gateway),
    status,
    isTest: order.test === true,
    createdAt: order.created_at,
    ...statusDates(status, order.processed_at ?? order.created_at, order.updated_at),
    amounts: {
      currency: currency.right,
      grossCents: gross,
      netToSellerCents: gross,
      ...givenAmounts({ discountCents: discount, shippingCents: shipping, taxesCents: taxes }),
    },
    products,
    tracking: trackingOf(touchOf(order.landing_site)),
    ...(customer === undefined ? {} : { customer }),
  };
};

const readOrder = (body: unknown, shop: string, labels: { eventId?: string; topic: string }): SourceReading => {
  const decoded = Order.decode(body);
  if (decoded._tag === 'Left') return { kind: 'refused', ...labels, reason: firstProblem(decoded.left) };
  const order = decoded.right;
  const financial = order.financial_status ?? 'pending';
  const mapped = STATUS[financial];
  if (mapped === undefined) return { kind: 'refused', ...labels, reason: `financial_status ${financial} is not one Shopify documents` };
  const cancelled = typeof order.cancelled_at === 'string' && mapped === 'pending';
  const status: OrderStatus = cancelled ? 'refused' : mapped;
  const externalId = `shopify:${shop}:${order.id}`;
  const created = newOrderOf(order, externalId, status);
  const note = cancelled
    ? `cancelled while ${financial}`
    : financial === 'partially_refunded'
      ? 'partially refunded: the order stays paid'
      : financial !== status
        ? `financial_status ${financial}`
        : undefined;
  return {
    kind: 'order',
    ...labels,
    externalId,
    formerExternalId: `shopify:${order.id}`,
    at: order.updated_at,
    status,
    ...(typeof created === 'string' ? { cannotCreate: created } : { order: created }),
    ...(note === undefined ? {} : { note }),
  };
};

const readRefund = (body: unknown, shop: string, labels: { eventId?: string; topic: string }): SourceReading => {
  const decoded = Refund.decode(body);
  if (decoded._tag === 'Left') return { kind: 'refused', ...labels, reason: firstProblem(decoded.left) };
  const refund = decoded.right;
  const refunded = (refund.transactions ?? [])
    .filter((transaction) => transaction.kind === 'refund' && transaction.status === 'success')
    .reduce((sum, transaction) => sum + (centsOfText(transaction.amount) ?? 0), 0);
  const externalId = `shopify:${shop}:${refund.order_id}`;
  return {
    kind: 'order',
    ...labels,
    externalId,
    formerExternalId: `shopify:${refund.order_id}`,
    at: refund.created_at,
    status: 'refunded',
    refundedCents: refunded,
    cannotCreate: `no order ${externalId} to refund yet: refunds/create does not carry the order (its orders/create does)`,
  };
};

const ORDER_TOPICS = new Set(['orders/create', 'orders/paid', 'orders/updated', 'orders/cancelled']);

/** A shop's permanent domain as Shopify names it (`jsmith.myshopify.com`), lower-cased; undefined for anything else. */
const shopOf = (domain: string | undefined): string | undefined => {
  const shop = domain?.trim().toLowerCase();
  return shop !== undefined && shop.length <= MAX_SHOP_LENGTH && /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(shop) ? shop : undefined;
};

/** A body that opens with `<`: a webhook made with Shopify's XML format. */
const looksLikeXml = (body: Uint8Array): boolean => /^\s*</.test(Buffer.from(body.subarray(0, 64)).toString('latin1'));

export const readShopify = (request: SourceRequest): SourceReading => {
  const topic = request.headers['x-shopify-topic'];
  const eventId = request.headers['x-shopify-event-id'] ?? request.headers['x-shopify-webhook-id'];
  const labels = { ...(eventId === undefined ? {} : { eventId }), topic: topic ?? '(none)' };
  if (request.headers['x-shopify-test'] === 'true') return { kind: 'ignored', ...labels, reason: "Shopify's test notification" };
  if (topic === undefined || (!ORDER_TOPICS.has(topic) && topic !== 'refunds/create'))
    return { kind: 'ignored', ...labels, reason: `Shopify's ${topic ?? 'delivery without X-Shopify-Topic'} does not concern orders` };
  const shop = shopOf(request.headers['x-shopify-shop-domain']);
  if (shop === undefined)
    return {
      kind: 'refused',
      ...labels,
      reason:
        'X-Shopify-Shop-Domain is missing or not a shop’s domain (<name>.myshopify.com): Shopify sends it with every webhook, and a relay between Shopify and this service must pass it on as it is',
    };
  if (looksLikeXml(request.body))
    return {
      kind: 'refused',
      ...labels,
      reason:
        'the webhook sends XML: in Shopify admin (Settings → Notifications → Webhooks) delete it and create it again with the format JSON',
    };
  const body = readBodyJson(request.body);
  if (!body.ok) return { kind: 'refused', ...labels, reason: body.problem };
  return topic === 'refunds/create' ? readRefund(body.value, shop, labels) : readOrder(body.value, shop, labels);
};
