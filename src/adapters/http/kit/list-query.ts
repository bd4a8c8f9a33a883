import * as t from 'io-ts';
import { arrayOf, defaulted, int, strictObject } from './codec-kit';
import { described, Documented } from './json-schema';

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

/** How a query parameter that is an instant is read, said once for every route that takes one. */
export const QUERY_INSTANT_NOTE =
  'ISO 8601 with a timezone, inclusive. Percent-encode a `+` offset (`%2B`); an unencoded `+` arrives as a space and is read back as `+`.';

/** The paging parameters of a listing's query string (decision 0005), `items` naming what a page holds. */
export const pagingParams = (items: string) => ({
  page: defaulted(described(single(intParam(1, MAX_PAGE)), '1-based page number.'), 1),
  pageSize: defaulted(described(single(intParam(1, MAX_PAGE_SIZE)), `${items} per page.`), DEFAULT_PAGE_SIZE),
});

/** One page of a listing under `key`, in the order `order` says, with `total` saying what it counts over every page. */
export const listPage = <K extends string, C extends t.Mixed>(
  name: string,
  key: K,
  item: C,
  total: string,
  order = 'Newest first: `createdAt` descending, then `id` descending.',
) => {
  const items = described(arrayOf(item, 0, MAX_PAGE_SIZE), order);
  return strictObject(name, {
    ...({ [key]: items } as Record<K, typeof items>),
    page: int(1, MAX_PAGE),
    pageSize: int(1, MAX_PAGE_SIZE),
    total: described(int(0, Number.MAX_SAFE_INTEGER), total),
  });
};

/** The body of one page as `listPage` declares it: the items under `key`, the page asked for, and `total` over every page. */
export const pageOf = <K extends string, T>(
  key: K,
  items: T[],
  asked: { readonly page: number; readonly pageSize: number },
  total: number,
) =>
  ({ [key]: items, page: asked.page, pageSize: asked.pageSize, total }) as Record<K, T[]> & {
    page: number;
    pageSize: number;
    total: number;
  };
