import * as E from 'fp-ts/Either';
import type { ProductCostPosition } from '../../../application/ports/product-cost-repository';
import { decodeCursor, encodeCursor, NOT_A_CURSOR } from '../kit/cursor';
import { route } from '../kit/route';
import { ListProductCostsQuery, ProductCostList, PutProductCosts } from './cost-codecs';

export const putProductCostsRoute = route({
  method: 'put',
  path: '/api/v1/product-costs',
  operationId: 'putProductCosts',
  summary: 'Set what products cost from a day on',
  description:
    "Each entry sets (not adds to) the unit cost of its key: product, currency and `from`, a day of the dashboard's time zone. A " +
    "cost holds from the start of its day until the next entry of the same product and currency; an order's paid lines are priced " +
    'with the one in force at its `createdAt`, in every report, past ones included (they are computed, never frozen). Every entry is ' +
    'checked first; when one is wrong, none is stored. Sending the same entries again changes nothing.',
  tag: 'spend',
  guards: ['token', 'rateLimit'],
  scope: 'spend:write',
  body: PutProductCosts.body,
  bodyValues: PutProductCosts.bodyValues,
  bodyExamples: {
    price: {
      entries: [
        { product: 'TSH-BAS', currency: 'BRL', unitCostCents: 2_350, from: '2026-01-01' },
        { product: 'TSH-BAS', currency: 'BRL', unitCostCents: 2_590, from: '2026-03-01' },
      ],
    },
  },
  responses: { 200: { description: 'How many entries were stored.', body: PutProductCosts.response } },
  problems: [],
  handle: async ({ principal, body }, { useCases }) =>
    E.right({ status: 200 as const, body: { upserted: await useCases.putProductCosts.execute(principal.dashboardId, body.entries) } }),
});

/** The filters a cursor belongs to: a cursor is refused under others. */
const filtersKey = (filters: { product?: string; currency?: string }): string =>
  JSON.stringify([filters.product ?? null, filters.currency ?? null]);

/** The position a cursor holds, or why it cannot be used here. */
const positionOf = (cursor: string, filters: { product?: string; currency?: string }): ProductCostPosition | string => {
  const values = decodeCursor(cursor);
  if (values?.length !== 4 || !values.every((value) => typeof value === 'string')) return NOT_A_CURSOR;
  const [product, currency, from, key] = values as string[];
  if (key !== filtersKey(filters)) return 'belongs to a listing with other filters: send the same product and currency';
  return { product, currency, from };
};

export const listProductCostsRoute = route({
  method: 'get',
  path: '/api/v1/product-costs',
  operationId: 'listProductCosts',
  summary: "List the dashboard's product costs",
  description:
    'By product, then currency, then `from`, a page at a time: every answer carries `nextCursor` (null at the end), which `after` ' +
    'takes to read the next page, at the cost of the first whatever its depth.',
  tag: 'spend',
  guards: ['token', 'rateLimit'],
  scope: 'spend:read',
  query: ListProductCostsQuery,
  responses: { 200: { description: 'One page of cost entries.', body: ProductCostList } },
  problems: [],
  handle: async ({ principal, query }, { useCases }) => {
    const { product, currency, after, pageSize } = query;
    const filters = { ...(product === undefined ? {} : { product }), ...(currency === undefined ? {} : { currency }) };
    const position = after === undefined ? undefined : positionOf(after, filters);
    if (typeof position === 'string') return E.left({ _tag: 'ValidationFailed', details: [{ path: 'query.after', message: position }] });
    const page = await useCases.listProductCosts.execute(principal.dashboardId, {
      ...filters,
      pageSize,
      ...(position === undefined ? {} : { after: position }),
    });
    const last = page.entries[page.entries.length - 1];
    return E.right({
      status: 200 as const,
      body: {
        entries: page.entries.map((entry) => ({ ...entry })),
        pageSize,
        nextCursor: page.more && last !== undefined ? encodeCursor([last.product, last.currency, last.from, filtersKey(filters)]) : null,
      },
    });
  },
});

export const costRoutes = [putProductCostsRoute, listProductCostsRoute];
