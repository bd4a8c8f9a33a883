import * as t from 'io-ts';
import type { Logger } from '../../application/ports/logger';
import { MAX_CENTS } from '../../domain/money';
import { CorruptRecordError, decodeRecord, jsonObjectCodec } from '../persistence/corrupt-record';

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
export const jsonObject = jsonObjectCodec('JsonObject');

/** A free-form object as stored: JSON text, or NULL when absent. */
export const optionalJsonObjectText = t.union([t.null, jsonText(jsonObject)]);

/** `{ [key]: value }`, or nothing for a NULL column: the domain has no nulls. */
export const present = <K extends string, V>(key: K, value: V | null): Partial<Record<K, V>> =>
  value === null ? {} : ({ [key]: value } as Record<K, V>);

export class CorruptRowError extends CorruptRecordError {
  override readonly name = 'CorruptRowError';
}

/**
 * Decodes a row with its codec. A corrupt one is logged (table, id, field: nothing else) and thrown
 * as `CorruptRowError`, which fails the one request that read it.
 */
export const decodeRow = <A>(codec: t.Decoder<unknown, A>, raw: unknown, table: string, rowId: string, logger: Logger): A =>
  decodeRecord(
    codec,
    raw,
    () => {
      const id = rowId.slice(0, 100);
      return {
        logMessage: 'corrupt row in SQLite',
        logFields: { table, rowId: id },
        subject: `${table} row ${id}`,
        whole: '(row)',
        error: CorruptRowError,
      };
    },
    logger,
  );

/** The `id` column of a raw row, for the log line of a corrupt one. */
export const rowIdOf = (raw: unknown, column = 'id'): string => {
  const id = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>)[column] : undefined;
  if (id === undefined || id === null) return '(none)';
  return typeof id === 'string' || typeof id === 'number' || typeof id === 'bigint' ? String(id) : `(a ${typeof id})`;
};
