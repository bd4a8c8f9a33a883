import * as t from 'io-ts';
import { ORDER_EVENT_TYPES } from '../../../domain/order-events';
import {
  MAX_WEBHOOK_DESCRIPTION_LENGTH,
  MAX_WEBHOOKS_PER_DASHBOARD,
  WEBHOOK_EVENT_TYPES,
  type WebhookEventType,
} from '../../../domain/webhook';
import { RESPONSE_BODY_LIMIT_BYTES } from '../../../domain/delivery';
import { WEBHOOK_SECRET_SHAPE } from '../../system/random-webhook-secrets';
import { arrayOf, bool, check, int, nullable, oneOf, str, strictObject } from '../kit/codec-kit';
import { utcDateTime } from '../kit/dates';
import { described, discriminated } from '../kit/json-schema';
import { listPage } from '../kit/list-query';
import { orderStatus } from '../orders/order-codecs';
import { OrderDetail, OrderListItem } from '../orders/order-views';
import { deliveryStatus, webhookEventType } from './webhook-codecs';

/** Codecs of what the service answers about webhooks, and of the events it sends (decision 0012). */

const serviceId = described(t.string, 'Made by the service; opaque.');

const webhookFields = {
  id: described(t.string, 'Made by the service (`whk_…`); opaque.'),
  url: t.string,
  events: described(
    arrayOf(webhookEventType, 0, WEBHOOK_EVENT_TYPES.length),
    'The event types sent to the endpoint; empty means every type.',
  ),
  description: nullable(str(1, MAX_WEBHOOK_DESCRIPTION_LENGTH)),
  enabled: described(bool, 'A disabled endpoint is sent nothing: no new deliveries, and its pending ones fail unsent when due.'),
  disabledReason: described(
    nullable(t.string),
    'Why the service disabled the endpoint (its receiver answered 410 Gone); `null` otherwise.',
  ),
  createdAt: utcDateTime,
};

export const Webhook = strictObject(
  'Webhook',
  webhookFields,
  {},
  { description: 'A webhook endpoint, as listed and read: never its secret.' },
);

const WebhookWithSecret = strictObject('WebhookWithSecret', {
  ...webhookFields,
  secret: described(
    check('WebhookSecret', (u): u is string => typeof u === 'string' && WEBHOOK_SECRET_SHAPE.test(u), 'must be a webhook secret', {
      type: 'string',
      pattern: WEBHOOK_SECRET_SHAPE.source,
    }),
    '`whsec_` and the base64 of 32 random bytes: the key of the signatures (Standard Webhooks). Shown on creation and rotation only.',
  ),
});

export const WebhookResponse = strictObject('WebhookResponse', { webhook: Webhook });
export const WebhookWithSecretResponse = strictObject('WebhookWithSecretResponse', { webhook: WebhookWithSecret });
export const WebhookList = strictObject('WebhookList', {
  webhooks: described(arrayOf(Webhook, 0, MAX_WEBHOOKS_PER_DASHBOARD), 'Oldest first.'),
});

const eventId = described(t.string, 'The event id (`evt_…`), also the `webhook-id` header of every attempt.');
const previousStatus = described(orderStatus, 'On the events of a PATCH that changed the status: the status before it.');
const TestEventData = strictObject('TestEventData', { webhook: strictObject('TestEventWebhook', { id: serviceId }) });

const envelope = (name: string, type: t.Mixed, data: t.Mixed, description: string) =>
  strictObject(name, { id: eventId, type, timestamp: described(utcDateTime, 'When it happened.'), data }, {}, { description });

const orderEventType = oneOf(ORDER_EVENT_TYPES);
const testEventType = oneOf(['webhook.test'] as const);

/** The events of one kind, in their full form (sent) and their reduced form (the delivery log). */
const events = (kind: 'Order' | 'Test', type: t.Mixed, data: t.Mixed, summaryData: t.Mixed) => ({
  full: envelope(
    `${kind}WebhookEvent`,
    type,
    data,
    `A webhook request's body, for ${kind === 'Order' ? 'an order event' : 'the test event'}.`,
  ),
  summary: envelope(
    `${kind}WebhookEventSummary`,
    type,
    summaryData,
    `The delivery log's copy of ${kind === 'Order' ? 'an order event' : 'the test event'}.`,
  ),
});

const orderEvents = events(
  'Order',
  orderEventType,
  strictObject(
    'OrderEventData',
    { order: described(OrderDetail, 'The order as GET /api/v1/orders/{externalId} answers it, with its version.') },
    { previousStatus },
  ),
  strictObject(
    'OrderEventSummaryData',
    { order: described(OrderListItem, 'The order as a list item: never its customer, products, metadata, fees or trackingExtras.') },
    { previousStatus },
  ),
);
const testEvents = events('Test', testEventType, TestEventData, TestEventData);

/** The body of a webhook request of each event type. */
export const webhookEventOf = (type: WebhookEventType): t.Mixed => (type === 'webhook.test' ? testEvents.full : orderEvents.full);

/** The body of every webhook request, told apart by `type`. */
export const WebhookEvent = discriminated(
  'WebhookEvent',
  'type',
  [
    { codec: orderEvents.full, values: ORDER_EVENT_TYPES },
    { codec: testEvents.full, values: ['webhook.test'] },
  ],
  'The body of a webhook request. Events of one order carry increasing `data.order.version`: a receiver can drop stale ones.',
);

/** The reduced event of the delivery log. */
export const WebhookEventSummary = discriminated(
  'WebhookEventSummary',
  'type',
  [
    { codec: orderEvents.summary, values: ORDER_EVENT_TYPES },
    { codec: testEvents.summary, values: ['webhook.test'] },
  ],
  'An event as the delivery log keeps it: the order in its list-item form.',
);

const DeliveryAttempt = strictObject(
  'DeliveryAttempt',
  { at: utcDateTime, durationMs: int(0, Number.MAX_SAFE_INTEGER) },
  {
    responseStatus: described(int(100, 999), 'The status the receiver answered.'),
    responseBody: described(
      str(0, RESPONSE_BODY_LIMIT_BYTES),
      `The start of the receiver's response body, as text: at most ${RESPONSE_BODY_LIMIT_BYTES} bytes of UTF-8, cut where a ` +
        'character ends, bytes that are not UTF-8 replaced with U+FFFD. Absent when the receiver answered with an empty body, ' +
        'or gave no answer. It is what the receiver sent: treat it as untrusted text.',
    ),
    responseBodyTruncated: described(
      bool,
      'With `responseBody`: true when the body went on beyond what was kept, or was cut off (by the timeout) before its end.',
    ),
    error: described(t.string, 'Why there was no answer: refused, timed out, an address not allowed...'),
  },
);

export const Delivery = strictObject(
  'Delivery',
  {
    id: described(t.string, 'Made by the service (`dlv_…`); opaque.'),
    eventId,
    eventType: webhookEventType,
    status: deliveryStatus,
    attempts: described(t.array(DeliveryAttempt), 'Oldest first.'),
    createdAt: utcDateTime,
    payload: WebhookEventSummary,
  },
  { nextAttemptAt: described(utcDateTime, 'When the next attempt is due; only while pending.') },
  { description: 'One event to one endpoint, and its attempts. Kept 30 days.' },
);

export const DeliveryResponse = strictObject('DeliveryResponse', { delivery: Delivery });
export const DeliveryList = listPage(
  'DeliveryList',
  'deliveries',
  Delivery,
  'Every delivery of the endpoint matching the filter, on all pages.',
);

/** The body of an order event, as a webhook sends it and as the events feed lists it. */
export const OrderWebhookEvent = orderEvents.full;
