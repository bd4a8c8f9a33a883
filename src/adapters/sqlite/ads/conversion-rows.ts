import * as t from 'io-ts';
import { AD_PLATFORMS } from '../../../domain/ad-account';
import { CONVERSION_STATUSES, type ConversionDelivery } from '../../../domain/conversion';
import {
  attemptFromRecord,
  attemptRecordCodec,
  attemptToRecord,
  conversionFromRecord,
  conversionRecordCodec,
  conversionToRecord,
} from '../../persistence/conversion-records';
import { oneOfCodec } from '../../persistence/corrupt-record';
import { instant, jsonText, optionalInstant, present } from '../sqlite-codecs';

/** A row of `conversion_deliveries` as read back (its lease and its copies of the conversion's keys apart). */
export const conversionRowCodec = t.type({
  id: t.string,
  dashboard_id: t.string,
  ad_account_id: t.string,
  platform: oneOfCodec(AD_PLATFORMS, 'AdPlatform'),
  event_id: t.string,
  conversion: jsonText(conversionRecordCodec),
  status: oneOfCodec(CONVERSION_STATUSES, 'ConversionStatus'),
  attempts: jsonText(t.array(attemptRecordCodec)),
  next_attempt_at: optionalInstant,
  created_at: instant,
});

export const CONVERSION_COLUMNS: readonly string[] = Object.keys(conversionRowCodec.props);

/** The columns an attempt writes. */
export const conversionProgressToRow = (delivery: ConversionDelivery): Record<string, string | number | null> => ({
  status: delivery.status,
  attempts: JSON.stringify(delivery.attempts.map(attemptToRecord)),
  next_attempt_at: delivery.nextAttemptAt?.getTime() ?? null,
});

/** Every column of a new row, the order and kind copied out of the conversion for the index that finds a refund's purchase. */
export const conversionToRow = (delivery: ConversionDelivery): Record<string, string | number | null> => ({
  id: delivery.id,
  dashboard_id: delivery.dashboardId,
  ad_account_id: delivery.adAccountId,
  platform: delivery.platform,
  event_id: delivery.eventId,
  order_id: delivery.conversion.orderId,
  kind: delivery.conversion.kind,
  conversion: JSON.stringify(conversionToRecord(delivery.conversion)),
  ...conversionProgressToRow(delivery),
  created_at: delivery.createdAt.getTime(),
});

export const conversionFromRow = (row: t.TypeOf<typeof conversionRowCodec>): ConversionDelivery => ({
  id: row.id,
  dashboardId: row.dashboard_id,
  adAccountId: row.ad_account_id,
  platform: row.platform,
  eventId: row.event_id,
  conversion: conversionFromRecord(row.conversion),
  status: row.status,
  attempts: row.attempts.map(attemptFromRecord),
  ...present('nextAttemptAt', row.next_attempt_at),
  createdAt: row.created_at,
});
