import * as t from 'io-ts';
import { defaulted, strictObject } from './codec-kit';
import { queryInstant } from './dates';
import { described, Documented } from './json-schema';
import { orderStatus } from '../orders/order-codecs';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;
/** The largest page whose offset, (page - 1) × pageSize, is still an exact integer. */
export const MAX_PAGE = Math.floor(Number.MAX_SAFE_INTEGER / MAX_PAGE_SIZE);

/** A query parameter given once; `?a=1&a=2` is refused rather than guessed at. */
export const single = <A, O>(codec: t.Type<A, O, unknown>): Documented<A, O> =>
  new Documented<A, O>(
    codec.name,
    codec.is,
    (u, c) => (Array.isArray(u) ? t.failure(u, c, 'must be given once') : codec.validate(u, c)),
    codec.encode,
    (w) => w.schemaOf(codec),
  );

/** An integer written in a query string. */
export const intParam = (min: number, max: number): Documented<number, number> =>
  new Documented<number, number>(
    `integer(${min}..${max})`,
    (u): u is number => typeof u === 'number',
    (u, c) => {
      const n = typeof u === 'string' && /^\d{1,16}$/.test(u) ? Number(u) : NaN;
      return n >= min && n <= max ? t.success(n) : t.failure(u, c, `must be an integer from ${min} to ${max}`);
    },
    t.identity,
    () => ({ type: 'integer', minimum: min, maximum: max }),
  );

const INSTANT_NOTE =
  'ISO 8601 with a timezone, inclusive. Percent-encode a `+` offset (`%2B`); an unencoded `+` arrives as a space and is read back as `+`.';

/** The query string of GET /api/v1/orders (specification, DECISIONS D5). Unknown parameters are refused. */
export const ListOrdersQuery = strictObject(
  'ListOrdersQuery',
  {},
  {
    page: defaulted(described(single(intParam(1, MAX_PAGE)), '1-based page number.'), 1),
    pageSize: defaulted(described(single(intParam(1, MAX_PAGE_SIZE)), 'Orders per page.'), DEFAULT_PAGE_SIZE),
    status: described(single(orderStatus), 'Only orders with this status.'),
    from: described(single(queryInstant), `Only orders with \`createdAt\` at or after this instant. ${INSTANT_NOTE}`),
    to: described(single(queryInstant), `Only orders with \`createdAt\` at or before this instant. ${INSTANT_NOTE}`),
  },
);
export type ListOrdersQuery = t.TypeOf<typeof ListOrdersQuery>;
