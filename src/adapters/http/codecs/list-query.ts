import * as t from 'io-ts';
import { ORDER_STATUSES } from '../../../domain/order-status';
import { check, isoInstant, oneOf, strictObject } from './codec-kit';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;
/** The largest page whose offset, (page - 1) × pageSize, is still an exact integer. */
export const MAX_PAGE = Math.floor(Number.MAX_SAFE_INTEGER / MAX_PAGE_SIZE);

/** A query parameter given once; `?a=1&a=2` is refused rather than guessed at. */
const single = <A, O>(codec: t.Type<A, O, unknown>): t.Type<A, O, unknown> =>
  new t.Type<A, O, unknown>(
    codec.name,
    codec.is,
    (u, c) => (Array.isArray(u) ? t.failure(u, c, 'must be given once') : codec.validate(u, c)),
    codec.encode,
  );

const intParam = (min: number, max: number): t.Type<number, number, unknown> => {
  const text = check('IntegerText', (u): u is string => typeof u === 'string' && /^\d{1,16}$/.test(u), '');
  return new t.Type<number, number, unknown>(
    `integer(${min}..${max})`,
    (u): u is number => typeof u === 'number',
    (u, c) => {
      const n = text.is(u) ? Number(u) : NaN;
      return n >= min && n <= max ? t.success(n) : t.failure(u, c, `must be an integer from ${min} to ${max}`);
    },
    t.identity,
  );
};

/**
 * A `+` of an offset that was not percent-encoded arrives as a space; nothing else can put a space
 * there, so it is read back as the `+` it was.
 */
const queryInstant = new t.Type<Date, string, unknown>(
  isoInstant.name,
  isoInstant.is,
  (u, c) => isoInstant.validate(typeof u === 'string' ? u.replace(/ (\d{2}:\d{2})$/, '+$1') : u, c),
  isoInstant.encode,
);

/** The query string of GET /api/v1/orders (specification, DECISIONS D5). Unknown parameters are refused. */
export const ListOrdersQuery = strictObject(
  'ListOrdersQuery',
  {},
  {
    page: single(intParam(1, MAX_PAGE)),
    pageSize: single(intParam(1, MAX_PAGE_SIZE)),
    status: single(oneOf(ORDER_STATUSES)),
    from: single(queryInstant),
    to: single(queryInstant),
  },
);
export type ListOrdersQuery = t.TypeOf<typeof ListOrdersQuery>;
