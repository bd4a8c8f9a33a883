import * as t from 'io-ts';
import { SOURCE_DELIVERY_OUTCOMES, SOURCE_PLATFORMS, type Source, type SourceDelivery } from '../../../domain/source';
import { oneOfCodec } from '../../persistence/corrupt-record';
import { instant, positiveCount, present } from '../sqlite-codecs';

const optionalText = t.union([t.null, t.string]);

/** A row of `sources` as read back. */
export const sourceRowCodec = t.type({
  id: t.string,
  dashboard_id: t.string,
  platform: oneOfCodec(SOURCE_PLATFORMS, 'SourcePlatform'),
  name: t.string,
  secret: t.string,
  created_at: instant,
  updated_at: instant,
  version: positiveCount,
});

export const SOURCE_COLUMNS: readonly string[] = Object.keys(sourceRowCodec.props);

export const sourceToRow = (source: Source): Record<string, string | number> => ({
  id: source.id,
  dashboard_id: source.dashboardId,
  platform: source.platform,
  name: source.name,
  secret: source.secret,
  created_at: source.createdAt.getTime(),
  updated_at: source.updatedAt.getTime(),
  version: source.version,
});

export const sourceFromRow = (row: t.TypeOf<typeof sourceRowCodec>): Source => ({
  id: row.id,
  dashboardId: row.dashboard_id,
  platform: row.platform,
  name: row.name,
  secret: row.secret,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  version: row.version,
});

/** A row of `source_deliveries` as read back (without its `seq`). */
export const sourceDeliveryRowCodec = t.type({
  id: t.string,
  source_id: t.string,
  dashboard_id: t.string,
  received_at: instant,
  event_id: optionalText,
  topic: optionalText,
  outcome: oneOfCodec(SOURCE_DELIVERY_OUTCOMES, 'SourceDeliveryOutcome'),
  reason: optionalText,
  external_id: optionalText,
});

export const SOURCE_DELIVERY_COLUMNS: readonly string[] = Object.keys(sourceDeliveryRowCodec.props);

export const sourceDeliveryToRow = (delivery: SourceDelivery): Record<string, string | number | null> => ({
  id: delivery.id,
  source_id: delivery.sourceId,
  dashboard_id: delivery.dashboardId,
  received_at: delivery.receivedAt.getTime(),
  event_id: delivery.eventId ?? null,
  topic: delivery.topic ?? null,
  outcome: delivery.outcome,
  reason: delivery.reason ?? null,
  external_id: delivery.externalId ?? null,
});

export const sourceDeliveryFromRow = (row: t.TypeOf<typeof sourceDeliveryRowCodec>): SourceDelivery => ({
  id: row.id,
  sourceId: row.source_id,
  dashboardId: row.dashboard_id,
  receivedAt: row.received_at,
  ...present('eventId', row.event_id),
  ...present('topic', row.topic),
  outcome: row.outcome,
  ...present('reason', row.reason),
  ...present('externalId', row.external_id),
});
