import { Long } from 'mongodb';
import * as t from 'io-ts';
import type { Logger } from '../../application/ports/logger';
import { CorruptRecordError, decodeRecord, jsonObjectCodec } from '../persistence/corrupt-record';

/** A BSON date as the driver returns it: a valid `Date`. */
export const bsonDate = new t.Type<Date, Date, unknown>(
  'BsonDate',
  (u): u is Date => u instanceof Date && !Number.isNaN(u.getTime()),
  (u, c) => (u instanceof Date && !Number.isNaN(u.getTime()) ? t.success(u) : t.failure(u, c, 'must be a BSON date')),
  t.identity,
);

/**
 * Money as written: a BSON int64 whatever the amount. Left to itself the driver writes a number above
 * 2^31 as a double, and a double is not a count of cents.
 */
export const int64 = (cents: number): Long => Long.fromNumber(cents);

/**
 * Money as read: the driver turns an int64 back into a number (every amount fits in 2^53), so a
 * fraction, a negative or anything else is corruption.
 */
export const bsonCents = new t.Type<number, number, unknown>(
  'BsonCents',
  (u): u is number => typeof u === 'number' && Number.isSafeInteger(u) && u >= 0,
  (u, c) => (typeof u === 'number' && Number.isSafeInteger(u) && u >= 0 ? t.success(u) : t.failure(u, c, 'must be whole cents')),
  t.identity,
);

/** A positive whole number that fits a BSON int32 (quantities, versions). */
export const bsonCount = new t.Type<number, number, unknown>(
  'BsonCount',
  (u): u is number => typeof u === 'number' && Number.isInteger(u) && u >= 1 && u <= 2 ** 31 - 1,
  (u, c) =>
    typeof u === 'number' && Number.isInteger(u) && u >= 1 && u <= 2 ** 31 - 1
      ? t.success(u)
      : t.failure(u, c, 'must be a positive integer'),
  t.identity,
);

/**
 * A free-form JSON object (customer, fees, metadata, trackingExtras), stored as a native
 * sub-document: objects as sub-documents, arrays as arrays (nested ones included), numbers as
 * int32 or double, which JSON numbers fit (every integer up to 2^53 is exact as a double). Its keys
 * were validated when the order came in (not empty, no leading `$`, no `.`), so MongoDB takes them as
 * they are. Read back, anything JSON cannot hold is corruption.
 */
export const bsonJsonObject = jsonObjectCodec('BsonJsonObject');

/** Drops the keys whose value is undefined, so that an absent field is absent in BSON, not null. */
export const withoutUndefined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

export class CorruptDocumentError extends CorruptRecordError {
  override readonly name = 'CorruptDocumentError';
}

const idOf = (raw: unknown): string => {
  const id = typeof raw === 'object' && raw !== null ? (raw as { _id?: unknown })._id : undefined;
  if (id === undefined) return '(none)';
  // An _id is a string, a number or an ObjectId, whose String() is its hex: the id a reader can look up.
  // eslint-disable-next-line @typescript-eslint/no-base-to-string
  return String(id).slice(0, 100);
};

/**
 * Decodes a document with its codec. A corrupt one is logged (collection, id, field: nothing else)
 * and thrown as `CorruptDocumentError`, which fails the one request that read it.
 */
export const decodeDocument = <A>(codec: t.Decoder<unknown, A>, raw: unknown, collection: string, logger: Logger): A =>
  decodeRecord(
    codec,
    raw,
    () => {
      const documentId = idOf(raw);
      return {
        logMessage: 'corrupt document in MongoDB',
        logFields: { collection, documentId },
        subject: `${collection} document ${documentId}`,
        whole: '(document)',
        error: CorruptDocumentError,
      };
    },
    logger,
  );
