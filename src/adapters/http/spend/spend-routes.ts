import * as E from 'fp-ts/Either';
import { pageOf } from '../kit/list-query';
import { route } from '../kit/route';
import { ListSpendQuery, PutSpend, SpendList } from './spend-codecs';

export const putSpendRoute = route({
  method: 'put',
  path: '/api/v1/spend',
  operationId: 'putSpend',
  summary: 'Set ad spend per day and campaign key',
  description:
    'Each entry sets (not adds to) the amount of its key: date, utmSource, utmMedium, utmCampaign, utmContent and currency (an ' +
    'omitted utmMedium or utmContent is `(not set)`). Every entry is checked first; when one is wrong, none is stored. Sending ' +
    'the same entries again changes nothing.',
  tag: 'spend',
  guards: ['token', 'rateLimit'],
  scope: 'spend:write',
  body: PutSpend.body,
  bodyValues: PutSpend.bodyValues,
  bodyExamples: {
    day: {
      entries: [
        { date: '2026-11-20', utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'black-friday', currency: 'BRL', amountCents: 120_000 },
      ],
    },
  },
  responses: { 200: { description: 'How many entries were stored.', body: PutSpend.response } },
  problems: [],
  handle: async ({ principal, body }, { useCases }) =>
    E.right({ status: 200 as const, body: { upserted: await useCases.putSpend.execute(principal.dashboardId, body.entries) } }),
});

export const listSpendRoute = route({
  method: 'get',
  path: '/api/v1/spend',
  operationId: 'listSpend',
  summary: "List the dashboard's spend",
  tag: 'spend',
  guards: ['token', 'rateLimit'],
  scope: 'spend:read',
  query: ListSpendQuery,
  responses: { 200: { description: 'One page of spend entries.', body: SpendList } },
  problems: [],
  handle: async ({ principal, query }, { useCases }) => {
    const { from, to, page, pageSize } = query;
    if (from !== undefined && to !== undefined && from > to) {
      return E.left({ _tag: 'ValidationFailed', details: [{ path: 'query.from', message: 'must not be later than query.to' }] });
    }
    const result = await useCases.listSpend.execute(principal.dashboardId, { from, to, page, pageSize });
    const entries = result.entries.map((entry) => ({ ...entry, adAccount: entry.adAccount ?? null }));
    return E.right({ status: 200 as const, body: pageOf('entries', entries, query, result.total) });
  },
});

export const spendRoutes = [putSpendRoute, listSpendRoute];
