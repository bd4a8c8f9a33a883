import { expect } from 'chai';
import type { CellQuery, RankedBreakdownQuery, ReportCell } from '../../src/application/ports/report-reader';
import { rankBreakdown } from '../../src/application/reports/rank-breakdown';
import { sumSpend } from '../../src/adapters/persistence/spend-sums';
import type { SpendEntry } from '../../src/domain/spend';
import type { Storage } from '../../src/application/ports/storage';
import { attributionOf, type ReportDimension, type UtmDimension } from '../../src/domain/attribution';
import type { JsonObject, Order } from '../../src/domain/order';
import { ORDER_STATUSES } from '../../src/domain/order-status';
import { bucketsBetween } from '../../src/domain/time-zone';
import { anOrder } from '../support/order-builder';

/** A small deterministic generator (mulberry32), so that a failure replays. */
export const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
  return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
};

const START = Date.parse('2026-02-20T00:00:00.000Z');
const SPAN = 40 * 86_400_000;

/** Orders with every kind of attribution: first touches present, absent, partial; contents in tracking or extras. */
const someOrders = (seed: number, count: number, dashboardId = 'dsh_r'): Order[] => {
  const next = random(seed);
  const pick = <A>(values: readonly A[]): A => values[Math.floor(next() * values.length)];
  return Array.from({ length: count }, (_, i) => {
    const source = pick(['google', 'meta', 'tiktok']);
    const extras: JsonObject = {
      ...(next() < 0.5 ? { utmContent: pick(['ad-a', 'ad-b']) } : {}),
      ...(next() < 0.3 ? { utmTerm: pick(['shoes', 'boots']) } : {}),
      ...(next() < 0.6
        ? {
            firstTouch: {
              utmSource: pick(['google', 'email']),
              ...(next() < 0.7 ? { utmCampaign: pick(['launch', 'spring']) } : {}),
              utmMedium: 7,
            },
          }
        : {}),
    };
    const gross = 100 + Math.floor(next() * 100_000);
    return anOrder()
      .inDashboard(dashboardId)
      .with({
        id: `ord_${seed}_${i}`,
        externalId: `r-${seed}-${i}`,
        createdAt: new Date(START + Math.floor(next() * SPAN)),
        status: pick(ORDER_STATUSES),
        isTest: next() < 0.2,
        platform: pick(['shopify', 'woo']),
        paymentMethod: pick(['pix', 'card']),
        amounts: {
          currency: pick(['BRL', 'USD']),
          grossCents: gross,
          netToSellerCents: Math.floor(gross * 0.9),
          discountCents: 0,
          shippingCents: 0,
          taxesCents: 0,
          totalFeesCents: 0,
        },
        tracking: {
          utmSource: source,
          utmMedium: 'cpc',
          utmCampaign: pick(['launch', 'spring', 'summer']),
          ...(next() < 0.3 ? { utmContent: 'in-tracking' } : {}),
        },
        ...(Object.keys(extras).length === 0 && next() < 0.5 ? {} : { trackingExtras: extras }),
      })
      .build();
  });
};

/** The cells of `query` computed the plain way, order by order: what every store must answer. */
export const directCells = (orders: readonly Order[], query: CellQuery): string[] => {
  const sums = new Map<string, number[]>();
  for (const order of orders) {
    const at = order.createdAt.getTime();
    const bucket = query.buckets.findIndex((b) => at >= b.start && at < b.end);
    if (bucket < 0 || (query.isTest !== undefined && order.isTest !== query.isTest)) continue;
    const touch = query.model === 'first' ? attributionOf(order).first : attributionOf(order).last;
    if (Object.entries(query.filters).some(([d, v]) => touch[d as UtmDimension] !== v)) continue;
    const value = (d: ReportDimension) => (d === 'platform' ? order.platform : d === 'paymentMethod' ? order.paymentMethod : touch[d]);
    const id = JSON.stringify([bucket, query.by.map((d) => [d, value(d)]), order.amounts.currency]);
    const s = sums.get(id) ?? Array<number>(10).fill(0);
    const gross = order.amounts.grossCents;
    s[ORDER_STATUSES.indexOf(order.status)] += 1;
    s[5] += gross;
    if (order.status === 'paid') [s[6], s[7]] = [s[6] + gross, s[7] + order.amounts.netToSellerCents];
    if (order.status === 'refunded') s[8] += gross;
    if (order.status === 'chargedback') s[9] += gross;
    sums.set(id, s);
  }
  return [...sums].map(([id, s]) => `${id}=${s.join(',')}`).sort();
};

export const asStrings = (cells: readonly ReportCell[], by: readonly ReportDimension[]): string[] =>
  cells
    .map((c) => {
      const id = JSON.stringify([c.bucket, by.map((d) => [d, c.key[d]]), c.currency]);
      const s = [
        c.pending,
        c.paid,
        c.refused,
        c.refunded,
        c.chargedback,
        c.grossCents,
        c.paidGrossCents,
        c.paidNetCents,
        c.refundedCents,
        c.chargedbackCents,
      ];
      return `${id}=${s.join(',')}`;
    })
    .sort();

const QUERIES: readonly { name: string; query: () => CellQuery }[] = [
  {
    name: 'a breakdown by campaign over arbitrary instants (edges in the middle of days)',
    query: () => ({
      buckets: [{ start: START + 3 * 86_400_000 + 12_345_678, end: START + 31 * 86_400_000 + 4_321 }],
      by: ['utmCampaign'],
      model: 'last',
      isTest: false,
      filters: {},
      costZone: 'UTC',
    }),
  },
  {
    name: 'a first-touch breakdown by source, medium and campaign, test orders too',
    query: () => ({
      buckets: [{ start: START, end: START + SPAN }],
      by: ['utmSource', 'utmMedium', 'utmCampaign'],
      model: 'first',
      isTest: undefined,
      filters: {},
      costZone: 'UTC',
    }),
  },
  {
    name: 'a breakdown by content, term, platform and payment method',
    query: () => ({
      buckets: [{ start: START - 86_400_000, end: START + 20 * 86_400_000 + 1 }],
      by: ['utmContent', 'utmTerm', 'platform'],
      model: 'last',
      isTest: undefined,
      filters: { utmSource: 'google' },
      costZone: 'UTC',
    }),
  },
  ...(
    [
      ['day', 'UTC'],
      ['day', 'America/Sao_Paulo'],
      ['day', 'Asia/Kathmandu'],
      ['hour', 'Asia/Kathmandu'],
      ['day', 'Asia/Kolkata'],
      ['hour', 'Asia/Kolkata'],
      ['week', 'America/New_York'],
      ['month', 'Europe/Berlin'],
    ] as const
  ).map(([interval, zone]) => ({
    name: `a ${{ hour: 'hourly', day: 'daily', week: 'weekly', month: 'monthly' }[interval]} timeseries in ${zone}`,
    query: (): CellQuery => ({
      buckets: bucketsBetween(START + 86_400_000 + 1_234, START + (interval === 'hour' ? 3 : 35) * 86_400_000, interval, zone),
      by: [],
      model: 'last',
      isTest: false,
      filters: {},
      costZone: 'UTC',
    }),
  })),
  {
    name: 'a daily timeseries filtered by campaign and first-touch source, over a DST change in New York',
    query: () => ({
      buckets: bucketsBetween(Date.parse('2026-03-01T05:00:00Z'), Date.parse('2026-03-20T04:00:00Z'), 'day', 'America/New_York'),
      by: [],
      model: 'first',
      isTest: undefined,
      filters: { utmSource: 'google', utmCampaign: 'launch' },
      costZone: 'UTC',
    }),
  },
];

/**
 * Every store's reports against a direct computation over the same orders: breakdowns and timeseries
 * in several time zones, both models, with test orders or without, after creations and status changes.
 * `settle` lets a store that counts in the background (MongoDB) catch up: each query is checked before
 * and after it.
 */
export const reportReaderContract = (
  adapterName: string,
  factory: () => Promise<Storage>,
  settle?: (storage: Storage) => Promise<void>,
): void => {
  describe(`ReportReader contract: ${adapterName}`, () => {
    let storage: Storage;
    let orders: Order[];

    beforeEach(async () => {
      storage = await factory();
      orders = someOrders(7, 240);
      for (const order of orders) await storage.orders.insert(order, []);
      // Change the status of a third of them, as PATCHes do (the same row, another status).
      const next = random(11);
      orders = await Promise.all(
        orders.map(async (order) => {
          if (next() > 0.33) return order;
          const changed: Order = {
            ...order,
            status: ORDER_STATUSES[Math.floor(next() * ORDER_STATUSES.length)],
            version: order.version + 1,
          };
          expect(await storage.orders.replace(changed, [])).to.equal(true);
          return changed;
        }),
      );
      for (const other of someOrders(8, 30, 'dsh_other')) await storage.orders.insert(other, []);
    });

    for (const { name, query } of QUERIES) {
      it(`answers ${name} as a direct sum does`, async () => {
        const q = query();
        expect(asStrings(await storage.reports.cells('dsh_r', q), q.by)).to.deep.equal(directCells(orders, q));
        if (settle !== undefined) {
          await settle(storage);
          expect(asStrings(await storage.reports.cells('dsh_r', q), q.by), 'after the store caught up').to.deep.equal(
            directCells(orders, q),
          );
        }
      });
    }

    it('ranks a breakdown as its cells and its spend say, and answers only the first `limit` rows', async () => {
      const entry = (date: string, utmSource: string, utmCampaign: string, amountCents: number): SpendEntry => ({
        date,
        utmSource,
        utmMedium: 'cpc',
        utmCampaign,
        utmContent: '(not set)',
        currency: 'BRL',
        amountCents,
      });
      const entries = [
        entry('2026-02-21', 'google', 'launch', 50_000),
        entry('2026-03-02', 'google', 'launch', 25_000),
        entry('2026-03-05', 'meta', 'spring', 90_000),
        entry('2026-03-06', 'newsletter', 'nothing-sold', 1_000),
        entry('2026-05-01', 'google', 'summer', 7_000),
      ];
      await storage.spend.upsert('dsh_r', entries);
      const range = { start: START, end: START + SPAN };
      const days = { from: '2026-02-20', to: '2026-03-31' };
      for (const [sort, limit] of [
        ['roas', 3],
        ['paidGrossCents', 1_000],
        ['spendCents', 2],
        ['approvalRate', 4],
      ] as const) {
        const query: RankedBreakdownQuery = {
          range,
          by: ['utmSource', 'utmCampaign'],
          model: 'last',
          isTest: undefined,
          filters: {},
          sort,
          limit,
          costZone: 'UTC',
          taxRate: 0,
          spend: { by: ['utmSource', 'utmCampaign'], filters: {}, days },
        };
        const cells = await storage.reports.cells('dsh_r', { ...query, buckets: [range] });
        const spent = sumSpend(
          entries.filter((e) => e.date >= days.from && e.date <= days.to),
          { by: ['utmSource', 'utmCampaign'], byDate: false },
        );
        const expected = await rankBreakdown(cells, spent, query);
        const answered = await storage.reports.breakdown('dsh_r', query);
        expect(answered, `${sort}, limit ${limit}`).to.deep.equal(expected);
        expect(answered.rows.length).to.equal(Math.min(limit, answered.totalRows));
        expect(answered.rows.some((row) => row.key.utmSource === 'newsletter') || limit < answered.totalRows).to.equal(true);
      }
      const unjoined = await storage.reports.breakdown('dsh_r', {
        range,
        by: ['platform'],
        model: 'last',
        isTest: false,
        filters: {},
        sort: 'orders',
        limit: 10,
        costZone: 'UTC',
        taxRate: 0,
      });
      expect(unjoined.rows.every((row) => row.spendCents === null)).to.equal(true);
    });

    it("counts nothing of another dashboard's, and nothing for a dashboard without orders", async () => {
      const q: CellQuery = {
        buckets: [{ start: START, end: START + SPAN }],
        by: [],
        model: 'last',
        isTest: undefined,
        filters: {},
        costZone: 'UTC',
      };
      expect(await storage.reports.cells('dsh_none', q)).to.deep.equal([]);
      const others = await storage.reports.cells('dsh_other', q);
      expect(others.reduce((n, c) => n + c.pending + c.paid + c.refused + c.refunded + c.chargedback, 0)).to.equal(30);
    });
  });
};
