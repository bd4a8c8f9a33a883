import * as t from 'io-ts';
import { DELIVERY_RETENTION_MS, DELIVERY_STATUSES, type Delivery, type DeliveryAttempt } from '../../../domain/delivery';
import { WEBHOOK_EVENT_TYPES, type WebhookEndpoint } from '../../../domain/webhook';
import { oneOfCodec } from '../../persistence/corrupt-record';
import { bsonCount, bsonDate, bsonJsonObject, withoutUndefined } from '../bson-codecs';

const eventTypeCodec = oneOfCodec(WEBHOOK_EVENT_TYPES);
const statusCodec = oneOfCodec(DELIVERY_STATUSES);

/** An endpoint as read from `webhook_endpoints`; `_id` is the endpoint id, `slot` its place among the dashboard's 20. */
export const endpointDocumentCodec = t.intersection([
  t.type({
    _id: t.string,
    dashboardId: t.string,
    url: t.string,
    events: t.array(eventTypeCodec),
    enabled: t.boolean,
    secret: t.string,
    createdAt: bsonDate,
    updatedAt: bsonDate,
    version: bsonCount,
  }),
  t.partial({ description: t.string, disabledReason: t.string, previousSecret: t.type({ secret: t.string, expiresAt: bsonDate }) }),
]);

export interface EndpointDocument {
  readonly _id: string;
  readonly dashboardId: string;
  readonly [field: string]: unknown;
}

/** The fields an endpoint may lack: a replace unsets those the new version does not have. */
export const OPTIONAL_ENDPOINT_FIELDS = ['description', 'disabledReason', 'previousSecret'] as const;

export const endpointToDocument = (endpoint: WebhookEndpoint): EndpointDocument =>
  withoutUndefined({
    _id: endpoint.id,
    dashboardId: endpoint.dashboardId,
    url: endpoint.url,
    events: [...endpoint.events],
    description: endpoint.description,
    enabled: endpoint.enabled,
    disabledReason: endpoint.disabledReason,
    secret: endpoint.secret,
    previousSecret: endpoint.previousSecret === undefined ? undefined : { ...endpoint.previousSecret },
    createdAt: endpoint.createdAt,
    updatedAt: endpoint.updatedAt,
    version: endpoint.version,
  });

export const endpointFromDocument = (doc: t.TypeOf<typeof endpointDocumentCodec>): WebhookEndpoint =>
  withoutUndefined({
    id: doc._id,
    dashboardId: doc.dashboardId,
    url: doc.url,
    events: doc.events,
    description: doc.description,
    enabled: doc.enabled,
    disabledReason: doc.disabledReason,
    secret: doc.secret,
    previousSecret:
      doc.previousSecret === undefined ? undefined : { secret: doc.previousSecret.secret, expiresAt: doc.previousSecret.expiresAt },
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    version: doc.version,
  });

const attemptCodec = t.intersection([
  t.type({ at: bsonDate, durationMs: t.number }),
  t.partial({ responseStatus: t.number, responseBody: t.string, responseBodyTruncated: t.boolean, error: t.string }),
]);

/**
 * A delivery as read from `webhook_deliveries`; `_id` is the delivery id. Besides the delivery it
 * holds its lease (`leaseUntil`, the epoch when nobody holds it, and `leaseId`) and `expiresAt`, when
 * the TTL index lets the server delete it.
 */
export const deliveryDocumentCodec = t.intersection([
  t.type({
    _id: t.string,
    dashboardId: t.string,
    endpointId: t.string,
    eventId: t.string,
    eventType: eventTypeCodec,
    status: statusCodec,
    attempts: t.array(attemptCodec),
    automaticRetries: t.boolean,
    createdAt: bsonDate,
    payload: bsonJsonObject,
    body: t.string,
  }),
  t.partial({ nextAttemptAt: bsonDate }),
]);

export interface DeliveryDocument {
  readonly _id: string;
  readonly [field: string]: unknown;
}

/** When nobody holds a delivery: a lease that ended at the epoch. */
export const NO_LEASE = new Date(0);

/** An attempt's fields, the same in the document as in the domain (instants as BSON dates); absent ones left out. */
const attemptFields = (attempt: DeliveryAttempt): DeliveryAttempt =>
  withoutUndefined({
    at: attempt.at,
    durationMs: attempt.durationMs,
    responseStatus: attempt.responseStatus,
    responseBody: attempt.responseBody,
    responseBodyTruncated: attempt.responseBodyTruncated,
    error: attempt.error,
  });

/** The fields an attempt changes; `nextAttemptAt` is unset when the delivery finished. */
export const deliveryProgress = (delivery: Delivery): { $set: Record<string, unknown>; $unset?: Record<string, ''> } => ({
  $set: withoutUndefined({
    status: delivery.status,
    attempts: delivery.attempts.map(attemptFields),
    nextAttemptAt: delivery.nextAttemptAt,
  }),
  ...(delivery.nextAttemptAt === undefined ? { $unset: { nextAttemptAt: '' } } : {}),
});

export const deliveryToDocument = (delivery: Delivery): DeliveryDocument =>
  withoutUndefined({
    _id: delivery.id,
    dashboardId: delivery.dashboardId,
    endpointId: delivery.endpointId,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts.map(attemptFields),
    nextAttemptAt: delivery.nextAttemptAt,
    automaticRetries: delivery.automaticRetries,
    leaseUntil: NO_LEASE,
    createdAt: delivery.createdAt,
    expiresAt: new Date(delivery.createdAt.getTime() + DELIVERY_RETENTION_MS),
    payload: delivery.payload,
    body: delivery.body,
  });

export const deliveryFromDocument = (doc: t.TypeOf<typeof deliveryDocumentCodec>): Delivery =>
  withoutUndefined({
    id: doc._id,
    dashboardId: doc.dashboardId,
    endpointId: doc.endpointId,
    eventId: doc.eventId,
    eventType: doc.eventType,
    status: doc.status,
    attempts: doc.attempts.map(attemptFields),
    nextAttemptAt: doc.nextAttemptAt,
    createdAt: doc.createdAt,
    payload: doc.payload,
    body: doc.body,
    automaticRetries: doc.automaticRetries,
  });
