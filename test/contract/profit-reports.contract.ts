import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import { inMemoryStorage } from '../../src/adapters/memory/in-memory-storage';
import type { Storage } from '../../src/application/ports/storage';
import { reportUseCases } from '../../src/application/reports/report-use-cases';
import type { ReportDimension } from '../../src/domain/attribution';
import { PRODUCT_METRICS } from '../../src/domain/product-report';
import { METRICS } from '../../src/domain/report';
import {
  COSTS,
  directBreakdown,
  directProducts,
  directTimeseries,
  directUncosted,
  directUncostedProducts,
  FROM,
  madeOrders,
  SPEND,
  TO,
  ZONE,
  type BreakdownAsked,
  type Made,
  type ProductsAsked,
  type TimeseriesAsked,
  type World,
} from './profit-fixtures';

const DASHBOARD = 'dsh_profit';
const TAX_RATE = 8.75;

const BYS: readonly (readonly ReportDimension[])[] = [
  ['utmSource'],
  ['utmMedium'],
  ['utmCampaign'],
  ['utmContent'],
  ['utmTerm'],
  ['platform'],
  ['paymentMethod'],
  ['utmSource', 'utmCampaign'],
  ['utmSource', 'utmMedium', 'utmCampaign'],
  ['platform', 'paymentMethod', 'utmContent'],
];

/** Every breakdown of the contract: each `by` under both models, with and without the previous period, a sort and limit each. */
const BREAKDOWNS: readonly BreakdownAsked[] = BYS.flatMap((by, i) =>
  (['last', 'first'] as const).flatMap((model, j) =>
    [false, true].map((compare, k) => ({
      from: FROM,
      to: TO,
      by,
      model,
      isTest: (i + j) % 2 === 0 ? false : undefined,
      filters: {},
      sort: METRICS[(3 * i + 5 * j + 7 * k) % METRICS.length],
      limit: k === 0 ? 1_000 : 3,
      compare,
    })),
  ),
);

/** Every metric as the sort of one breakdown, cut where ties fall. */
const SORTS: readonly BreakdownAsked[] = METRICS.map((sort) => ({
  from: FROM,
  to: TO,
  by: ['utmSource', 'utmCampaign'],
  model: 'last',
  isTest: false,
  filters: {},
  sort,
  limit: 4,
  compare: true,
}));

const TIMESERIES: readonly TimeseriesAsked[] = [
  { from: FROM, to: TO, interval: 'day', timezone: ZONE, model: 'last', isTest: false, filters: {}, compare: false },
  { from: FROM, to: TO, interval: 'day', timezone: ZONE, model: 'last', isTest: false, filters: {}, compare: true },
  { from: FROM, to: TO, interval: 'day', timezone: 'UTC', model: 'first', isTest: undefined, filters: {}, compare: true },
  { from: FROM, to: TO, interval: 'hour', timezone: ZONE, model: 'last', isTest: undefined, filters: {}, compare: true },
  { from: FROM, to: TO, interval: 'day', timezone: ZONE, model: 'last', isTest: false, filters: { utmSource: 'meta' }, compare: true },
  { from: FROM, to: TO, interval: 'day', timezone: ZONE, model: 'first', isTest: false, filters: { utmTerm: 'shoes' }, compare: false },
];

const PRODUCTS: readonly ProductsAsked[] = [
  ...PRODUCT_METRICS.map((sort, i) => ({
    from: FROM,
    to: TO,
    model: 'last' as const,
    isTest: false,
    filters: {},
    sort,
    limit: i % 2 === 0 ? 1_000 : 3,
    compare: i % 3 !== 0,
  })),
  { from: FROM, to: TO, model: 'first', isTest: undefined, filters: { utmCampaign: 'launch' }, sort: 'paidUnits', limit: 5, compare: true },
  { from: FROM, to: TO, model: 'last', isTest: true, filters: {}, sort: 'orders', limit: 1_000, compare: false },
];

interface UncostedAsked {
  readonly from: number;
  readonly to: number;
  readonly model: 'last' | 'first';
  readonly isTest: boolean | undefined;
  readonly filters: Record<string, string>;
  readonly limit: number;
}

/** The products sold without a cost over each period, with each scope, cut where rows tie on their units. */
const UNCOSTED: readonly UncostedAsked[] = [
  { from: FROM, to: TO, model: 'last', isTest: false, filters: {}, limit: 1_000 },
  { from: FROM, to: TO, model: 'last', isTest: undefined, filters: {}, limit: 2 },
  { from: 2 * FROM - (TO + 1), to: FROM - 1, model: 'last', isTest: true, filters: {}, limit: 1_000 },
  { from: FROM, to: TO, model: 'first', isTest: false, filters: { utmSource: 'meta' }, limit: 3 },
];

const answers = (storage: Storage) => {
  const useCases = reportUseCases(storage);
  const right = <A>(result: E.Either<unknown, A>): A => {
    if (E.isLeft(result)) throw new Error(`refused: ${JSON.stringify(result.left)}`);
    return result.right;
  };
  /** The query as the use cases take it: instants as dates, and `compare: previous` or none. */
  const asked = <Q extends { from: number; to: number; compare: boolean }>({ from, to, compare, ...rest }: Q) => ({
    ...rest,
    from: new Date(from),
    to: new Date(to),
    ...(compare ? { compare: 'previous' as const } : {}),
  });
  return {
    breakdown: async (q: BreakdownAsked) =>
      right(await useCases.getBreakdown.execute(DASHBOARD, { ...asked(q), sort: q.sort as (typeof METRICS)[number] })),
    timeseries: async (q: TimeseriesAsked) => right(await useCases.getTimeseries.execute(DASHBOARD, asked(q))).series,
    timeseriesUncosted: async (q: TimeseriesAsked) => right(await useCases.getTimeseries.execute(DASHBOARD, asked(q))).uncosted,
    uncostedProducts: async (q: UncostedAsked) =>
      right(await useCases.listUncostedProducts.execute(DASHBOARD, { ...q, from: new Date(q.from), to: new Date(q.to) })),
    products: async (q: ProductsAsked) =>
      right(await useCases.getProducts.execute(DASHBOARD, { ...asked(q), sort: q.sort as (typeof PRODUCT_METRICS)[number] })),
  };
};

/**
 * Stores the shop: its dashboard, its orders (each created pending, then changed to its status as a
 * PATCH does), costs and spend; and another dashboard's orders and a cost of a product the shop never
 * prices, which must count nowhere.
 */
const store = async (storage: Storage, made: readonly Made[]): Promise<void> => {
  await storage.dashboards.insert({ id: DASHBOARD, name: 'Profit', timezone: ZONE, taxRate: TAX_RATE, createdAt: new Date(0) });
  for (const { order } of made) await storage.orders.insert({ ...order, status: 'pending' }, []);
  for (const { order } of made)
    if (order.status !== 'pending') expect(await storage.orders.replace({ ...order, version: 2 }, [])).to.equal(true);
  await storage.productCosts.put(DASHBOARD, COSTS);
  await storage.spend.upsert(DASHBOARD, SPEND);
  for (const { order } of madeOrders(5, 40, 'dsh_else')) await storage.orders.insert(order, []);
  await storage.productCosts.put('dsh_else', [{ product: 'ext-3', currency: 'BRL', unitCostCents: 1, from: '2020-01-01' }]);
};

/**
 * Every store's profit reports (decision 0020) against the reports worked out from first principles
 * over the same orders (profit-fixtures.ts), and against the in-memory store's, row for row and in
 * the same order, ties included: a breakdown by every dimension under both models, ranked by every
 * metric; timeseries by day and hour in the dashboard's zone and in another; the products report by
 * every column; each with and without the previous period. `settle` lets a store that counts in the
 * background (MongoDB) catch up: each report is checked before and after it.
 */
export const profitReportsContract = (
  adapterName: string,
  factory: () => Promise<Storage>,
  settle?: (storage: Storage) => Promise<void>,
): void => {
  describe(`profit reports contract: ${adapterName}`, function () {
    this.timeout(120_000);
    const made = madeOrders(31, 260, DASHBOARD);
    const world: World = { zone: ZONE, made, costs: COSTS, spend: SPEND, taxRate: TAX_RATE };
    let storage: Storage;
    let reference: Storage;

    before(async () => {
      reference = inMemoryStorage();
      await store(reference, made);
    });

    beforeEach(async () => {
      storage = await factory();
      await store(storage, made);
    });

    /** Checks one report now and, on a store that counts in the background, once it has caught up. */
    const agree = async (what: string, ask: (s: Storage) => Promise<unknown>, expected: unknown): Promise<void> => {
      expect(await ask(storage), what).to.deep.equal(expected);
      expect(await ask(reference), `${what} on the in-memory store`).to.deep.equal(expected);
      if (settle !== undefined) {
        await settle(storage);
        expect(await ask(storage), `${what}, once the store caught up`).to.deep.equal(expected);
      }
    };

    it('answers a breakdown by every dimension, both models, with and without the previous period, as worked out by hand', async () => {
      for (const q of BREAKDOWNS) await agree(JSON.stringify(q), (s) => answers(s).breakdown(q), directBreakdown(world, q));
    });

    it('ranks a breakdown by every metric, a key only in the previous period like any other, ties by key then currency by code point', async () => {
      for (const q of SORTS) await agree(q.sort, (s) => answers(s).breakdown(q), directBreakdown(world, q));
      const all = directBreakdown(world, { ...SORTS[0], sort: 'orders', limit: 1_000 });
      expect(
        all.rows.some((row) => (row as unknown as Record<string, number>)['orders'] === 0 && (row.previous?.['orders'] ?? 0) > 0),
        'a key sold only before',
      ).to.equal(true);
      expect(all.rows.some((row) => row.key['utmSource'] === 'tiktok' && row.key['utmCampaign'] === 'only-before')).to.equal(true);
    });

    it('answers a timeseries by day and by hour, in the dashboard zone and another, each bucket with its previous one', async () => {
      for (const q of TIMESERIES) await agree(JSON.stringify(q), (s) => answers(s).timeseries(q), directTimeseries(world, q));
    });

    it("says how many paid units of how many products each report's profit leaves out, over the whole current period", async () => {
      for (const q of TIMESERIES)
        await agree(`timeseries ${JSON.stringify(q)}`, (s) => answers(s).timeseriesUncosted(q), directUncosted(world, q));
      const some = directUncosted(world, BREAKDOWNS[0]);
      expect(some.units, 'units without a cost').to.be.greaterThan(0);
      expect(some.products, 'products without a cost').to.be.greaterThan(1);
    });

    it('lists the products sold without a cost, named as the products report names them, the most units first', async () => {
      for (const q of UNCOSTED) await agree(JSON.stringify(q), (s) => answers(s).uncostedProducts(q), directUncostedProducts(world, q));
    });

    it('answers the products report by every column, with and without the previous period', async () => {
      for (const q of PRODUCTS) await agree(JSON.stringify(q), (s) => answers(s).products(q), directProducts(world, q));
    });

    it("prices the past again at once when a cost, the tax rate or the dashboard's zone changes", async () => {
      const costs = [...COSTS, { product: 'ext-3', currency: 'BRL', unitCostCents: 42, from: '2026-03-03' }];
      await storage.productCosts.put(DASHBOARD, costs.slice(-1));
      await storage.dashboards.update({ id: DASHBOARD, name: 'Profit', timezone: 'UTC', taxRate: 0.29, createdAt: new Date(0) });
      const changed: World = { ...world, zone: 'UTC', costs, taxRate: 0.29 };
      const q = BREAKDOWNS[0];
      expect(await answers(storage).breakdown(q)).to.deep.equal(directBreakdown(changed, q));
      const p = PRODUCTS[0];
      expect(await answers(storage).products(p)).to.deep.equal(directProducts(changed, p));
      const t = { ...TIMESERIES[1], timezone: 'UTC' as const };
      expect(await answers(storage).timeseries(t)).to.deep.equal(directTimeseries(changed, t));
    });
  });
};
