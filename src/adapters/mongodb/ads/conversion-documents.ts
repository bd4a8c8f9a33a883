import * as t from 'io-ts';
import { AD_PLATFORMS } from '../../../domain/ad-account';
import { CONVERSION_RETENTION_MS, CONVERSION_STATUSES, type ConversionDelivery } from '../../../domain/conversion';
import {
  attemptFromRecord,
  attemptRecordCodec,
  attemptToRecord,
  conversionFromRecord,
  conversionRecordCodec,
  conversionToRecord,
} from '../../persistence/conversion-records';
import { oneOfCodec } from '../../persistence/corrupt-record';
import { bsonDate } from '../bson-codecs';

/**
 * A conversion delivery as read from `conversion_deliveries` (`_id` the delivery id). Besides the
 * delivery it holds its lease (`leaseUntil`, the epoch when nobody holds it, and `leaseId`) and
 * `expiresAt`, when the TTL index lets the server delete it.
 */
export const conversionDocumentCodec = t.intersection([
  t.type({
    _id: t.string,
    dashboardId: t.string,
    adAccountId: t.string,
    platform: oneOfCodec(AD_PLATFORMS),
    eventId: t.string,
    conversion: conversionRecordCodec,
    status: oneOfCodec(CONVERSION_STATUSES),
    attempts: t.array(attemptRecordCodec),
    createdAt: bsonDate,
  }),
  t.partial({ nextAttemptAt: bsonDate }),
]);

export interface ConversionDocument {
  readonly _id: string;
  readonly [field: string]: unknown;
}

export const NO_LEASE = new Date(0);

/** What an attempt changes: its status, attempts and next attempt (unset once finished). */
export const conversionProgress = (delivery: ConversionDelivery) => ({
  $set: {
    status: delivery.status,
    attempts: delivery.attempts.map(attemptToRecord),
    ...(delivery.nextAttemptAt === undefined ? {} : { nextAttemptAt: delivery.nextAttemptAt }),
  },
  ...(delivery.nextAttemptAt === undefined ? { $unset: { nextAttemptAt: '' as const } } : {}),
});

export const conversionToDocument = (delivery: ConversionDelivery): ConversionDocument => ({
  _id: delivery.id,
  dashboardId: delivery.dashboardId,
  adAccountId: delivery.adAccountId,
  platform: delivery.platform,
  eventId: delivery.eventId,
  conversion: conversionToRecord(delivery.conversion),
  ...conversionProgress(delivery).$set,
  createdAt: delivery.createdAt,
  leaseUntil: NO_LEASE,
  expiresAt: new Date(delivery.createdAt.getTime() + CONVERSION_RETENTION_MS),
});

export const conversionFromDocument = (d: t.TypeOf<typeof conversionDocumentCodec>): ConversionDelivery => ({
  id: d._id,
  dashboardId: d.dashboardId,
  adAccountId: d.adAccountId,
  platform: d.platform,
  eventId: d.eventId,
  conversion: conversionFromRecord(d.conversion),
  status: d.status,
  attempts: d.attempts.map(attemptFromRecord),
  ...(d.nextAttemptAt === undefined ? {} : { nextAttemptAt: d.nextAttemptAt }),
  createdAt: d.createdAt,
});
