import { Long } from 'mongodb';
import * as t from 'io-ts';
import type { UtmFields } from '../../../domain/campaign-url';
import type { Link } from '../../../domain/link';
import { bsonDate, withoutUndefined } from '../bson-codecs';

/**
 * A link as stored in `links`; `_id` is the link id. The parameters are an array of `{ key, value }`
 * sub-documents: a sub-document keyed by them would hold keys with `.` (which MongoDB reads as paths)
 * and lose the order of keys such as `10` on the way through JavaScript. `clicks` is an int64 from
 * the start, so `$inc` never reaches the end of an int32.
 */
export interface LinkDocument extends UtmFields {
  readonly _id: string;
  readonly dashboardId: string;
  readonly slug: string;
  readonly name?: string;
  readonly destinationUrl: string;
  readonly params: readonly { readonly key: string; readonly value: string }[];
  readonly url: string;
  readonly clicks: Long | number;
  readonly createdAt: Date;
}

/** A click count as the driver reads an int64 back: a number (every count fits in 2^53). */
const bsonClicks = new t.Type<number, number, unknown>(
  'BsonClicks',
  (u): u is number => typeof u === 'number' && Number.isSafeInteger(u) && u >= 0,
  (u, c) => (typeof u === 'number' && Number.isSafeInteger(u) && u >= 0 ? t.success(u) : t.failure(u, c, 'must be a count')),
  t.identity,
);

export const linkDocumentCodec = t.intersection([
  t.type({
    _id: t.string,
    dashboardId: t.string,
    slug: t.string,
    destinationUrl: t.string,
    utmSource: t.string,
    utmMedium: t.string,
    utmCampaign: t.string,
    params: t.array(t.type({ key: t.string, value: t.string })),
    url: t.string,
    clicks: bsonClicks,
    createdAt: bsonDate,
  }),
  t.partial({ name: t.string, utmTerm: t.string, utmContent: t.string, utmId: t.string }),
]);

export const linkToDocument = (link: Link): LinkDocument =>
  withoutUndefined({
    _id: link.id,
    dashboardId: link.dashboardId,
    slug: link.slug,
    name: link.name,
    destinationUrl: link.destinationUrl,
    utmSource: link.utmSource,
    utmMedium: link.utmMedium,
    utmCampaign: link.utmCampaign,
    utmTerm: link.utmTerm,
    utmContent: link.utmContent,
    utmId: link.utmId,
    params: link.params.map(({ key, value }) => ({ key, value })),
    url: link.url,
    clicks: Long.fromNumber(link.clicks),
    createdAt: link.createdAt,
  });

export const linkFromDocument = (doc: t.TypeOf<typeof linkDocumentCodec>): Link =>
  withoutUndefined({
    id: doc._id,
    dashboardId: doc.dashboardId,
    slug: doc.slug,
    name: doc.name,
    destinationUrl: doc.destinationUrl,
    utmSource: doc.utmSource,
    utmMedium: doc.utmMedium,
    utmCampaign: doc.utmCampaign,
    utmTerm: doc.utmTerm,
    utmContent: doc.utmContent,
    utmId: doc.utmId,
    params: doc.params.map(({ key, value }) => ({ key, value })),
    url: doc.url,
    clicks: doc.clicks,
    createdAt: doc.createdAt,
  });
