import { isLeft } from 'fp-ts/Either';
import * as t from 'io-ts';
import type { LogFields, Logger } from '../../application/ports/logger';
import { isJsonObject, type JsonObject } from '../../domain/order';

/**
 * A record read back does not have the shape this service writes. Each store names its own kind
 * (CorruptRowError, CorruptDocumentError); the message names where the record is, its id and the first
 * bad field, never its content.
 */
export class CorruptRecordError extends Error {}

/** Where a record that failed to decode lives, as the log line and the error name it. */
export interface RecordPlace {
  /** The log line's message: `corrupt row in SQLite`. */
  readonly logMessage: string;
  /** The log fields naming the record (table and row id, collection and document id); `field` is added. */
  readonly logFields: LogFields;
  /** The error message's subject: `orders row 42`. */
  readonly subject: string;
  /** The field named when the record as a whole is wrong: `(row)`. */
  readonly whole: string;
  readonly error: new (message: string) => CorruptRecordError;
}

/**
 * The dotted path of the field an io-ts error points at. Intersections and unions add the index of
 * their member to the context; those are not fields, so they are left out.
 */
const fieldPath = (context: t.Context, whole: string): string => {
  const keys: string[] = [];
  for (let i = 1; i < context.length; i++) {
    const parent = context[i - 1]?.type;
    if (parent instanceof t.IntersectionType || parent instanceof t.UnionType) continue;
    keys.push(context[i]?.key ?? '?');
  }
  return keys.length === 0 ? whole : keys.join('.');
};

/**
 * Decodes a record with its codec. A corrupt one is logged (where, id, field: nothing else) and thrown
 * as the place's error, which fails the one request that read it. `place` is asked only then.
 */
export const decodeRecord = <A>(codec: t.Decoder<unknown, A>, raw: unknown, place: () => RecordPlace, logger: Logger): A => {
  const decoded = codec.decode(raw);
  if (!isLeft(decoded)) return decoded.right;
  const { logMessage, logFields, subject, whole, error } = place();
  const field = decoded.left[0] === undefined ? whole : fieldPath(decoded.left[0].context, whole);
  logger.error(logMessage, { ...logFields, field });
  throw new error(`${subject} is corrupt at ${field}`);
};

/** A free-form JSON object (customer, fees, metadata, trackingExtras) as read back: anything JSON cannot hold is corruption. */
export const jsonObjectCodec = (name: string): t.Type<JsonObject, JsonObject, unknown> =>
  new t.Type<JsonObject, JsonObject, unknown>(
    name,
    (u): u is JsonObject => isJsonObject(u),
    (u, c) => (isJsonObject(u) ? t.success(u) : t.failure(u, c, 'must be a JSON object')),
    t.identity,
  );

/** One of a closed set of strings (a status, an event type) as read back: any other string is corruption. */
export const oneOfCodec = <K extends string>(keys: readonly K[], name?: string): t.KeyofC<Record<K, null>> =>
  t.keyof(Object.fromEntries(keys.map((key) => [key, null])) as Record<K, null>, name);
