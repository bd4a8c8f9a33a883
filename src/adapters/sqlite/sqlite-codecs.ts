import { isLeft } from 'fp-ts/Either';
import * as t from 'io-ts';
import type { Logger } from '../../application/ports/logger';
import { MAX_CENTS } from '../../domain/money';
import { isJsonObject, type JsonObject } from '../../domain/order';

/** An instant as stored: integer milliseconds since the epoch, read back as a `Date`. */
export const instant = new t.Type<Date, number, unknown>(
  'Instant',
  (u): u is Date => u instanceof Date,
  (u, c) =>
    typeof u === 'number' && Number.isSafeInteger(u) && !Number.isNaN(new Date(u).getTime())
      ? t.success(new Date(u))
      : t.failure(u, c, 'must be integer milliseconds'),
  (date) => date.getTime(),
);

/** An optional instant: NULL when absent. */
export const optionalInstant = t.union([t.null, instant]);

/** Money as stored: an INTEGER count of cents within the domain's range. */
export const cents = new t.Type<number, number, unknown>(
  'Cents',
  (u): u is number => typeof u === 'number',
  (u, c) =>
    typeof u === 'number' && Number.isSafeInteger(u) && u >= 0 && u <= MAX_CENTS ? t.success(u) : t.failure(u, c, 'must be whole cents'),
  t.identity,
);

/** A positive whole number (quantities, versions). */
export const positiveCount = new t.Type<number, number, unknown>(
  'PositiveCount',
  (u): u is number => typeof u === 'number',
  (u, c) => (typeof u === 'number' && Number.isSafeInteger(u) && u >= 1 ? t.success(u) : t.failure(u, c, 'must be a positive integer')),
  t.identity,
);

/** A boolean as SQLite keeps it: the INTEGER 0 or 1. */
export const flag = new t.Type<boolean, number, unknown>(
  'Flag',
  (u): u is boolean => typeof u === 'boolean',
  (u, c) => (u === 0 || u === 1 ? t.success(u === 1) : t.failure(u, c, 'must be 0 or 1')),
  (b) => (b ? 1 : 0),
);

/** TEXT holding JSON, decoded by `codec`. */
export const jsonText = <A, O>(codec: t.Type<A, O, unknown>, name = `JsonText<${codec.name}>`): t.Type<A, string, unknown> =>
  new t.Type<A, string, unknown>(
    name,
    codec.is,
    (u, c) => {
      if (typeof u !== 'string') return t.failure(u, c, 'must be JSON text');
      let parsed: unknown;
      try {
        parsed = JSON.parse(u);
      } catch {
        return t.failure(u, c, 'must be JSON text');
      }
      return codec.validate(parsed, c);
    },
    (value) => JSON.stringify(codec.encode(value)),
  );

/** A free-form JSON object (customer, fees, metadata, trackingExtras). */
export const jsonObject = new t.Type<JsonObject, JsonObject, unknown>(
  'JsonObject',
  (u): u is JsonObject => isJsonObject(u),
  (u, c) => (isJsonObject(u) ? t.success(u) : t.failure(u, c, 'must be a JSON object')),
  t.identity,
);

/** A free-form object as stored: JSON text, or NULL when absent. */
export const optionalJsonObjectText = t.union([t.null, jsonText(jsonObject)]);

/**
 * A row read back does not have the shape this service writes. The message names the table, the row
 * id and the first bad field; never the row's content.
 */
export class CorruptRowError extends Error {
  override readonly name = 'CorruptRowError';
}

/** The dotted path of the field an io-ts error points at, without the indexes of intersections and unions. */
const fieldPath = (context: t.Context): string => {
  const keys: string[] = [];
  for (let i = 1; i < context.length; i++) {
    const parent = context[i - 1]?.type;
    if (parent instanceof t.IntersectionType || parent instanceof t.UnionType) continue;
    keys.push(context[i]?.key ?? '?');
  }
  return keys.length === 0 ? '(row)' : keys.join('.');
};

/**
 * Decodes a row with its codec. A corrupt one is logged (table, id, field: nothing else) and thrown
 * as `CorruptRowError`, which fails the one request that read it.
 */
export const decodeRow = <A>(codec: t.Decoder<unknown, A>, raw: unknown, table: string, rowId: string, logger: Logger): A => {
  const decoded = codec.decode(raw);
  if (!isLeft(decoded)) return decoded.right;
  const field = decoded.left[0] === undefined ? '(row)' : fieldPath(decoded.left[0].context);
  const id = rowId.slice(0, 100);
  logger.error('corrupt row in SQLite', { table, rowId: id, field });
  throw new CorruptRowError(`${table} row ${id} is corrupt at ${field}`);
};

/** The `id` column of a raw row, for the log line of a corrupt one. */
export const rowIdOf = (raw: unknown, column = 'id'): string => {
  const id = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>)[column] : undefined;
  if (id === undefined || id === null) return '(none)';
  return typeof id === 'string' || typeof id === 'number' || typeof id === 'bigint' ? String(id) : `(a ${typeof id})`;
};
