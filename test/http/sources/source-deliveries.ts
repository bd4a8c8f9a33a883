import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Stripe from 'stripe';
import type { SourcePlatformName } from '../../../src/domain/source';
import type { Harness } from '../harness';

/** The fixtures of test/fixtures/sources (see its README for the documentation page each follows). */
const FIXTURES = join(__dirname, '../../../../test/fixtures/sources');

export const fixture = (platform: SourcePlatformName, name: string): any =>
  JSON.parse(readFileSync(join(FIXTURES, platform, `${name}.json`), 'utf8'));

const stripe = new Stripe('sk_test_unused');

/** What the helpers below need of a test: the service and a token of its dashboard (a Harness is one). */
export type SourceClient = Pick<Harness, 'api' | 'token'>;

export const STRIPE_SECRET = 'whsec_test_5WkEHwNyqG4R0eX1pV3sLb';
export const SHOPIFY_SECRET = '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';
export const WOOCOMMERCE_SECRET = 'wc secret: <&> 9f3a';
export const HOTTOK = 'ysewXlAZI1iHdUFqC4ZcV1J5RLhiVe518471';

/** The shop of Shopify's examples (`order_status_url` of its orders/create example), in X-Shopify-Shop-Domain. */
export const SHOPIFY_SHOP = 'jsmith.myshopify.com';
/** A WooCommerce site's home URL, in X-WC-Webhook-Source, and the name it has in the orders' keys. */
export const WOOCOMMERCE_SITE = 'https://shop.example/';
export const WOOCOMMERCE_SHOP = 'shop.example';

/** The raw text of a fixture, for bodies whose numbers JSON.parse would round (Shopify's 18-digit ids). */
export const fixtureText = (platform: SourcePlatformName, name: string): string =>
  readFileSync(join(FIXTURES, platform, `${name}.json`), 'utf8');

/** Makes a source through the API; its id and url. */
export const createSource = async (h: SourceClient, platform: SourcePlatformName, secret: string): Promise<{ id: string; url: string }> => {
  const res = await h.api.request('POST', '/api/v1/sources', { token: h.token, body: { platform, name: `${platform} shop`, secret } });
  if (res.status !== 201) throw new Error(`source creation answered ${res.status}: ${res.text}`);
  return res.body.source;
};

/** A Stripe event, signed as Stripe signs it (the `stripe` package), `secondsAgo` before now; a string is sent as it is. */
export const postStripe = (h: SourceClient, sourceId: string, event: unknown, options: { secret?: string; secondsAgo?: number } = {}) => {
  const payload = typeof event === 'string' ? event : JSON.stringify(event);
  const header = stripe.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? STRIPE_SECRET,
    timestamp: Math.floor(Date.now() / 1000) - (options.secondsAgo ?? 0),
  });
  return h.api.request('POST', `/in/v1/${sourceId}`, {
    rawBody: payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
  });
};

/**
 * A Shopify webhook, signed as Shopify's documentation shows (base64 HMAC-SHA256 of the raw body), from
 * the shop `options.shop` (SHOPIFY_SHOP); a string body is sent as it is.
 */
export const postShopify = (
  h: SourceClient,
  sourceId: string,
  topic: string,
  body: unknown,
  options: { secret?: string; eventId?: string; shop?: string; headers?: Record<string, string> } = {},
) => {
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  const hmac = createHmac('sha256', options.secret ?? SHOPIFY_SECRET)
    .update(payload)
    .digest('base64');
  return h.api.request('POST', `/in/v1/${sourceId}`, {
    rawBody: payload,
    headers: {
      'content-type': 'application/json',
      'x-shopify-hmac-sha256': hmac,
      'x-shopify-topic': topic,
      'x-shopify-shop-domain': options.shop ?? SHOPIFY_SHOP,
      'x-shopify-event-id': options.eventId ?? `evt-${Math.random().toString(36).slice(2)}`,
      ...(options.headers ?? {}),
    },
  });
};

/**
 * A WooCommerce delivery, signed as WC_Webhook::generate_signature signs it (base64 HMAC-SHA256 of the
 * body), with the headers of WC_Webhook::deliver, from the site `options.site` (WOOCOMMERCE_SITE).
 */
export const postWooCommerce = (
  h: SourceClient,
  sourceId: string,
  topic: string,
  body: unknown,
  options: { secret?: string; deliveryId?: string; site?: string } = {},
) => {
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  return h.api.request('POST', `/in/v1/${sourceId}`, {
    rawBody: payload,
    headers: {
      'content-type': 'application/json',
      'x-wc-webhook-source': options.site ?? WOOCOMMERCE_SITE,
      'x-wc-webhook-topic': topic,
      'x-wc-webhook-resource': topic.split('.')[0],
      'x-wc-webhook-event': topic.split('.')[1] ?? '',
      'x-wc-webhook-signature': createHmac('sha256', options.secret ?? WOOCOMMERCE_SECRET)
        .update(payload)
        .digest('base64'),
      'x-wc-webhook-id': '12',
      'x-wc-webhook-delivery-id': options.deliveryId ?? `d-${Math.random().toString(36).slice(2)}`,
    },
  });
};

/**
 * A Hotmart 2.0.0 event with the account's hottok in X-HOTMART-HOTTOK and in the body's `hottok`, as
 * Hotmart sends it; `header: false` leaves the header out, as some of its deliveries do.
 */
export const postHotmart = (
  h: SourceClient,
  sourceId: string,
  event: Record<string, unknown>,
  options: { hottok?: string; header?: boolean } = {},
) => {
  const hottok = options.hottok ?? HOTTOK;
  return h.api.request('POST', `/in/v1/${sourceId}`, {
    rawBody: JSON.stringify({ ...event, hottok }),
    headers: { 'content-type': 'application/json', ...(options.header === false ? {} : { 'x-hotmart-hottok': hottok }) },
  });
};

/**
 * A Hotmart event from the documented example (whose product id 0 marks Hotmart's test events), for a
 * real product, with another event name, id, time, or purchase fields.
 */
export const hotmartEvent = (
  event: string,
  changes: { id?: string; creation_date?: number; purchase?: Record<string, unknown>; product?: Record<string, unknown> } = {},
) => {
  const example = fixture('hotmart', 'purchase-approved');
  return {
    ...example,
    id: changes.id ?? `evt-${event}-${Math.random().toString(36).slice(2)}`,
    event,
    creation_date: changes.creation_date ?? example.creation_date,
    data: {
      ...example.data,
      product: { ...example.data.product, id: 4774438, name: 'How to Make Clear Ice', ...(changes.product ?? {}) },
      purchase: { ...example.data.purchase, ...(changes.purchase ?? {}) },
    },
  };
};

/** The source's log, newest first. */
export const logOf = async (h: SourceClient, sourceId: string): Promise<any[]> => {
  const res = await h.api.request('GET', `/api/v1/sources/${sourceId}/deliveries?pageSize=100`, { token: h.token });
  if (res.status !== 200) throw new Error(`deliveries answered ${res.status}`);
  return res.body.deliveries;
};

/** A Stripe event from a fixture, with another id, type, time or object fields. */
export const stripeEvent = (
  name: string,
  changes: { id?: string; type?: string; created?: number; object?: Record<string, unknown> } = {},
) => {
  const event = fixture('stripe', name);
  return {
    ...event,
    ...(changes.id === undefined ? {} : { id: changes.id }),
    ...(changes.type === undefined ? {} : { type: changes.type }),
    ...(changes.created === undefined ? {} : { created: changes.created }),
    data: { object: { ...event.data.object, ...(changes.object ?? {}) } },
  };
};
