import { expect } from 'chai';
import { inMemoryStorage } from '../../src/adapters/memory/in-memory-storage';
import type { Breakdown, RankedBreakdownQuery } from '../../src/application/ports/report-reader';
import type { Storage } from '../../src/application/ports/storage';
import { spendDaysWithin } from '../../src/application/reports/report-spend';
import { attributionOf, REPORT_DIMENSIONS, UTM_DIMENSIONS, type ReportDimension } from '../../src/domain/attribution';
import type { JsonObject, Order } from '../../src/domain/order';
import { ORDER_STATUSES } from '../../src/domain/order-status';
import { addTotals, metricsOf, reportLinesOf, spendJoins, totalsOfOrder, ZERO_TOTALS, type MetricName } from '../../src/domain/report';
import type { SpendEntry } from '../../src/domain/spend';
import { anOrder } from '../support/order-builder';
import { random } from './report-reader.contract';

const DASHBOARD = 'dsh_rows';
const START = Date.parse('2026-01-10T00:00:00.000Z');
const DAY = 86_400_000;
/** Over two month boundaries, cut in the middle of days: months, days and edges of every store's rollups. */
const RANGE = { start: START + 2 * DAY + 7_654_321, end: START + 70 * DAY + 12_345 };

/**
 * Values with few choices, so that many rows tie on a metric, and some whose order by code point is
 * not JavaScript's `<` (U+FF5E against an astral character) nor their JSON text's (a quote, a prefix).
 */
const SOURCES = ['google', 'meta', 'a"', 'a', 'a!', '\uff5e', '\u{1f600}'];
const CAMPAIGNS = ['launch', 'spring', 'é', 'E'];
const GROSS = [1_000, 2_500, 5_000];

/** Orders of every kind of attribution, in three currencies, over 80 days; a third then change status, as PATCHes do. */
const theOrders = (): { created: Order[]; changed: Order[] } => {
  const next = random(26);
  const pick = <A>(values: readonly A[]): A => values[Math.floor(next() * values.length)];
  const created = Array.from({ length: 700 }, (_, i) => {
    const extras: JsonObject = {
      ...(next() < 0.5 ? { utmContent: pick(['ad-a', 'ad-b']) } : {}),
      ...(next() < 0.3 ? { utmTerm: pick(['shoes', '\u{1f600}']) } : {}),
      ...(next() < 0.5 ? { firstTouch: { utmSource: pick(SOURCES), ...(next() < 0.6 ? { utmCampaign: pick(CAMPAIGNS) } : {}) } } : {}),
    };
    const gross = pick(GROSS);
    return anOrder()
      .inDashboard(DASHBOARD)
      .with({
        id: `ord_rows_${i}`,
        externalId: `rows-${i}`,
        createdAt: new Date(START + Math.floor(next() * 80 * DAY)),
        status: pick(ORDER_STATUSES),
        isTest: next() < 0.15,
        platform: pick(['shopify', 'woo']),
        paymentMethod: pick(['pix', 'card', 'boleto']),
        amounts: {
          currency: pick(['BRL', 'USD', 'EUR']),
          grossCents: gross,
          netToSellerCents: gross - 100,
          discountCents: 0,
          shippingCents: 0,
          taxesCents: 0,
          totalFeesCents: 100,
        },
        tracking: { utmSource: pick(SOURCES), utmMedium: pick(['cpc', 'email']), utmCampaign: pick(CAMPAIGNS) },
        ...(Object.keys(extras).length === 0 ? {} : { trackingExtras: extras }),
      })
      .build();
  });
  const changed = created.map((order) => (next() < 0.33 ? { ...order, status: pick(ORDER_STATUSES), version: order.version + 1 } : order));
  return { created, changed };
};

const spendEntry = (date: string, utmSource: string, utmCampaign: string, currency: string, amountCents: number): SpendEntry => ({
  date,
  utmSource,
  utmMedium: 'cpc',
  utmCampaign,
  utmContent: '(not set)',
  currency,
  amountCents,
});

/** Spend of keys with orders, one without any (a row of its own), and a day outside the range. */
const SPEND: readonly SpendEntry[] = [
  spendEntry('2026-01-15', 'google', 'launch', 'BRL', 10_000),
  spendEntry('2026-02-01', 'google', 'launch', 'BRL', 10_000),
  spendEntry('2026-02-02', 'meta', 'spring', 'USD', 5_000),
  spendEntry('2026-02-03', 'a"', 'E', 'EUR', 5_000),
  spendEntry('2026-02-03', 'newsletter', 'nothing-sold', 'BRL', 2_500),
  spendEntry('2026-02-04', '\u{1f600}', 'é', 'BRL', 2_500),
  spendEntry('2026-05-01', 'google', 'spring', 'BRL', 9_000),
];

const fill = async (storage: Storage): Promise<void> => {
  const { created, changed } = theOrders();
  for (const order of created) await storage.orders.insert(order, []);
  for (const [i, order] of changed.entries()) if (order !== created[i]) expect(await storage.orders.replace(order, [])).to.equal(true);
  await storage.spend.upsert(DASHBOARD, SPEND);
};

/** Every combination of 1 to 3 dimensions; every other one of two or three in reverse, since `by`'s order orders ties. */
const BYS: readonly (readonly ReportDimension[])[] = (() => {
  const all: ReportDimension[][] = [];
  const grow = (from: number, taken: ReportDimension[]): void => {
    if (taken.length > 0) all.push(taken);
    if (taken.length === 3) return;
    for (let i = from; i < REPORT_DIMENSIONS.length; i++) grow(i + 1, [...taken, REPORT_DIMENSIONS[i]]);
  };
  grow(0, []);
  return all.map((by, i) => (by.length > 1 && i % 2 === 1 ? [...by].reverse() : by));
})();

const SORTS: readonly MetricName[] = ['orders', 'paid', 'paidGrossCents', 'approvalRate', 'roas', 'spendCents', 'averageOrderCents'];
const SCOPES: readonly Pick<RankedBreakdownQuery, 'isTest' | 'filters'>[] = [
  { isTest: false, filters: {} },
  { isTest: undefined, filters: {} },
  { isTest: true, filters: {} },
  { isTest: false, filters: { utmMedium: 'cpc' } },
  { isTest: undefined, filters: { utmSource: 'google', utmCampaign: 'launch' } },
];

/** The query a breakdown by `by` makes (GetBreakdown), in UTC, without its limit. */
const queryOf = (i: number, by: readonly ReportDimension[], model: 'last' | 'first'): Omit<RankedBreakdownQuery, 'limit'> => {
  const scope = SCOPES[i % SCOPES.length];
  const joins = spendJoins(by) && scope.filters.utmTerm === undefined;
  const days = spendDaysWithin(RANGE.start, RANGE.end, 'UTC');
  return {
    range: RANGE,
    by,
    model,
    taxRate: 0,
    costZone: 'UTC',
    ...scope,
    sort: SORTS[i % SORTS.length],
    // A third of the queries rank the lowest figures first, as a table sorted by loss does.
    ...(i % 3 === 1 ? { order: 'ascending' as const } : {}),
    ...(joins ? { spend: { by, filters: scope.filters, ...(days === undefined ? {} : { days }) } } : {}),
  };
};

/** Code points compared one by one (decision 0020), written without the code under test. */
const byCodePoints = (a: string, b: string): number => {
  const [x, y] = [[...a].map((c) => c.codePointAt(0)!), [...b].map((c) => c.codePointAt(0)!)];
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
};

/** A breakdown computed the plain way, order by order, every row ranked: what every store's first `limit` rows must be. */
const directRows = (orders: readonly Order[], query: Omit<RankedBreakdownQuery, 'limit'>): Breakdown['rows'] => {
  const rows = new Map<string, { key: Record<string, string>; currency: string; totals: typeof ZERO_TOTALS; spend: number }>();
  const rowOf = (key: Record<string, string>, currency: string) => {
    const id = JSON.stringify([query.by.map((d) => key[d]), currency]);
    const row = rows.get(id) ?? { key, currency, totals: ZERO_TOTALS, spend: 0 };
    rows.set(id, row);
    return row;
  };
  for (const order of orders) {
    const at = order.createdAt.getTime();
    if (at < query.range.start || at >= query.range.end || (query.isTest !== undefined && order.isTest !== query.isTest)) continue;
    const touch = query.model === 'first' ? attributionOf(order).first : attributionOf(order).last;
    if (UTM_DIMENSIONS.some((d) => query.filters[d] !== undefined && touch[d] !== query.filters[d])) continue;
    const value = (d: ReportDimension) => (d === 'platform' ? order.platform : d === 'paymentMethod' ? order.paymentMethod : touch[d]);
    const row = rowOf(Object.fromEntries(query.by.map((d) => [d, value(d)])), order.amounts.currency);
    const figures = {
      status: order.status,
      currency: order.amounts.currency,
      createdAt: at,
      lines: reportLinesOf(order.products),
      grossCents: order.amounts.grossCents,
      netToSellerCents: order.amounts.netToSellerCents,
    };
    // No product has a cost here: every paid unit is uncosted, as every store must count it.
    row.totals = addTotals(
      row.totals,
      totalsOfOrder(figures, () => undefined),
    );
  }
  const days = query.spend?.days;
  for (const entry of days === undefined ? [] : SPEND) {
    if (entry.date < days!.from || entry.date > days!.to) continue;
    if (Object.entries(query.filters).some(([d, v]) => entry[d as keyof SpendEntry] !== v)) continue;
    rowOf(Object.fromEntries(query.by.map((d) => [d, entry[d as keyof SpendEntry] as string])), entry.currency).spend += entry.amountCents;
  }
  const sort = query.sort;
  const sign = query.order === 'ascending' ? -1 : 1;
  return [...rows.values()]
    .map((row) => ({
      key: row.key,
      currency: row.currency,
      ...metricsOf(row.totals, query.spend === undefined ? null : row.spend, query.taxRate),
    }))
    .sort((a, b) => {
      const [x, y] = [a[sort], b[sort]];
      if (x !== y) return x === null ? 1 : y === null ? -1 : sign * (y - x);
      for (const d of query.by) if (a.key[d] !== b.key[d]) return byCodePoints(a.key[d], b.key[d]);
      return byCodePoints(a.currency, b.currency);
    });
};

/** A limit that cuts between two rows equal on the sort metric, when the ranking has such a pair. */
const limitInsideTies = (rows: Breakdown['rows'], sort: MetricName): number | undefined => {
  const cut = rows.findIndex(
    (row, i) => i > 0 && i < rows.length - 1 && row[sort] === rows[i - 1][sort] && row[sort] === rows[i + 1][sort],
  );
  return cut < 0 ? undefined : cut;
};

/**
 * Every store answers a breakdown with the same rows in the same order (decision 0020): each row's key
 * holds exactly the dimensions of `by`, rows equal on the sort metric follow their key values in `by`
 * order, then currency, by code point, so `limit` cuts the same rows everywhere. Every combination of
 * up to three dimensions, both models, test orders or not, filters, spend joined or not, highest or
 * lowest first, each with a limit inside a group of ties; against the in-memory store's answer and a direct computation.
 * `settle` lets a store that counts in the background (MongoDB) catch up first, so that its rollups
 * are what it reads.
 */
export const breakdownRowsContract = (
  adapterName: string,
  factory: () => Promise<Storage>,
  settle?: (storage: Storage) => Promise<void>,
): void => {
  describe(`breakdown rows on every store: ${adapterName}`, function () {
    this.timeout(120_000);
    let storage: Storage;
    const memory = inMemoryStorage();
    const orders = theOrders().changed;

    before(async () => {
      storage = await factory();
      await fill(storage);
      await fill(memory);
      await settle?.(storage);
    });

    for (const size of [1, 2, 3]) {
      it(`answers every breakdown by ${size} dimension${size === 1 ? '' : 's'} row for row as the in-memory store and a direct computation do`, async () => {
        let [queries, cutInsideTies] = [0, 0];
        for (const [i, by] of BYS.entries()) {
          if (by.length !== size) continue;
          for (const model of ['last', 'first'] as const) {
            const query = queryOf(i + (model === 'first' ? 1 : 0), by, model);
            const direct = directRows(orders, query);
            queries++;
            const inside = limitInsideTies(direct, query.sort);
            if (inside !== undefined) cutInsideTies++;
            for (const limit of [inside ?? 3, 1_000]) {
              const expected = {
                rows: direct.slice(0, limit),
                totalRows: direct.length,
                uncostedUnits: direct.reduce((sum, row) => sum + row.uncostedUnits, 0),
              };
              const label = `by ${by.join(',')}, ${model}, ${JSON.stringify([query.isTest, query.filters])}, sort ${query.sort} ${query.order ?? 'descending'}, limit ${limit}`;
              expect(await memory.reports.breakdown(DASHBOARD, { ...query, limit }), `in memory, ${label}`).to.deep.equal(expected);
              expect(await storage.reports.breakdown(DASHBOARD, { ...query, limit }), label).to.deep.equal(expected);
            }
          }
        }
        expect(cutInsideTies, 'breakdowns whose limit cut a group of ties').to.be.at.least(Math.ceil(queries * 0.7));
      });
    }
  });
};
