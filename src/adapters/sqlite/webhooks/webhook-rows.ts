import * as t from 'io-ts';
import { DELIVERY_STATUSES, type Delivery, type DeliveryAttempt } from '../../../domain/delivery';
import { WEBHOOK_EVENT_TYPES, type WebhookEndpoint } from '../../../domain/webhook';
import { oneOfCodec } from '../../persistence/corrupt-record';
import { flag, instant, jsonObject, jsonText, optionalInstant, positiveCount, present } from '../sqlite-codecs';

const eventTypeCodec = oneOfCodec(WEBHOOK_EVENT_TYPES, 'WebhookEventType');
const statusCodec = oneOfCodec(DELIVERY_STATUSES, 'DeliveryStatus');
const optionalText = t.union([t.null, t.string]);

/** A row of `webhook_endpoints` as read back. */
export const endpointRowCodec = t.type({
  id: t.string,
  dashboard_id: t.string,
  url: t.string,
  events: jsonText(t.array(eventTypeCodec)),
  description: optionalText,
  enabled: flag,
  disabled_reason: optionalText,
  secret: t.string,
  previous_secret: optionalText,
  previous_secret_expires_at: optionalInstant,
  created_at: instant,
  updated_at: instant,
  version: positiveCount,
});

export const ENDPOINT_COLUMNS: readonly string[] = Object.keys(endpointRowCodec.props);

export type EndpointRow = { readonly [K in keyof typeof endpointRowCodec.props]: string | number | null };

export const endpointToRow = (endpoint: WebhookEndpoint): EndpointRow => ({
  id: endpoint.id,
  dashboard_id: endpoint.dashboardId,
  url: endpoint.url,
  events: JSON.stringify(endpoint.events),
  description: endpoint.description ?? null,
  enabled: endpoint.enabled ? 1 : 0,
  disabled_reason: endpoint.disabledReason ?? null,
  secret: endpoint.secret,
  previous_secret: endpoint.previousSecret?.secret ?? null,
  previous_secret_expires_at: endpoint.previousSecret?.expiresAt.getTime() ?? null,
  created_at: endpoint.createdAt.getTime(),
  updated_at: endpoint.updatedAt.getTime(),
  version: endpoint.version,
});

export const endpointFromRow = (row: t.TypeOf<typeof endpointRowCodec>): WebhookEndpoint => ({
  id: row.id,
  dashboardId: row.dashboard_id,
  url: row.url,
  events: row.events,
  ...present('description', row.description),
  enabled: row.enabled,
  ...present('disabledReason', row.disabled_reason),
  secret: row.secret,
  ...(row.previous_secret === null || row.previous_secret_expires_at === null
    ? {}
    : { previousSecret: { secret: row.previous_secret, expiresAt: row.previous_secret_expires_at } }),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  version: row.version,
});

const attemptCodec = t.intersection([
  t.type({ at: t.number, durationMs: t.number }),
  t.partial({ responseStatus: t.number, responseBody: t.string, responseBodyTruncated: t.boolean, error: t.string }),
]);

/**
 * A row of `webhook_deliveries` as read back; `attempts` is JSON with instants as milliseconds (an
 * attempt's response body rides in it: the rows written before it was kept have none, as their
 * attempts had none, so the column needed no migration).
 */
export const deliveryRowCodec = t.type({
  id: t.string,
  dashboard_id: t.string,
  endpoint_id: t.string,
  event_id: t.string,
  event_type: eventTypeCodec,
  status: statusCodec,
  attempts: jsonText(t.array(attemptCodec)),
  next_attempt_at: optionalInstant,
  automatic_retries: flag,
  created_at: instant,
  payload: jsonText(jsonObject),
  body: t.string,
});

export const DELIVERY_COLUMNS: readonly string[] = Object.keys(deliveryRowCodec.props);

const attemptToJson = (attempt: DeliveryAttempt): t.TypeOf<typeof attemptCodec> => ({
  at: attempt.at.getTime(),
  durationMs: attempt.durationMs,
  ...(attempt.responseStatus === undefined ? {} : { responseStatus: attempt.responseStatus }),
  ...(attempt.responseBody === undefined ? {} : { responseBody: attempt.responseBody }),
  ...(attempt.responseBodyTruncated === undefined ? {} : { responseBodyTruncated: attempt.responseBodyTruncated }),
  ...(attempt.error === undefined ? {} : { error: attempt.error }),
});

const attemptFromJson = (attempt: t.TypeOf<typeof attemptCodec>): DeliveryAttempt => ({
  at: new Date(attempt.at),
  durationMs: attempt.durationMs,
  ...(attempt.responseStatus === undefined ? {} : { responseStatus: attempt.responseStatus }),
  ...(attempt.responseBody === undefined ? {} : { responseBody: attempt.responseBody }),
  ...(attempt.responseBodyTruncated === undefined ? {} : { responseBodyTruncated: attempt.responseBodyTruncated }),
  ...(attempt.error === undefined ? {} : { error: attempt.error }),
});

/** The columns an attempt changes. */
export const deliveryProgressToRow = (delivery: Delivery): Record<string, string | number | null> => ({
  status: delivery.status,
  attempts: JSON.stringify(delivery.attempts.map(attemptToJson)),
  next_attempt_at: delivery.nextAttemptAt?.getTime() ?? null,
});

export const deliveryToRow = (delivery: Delivery): Record<string, string | number | null> => ({
  id: delivery.id,
  dashboard_id: delivery.dashboardId,
  endpoint_id: delivery.endpointId,
  event_id: delivery.eventId,
  event_type: delivery.eventType,
  ...deliveryProgressToRow(delivery),
  automatic_retries: delivery.automaticRetries ? 1 : 0,
  created_at: delivery.createdAt.getTime(),
  payload: JSON.stringify(delivery.payload),
  body: delivery.body,
});

export const deliveryFromRow = (row: t.TypeOf<typeof deliveryRowCodec>): Delivery => ({
  id: row.id,
  dashboardId: row.dashboard_id,
  endpointId: row.endpoint_id,
  eventId: row.event_id,
  eventType: row.event_type,
  status: row.status,
  attempts: row.attempts.map(attemptFromJson),
  ...present('nextAttemptAt', row.next_attempt_at),
  createdAt: row.created_at,
  payload: row.payload,
  body: row.body,
  automaticRetries: row.automatic_retries,
});
