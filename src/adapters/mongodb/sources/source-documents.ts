import * as t from 'io-ts';
import { SOURCE_DELIVERY_OUTCOMES, SOURCE_PLATFORMS, type Source, type SourceDelivery } from '../../../domain/source';
import { oneOfCodec } from '../../persistence/corrupt-record';
import { bsonCount, bsonDate, withoutUndefined } from '../bson-codecs';

/** A source as read from `sources`; `_id` is the source id, `slot` its place among the dashboard's sources. */
export const sourceDocumentCodec = t.type({
  _id: t.string,
  dashboardId: t.string,
  platform: oneOfCodec(SOURCE_PLATFORMS),
  name: t.string,
  secret: t.string,
  createdAt: bsonDate,
  updatedAt: bsonDate,
  version: bsonCount,
});

export interface SourceDocument {
  readonly _id: string;
  readonly dashboardId: string;
  readonly [field: string]: unknown;
}

export const sourceToDocument = (source: Source): SourceDocument => ({
  _id: source.id,
  dashboardId: source.dashboardId,
  platform: source.platform,
  name: source.name,
  secret: source.secret,
  createdAt: source.createdAt,
  updatedAt: source.updatedAt,
  version: source.version,
});

export const sourceFromDocument = (document: t.TypeOf<typeof sourceDocumentCodec>): Source => ({
  id: document._id,
  dashboardId: document.dashboardId,
  platform: document.platform,
  name: document.name,
  secret: document.secret,
  createdAt: document.createdAt,
  updatedAt: document.updatedAt,
  version: document.version,
});

/** One entry of a source's log, inside the log's document. */
export const deliveryEntryCodec = t.intersection([
  t.type({ id: t.string, receivedAt: bsonDate, outcome: oneOfCodec(SOURCE_DELIVERY_OUTCOMES) }),
  t.partial({ eventId: t.string, topic: t.string, reason: t.string, externalId: t.string }),
]);

/** A source's log as read from `source_deliveries`: `_id` is the source id, `deliveries` oldest first. */
export const deliveryLogDocumentCodec = t.type({ _id: t.string, dashboardId: t.string, deliveries: t.array(deliveryEntryCodec) });

export interface DeliveryLogDocument {
  readonly _id: string;
  readonly dashboardId: string;
  readonly deliveries: readonly Record<string, unknown>[];
}

export const deliveryToEntry = (delivery: SourceDelivery): Record<string, unknown> =>
  withoutUndefined({
    id: delivery.id,
    receivedAt: delivery.receivedAt,
    eventId: delivery.eventId,
    topic: delivery.topic,
    outcome: delivery.outcome,
    reason: delivery.reason,
    externalId: delivery.externalId,
  });

export const deliveryFromEntry = (
  log: { readonly _id: string; readonly dashboardId: string },
  entry: t.TypeOf<typeof deliveryEntryCodec>,
): SourceDelivery => ({
  id: entry.id,
  sourceId: log._id,
  dashboardId: log.dashboardId,
  receivedAt: entry.receivedAt,
  ...(entry.eventId === undefined ? {} : { eventId: entry.eventId }),
  ...(entry.topic === undefined ? {} : { topic: entry.topic }),
  outcome: entry.outcome,
  ...(entry.reason === undefined ? {} : { reason: entry.reason }),
  ...(entry.externalId === undefined ? {} : { externalId: entry.externalId }),
});
