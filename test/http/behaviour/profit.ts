import { expect } from 'chai';
import { anOrderPayload } from '../../support/order-builder';
import { ORDERS, useApi, type Harness, type StorageFactory } from '../harness';
import { expectInvalid } from '../problem-assertions';

const COSTS = '/api/v1/product-costs';
const BREAKDOWN = '/api/v1/reports/breakdown';
const TIMESERIES = '/api/v1/reports/timeseries';
const PRODUCTS = '/api/v1/reports/products';
const MARCH = 'from=2026-03-01T00:00:00Z&to=2026-03-31T23:59:59.999Z';

const aCost = (changes: Record<string, unknown> = {}) => ({
  product: 'SHIRT',
  currency: 'BRL',
  unitCostCents: 1_000,
  from: '2026-03-01',
  ...changes,
});

/** The shirt as a checkout sends it: under the checkout's own id and its SKU, SHIRT, its product. */
const shirt = (quantity: number, unitPriceCents: number, name = 'Shirt') => ({
  externalId: '7001',
  sku: 'SHIRT',
  name,
  quantity,
  unitPriceCents,
});
const mug = (quantity: number, unitPriceCents: number) => ({ sku: 'MUG', name: 'Mug', quantity, unitPriceCents });

/**
 * Orders worked out by hand (decision 0020), in a UTC dashboard taxed at 1.15 %. SHIRT costs R$10.00
 * from 2026-03-01 and R$15.00 from 2026-03-15; MUG (a line with a sku and no externalId) has no cost.
 * March: o-1 and o-2 paid, o-3 refused, all of campaign `launch`, and R$30.00 of spend on 03-10. The
 * previous period of March (31 days before it): o-4 (`launch`, SHIRT before any cost) and o-5 (`old`).
 */
const seed = async (h: Harness): Promise<void> => {
  const orders = [
    ['o-1', 'paid', '2026-03-10T12:00:00Z', 'launch', [10_000, 9_000], [shirt(2, 4_000), mug(1, 2_000)]],
    ['o-2', 'paid', '2026-03-20T12:00:00Z', 'launch', [6_000, 5_400], [shirt(2, 3_000, 'Shirt v2')]],
    ['o-3', 'refused', '2026-03-12T12:00:00Z', 'launch', [5_000, 4_500], [shirt(1, 5_000)]],
    ['o-4', 'paid', '2026-02-20T12:00:00Z', 'launch', [4_000, 3_600], [shirt(1, 4_000)]],
    ['o-5', 'paid', '2026-02-25T12:00:00Z', 'old', [1_000, 900], [mug(1, 1_000)]],
  ] as const;
  for (const [externalId, status, createdAt, utmCampaign, [grossCents, netToSellerCents], products] of orders) {
    const body = anOrderPayload({
      externalId,
      status,
      createdAt,
      amounts: { currency: 'BRL', grossCents, netToSellerCents },
      products,
      tracking: { utmSource: 'google', utmMedium: 'cpc', utmCampaign },
    });
    const res = await h.api.request('POST', ORDERS, { token: h.token, body });
    expect(res.status, res.text).to.equal(201);
  }
  const costs = await h.api.request('PUT', COSTS, {
    token: h.token,
    body: { entries: [aCost(), aCost({ unitCostCents: 1_500, from: '2026-03-15' })] },
  });
  expect(costs.status, costs.text).to.equal(200);
  const spend = { date: '2026-03-10', utmSource: 'google', utmCampaign: 'launch', currency: 'BRL', amountCents: 3_000 };
  expect((await h.api.request('PUT', '/api/v1/spend', { token: h.token, body: { entries: [spend] } })).status).to.equal(200);
  const taxed = await h.api.admin('PATCH', `/admin/v1/dashboards/${h.dashboardId}`, { taxRate: 1.15 });
  expect(taxed.status, taxed.text).to.equal(200);
  // Another dashboard's costs, orders and tax rate must change nothing of this one's.
  const other = await h.api.newDashboard('Other shop');
  await h.api.admin('PATCH', `/admin/v1/dashboards/${other.dashboardId}`, { taxRate: 50 });
  await h.api.request('PUT', COSTS, { token: other.token, body: { entries: [aCost({ unitCostCents: 99_999, from: '2026-01-01' })] } });
  const foreign = anOrderPayload({ externalId: 'x-1', status: 'paid', createdAt: '2026-03-10T12:00:00Z', products: [shirt(1, 10_000)] });
  expect((await h.api.request('POST', ORDERS, { token: other.token, body: foreign })).status).to.equal(201);
};

/** Product costs, the tax rate and the profit reports over HTTP (decision 0020), on every store. */
export const profitBehaviour = (storageFactory: StorageFactory): void => {
  describe('PUT and GET /api/v1/product-costs', () => {
    const h = useApi(storageFactory);
    const put = (body: unknown, token = h.token) => h.api.request('PUT', COSTS, { token, body });
    const list = (query = '', token = h.token) => h.api.request('GET', `${COSTS}${query}`, { token });

    it('stores dated costs, sets (not adds to) a key sent again, and lists them by product, currency and day, page by page', async () => {
      const first = await put({
        entries: [aCost({ from: '2026-03-15', unitCostCents: 1_500 }), aCost(), aCost({ product: 'mug' }), aCost({ currency: 'USD' })],
      });
      expect(first.status, first.text).to.equal(200);
      expect(first.body).to.deep.equal({ upserted: 4 });
      expect((await put({ entries: [aCost({ unitCostCents: 0 }), aCost({ unitCostCents: 7 })] })).body).to.deep.equal({ upserted: 1 });
      const all = await list();
      expect(all.status, all.text).to.equal(200);
      // By code point: `SHIRT` before `mug`, `BRL` before `USD`, and the days in order.
      expect(all.body).to.deep.equal({
        entries: [
          aCost({ unitCostCents: 7 }),
          aCost({ from: '2026-03-15', unitCostCents: 1_500 }),
          aCost({ currency: 'USD' }),
          aCost({ product: 'mug' }),
        ],
        pageSize: 20,
        nextCursor: null,
      });
      const seen: unknown[] = [];
      let cursor: string | null = null;
      do {
        const page = await list(`?pageSize=1&currency=BRL${cursor === null ? '' : `&after=${cursor}`}`);
        expect(page.status, page.text).to.equal(200);
        seen.push(...page.body.entries);
        cursor = page.body.nextCursor;
      } while (cursor !== null && seen.length < 10);
      expect(seen).to.deep.equal([
        aCost({ unitCostCents: 7 }),
        aCost({ from: '2026-03-15', unitCostCents: 1_500 }),
        aCost({ product: 'mug' }),
      ]);
      expect((await list('?product=mug')).body.entries).to.deep.equal([aCost({ product: 'mug' })]);
    });

    it('checks every entry first and stores none when one is wrong, naming every problem at once', async () => {
      const res = await put({
        entries: [
          aCost(),
          aCost({ unitCostCents: 1.5, from: '2026-02-30' }),
          aCost({ product: '', currency: 'brl', colour: 'red' }),
          aCost({ product: 'x'.repeat(256), unitCostCents: -1, from: '1 March' }),
        ],
      });
      expectInvalid(res, [
        'entries.1.unitCostCents',
        'entries.1.from',
        'entries.2.product',
        'entries.2.currency',
        'entries.2.colour',
        'entries.3.product',
        'entries.3.unitCostCents',
        'entries.3.from',
      ]);
      expect((await list()).body.entries).to.deep.equal([]);
      expectInvalid(await put({ entries: [] }), ['entries']);
      expectInvalid(await put({ entries: Array.from({ length: 1_001 }, (_, i) => aCost({ unitCostCents: i })) }), ['entries']);
      expectInvalid(await put({ costs: [aCost()] }), ['entries', 'costs']);
      expect((await list()).body.entries).to.deep.equal([]);
    });

    it('refuses a made-up cursor, one of other filters and a bad page size, and shows nothing of another dashboard', async () => {
      await put({ entries: [aCost(), aCost({ product: 'MUG' })] });
      const first = await list('?pageSize=1');
      expect(first.body.nextCursor).to.be.a('string');
      expectInvalid(await list(`?pageSize=1&currency=BRL&after=${first.body.nextCursor}`), ['query.after']);
      expectInvalid(await list('?after=made-up'), ['query.after']);
      expectInvalid(await list('?pageSize=0&currency=brl&colour=red'), ['query.pageSize', 'query.currency', 'query.colour']);
      const other = await h.api.newDashboard('Other shop');
      expect((await list('', other.token)).body.entries).to.deep.equal([]);
      expect((await put({ entries: [aCost({ unitCostCents: 5 })] }, other.token)).body).to.deep.equal({ upserted: 1 });
      expect((await list()).body.entries).to.deep.equal([aCost({ product: 'MUG' }), aCost()]);
    });
  });

  describe("the dashboard's tax rate", () => {
    const h = useApi(storageFactory);
    const patch = (body: unknown) => h.api.admin('PATCH', `/admin/v1/dashboards/${h.dashboardId}`, body);

    it('is 0 until the admin API sets it, then shows on GET /api/v1/dashboard', async () => {
      expect((await h.api.request('GET', '/api/v1/dashboard', { token: h.token })).body.dashboard.taxRate).to.equal(0);
      const set = await patch({ taxRate: 12.34 });
      expect(set.status, set.text).to.equal(200);
      expect(set.body.dashboard).to.deep.include({ taxRate: 12.34, timezone: 'UTC' });
      expect((await patch({ taxRate: 100 })).body.dashboard.taxRate).to.equal(100);
      expect((await h.api.request('GET', '/api/v1/dashboard', { token: h.token })).body.dashboard).to.deep.include({ taxRate: 100 });
    });

    it('refuses more than 2 decimals, a negative rate, more than 100 and text, and keeps the rate it had', async () => {
      await patch({ taxRate: 7.25 });
      for (const taxRate of [12.345, -1, 100.01, '7', null]) expectInvalid(await patch({ taxRate }), ['taxRate']);
      expect((await h.api.request('GET', '/api/v1/dashboard', { token: h.token })).body.dashboard.taxRate).to.equal(7.25);
    });
  });

  describe('profit in the reports', () => {
    const h = useApi(storageFactory);
    const get = (path: string) => h.api.request('GET', path, { token: h.token });
    const figures = (row: Record<string, unknown>, names: readonly string[]) => names.map((name) => row[name]);
    const PROFIT = [
      'orders',
      'paid',
      'paidGrossCents',
      'paidNetCents',
      'productCostCents',
      'uncostedUnits',
      'taxCents',
      'contributionCents',
      'spendCents',
      'profitCents',
      'marginRate',
      'roi',
    ] as const;

    it('answers every profit metric of a breakdown row, and the previous period with a key found only then', async () => {
      await seed(h);
      const res = await get(`${BREAKDOWN}?${MARCH}&by=utmCampaign&compare=previous`);
      expect(res.status, res.text).to.equal(200);
      expect(res.body.totalRows).to.equal(2);
      const [launch, old] = res.body.rows;
      expect([launch.key, launch.currency, old.key]).to.deep.equal([{ utmCampaign: 'launch' }, 'BRL', { utmCampaign: 'old' }]);
      // 16,000 paid; cost 2 × 1,000 (03-10) + 2 × 1,500 (03-20); tax round(184); 14,400 − 5,000 − 184 = 9,216; − 3,000 of spend.
      expect(figures(launch, PROFIT)).to.deep.equal([3, 2, 16_000, 14_400, 5_000, 1, 184, 9_216, 3_000, 6_216, 0.3885, 2.072]);
      // o-4: its SHIRT before the first cost is uncosted; tax round(46); no spend then, so profit is the contribution.
      expect(figures(launch.previous, PROFIT)).to.deep.equal([1, 1, 4_000, 3_600, 0, 1, 46, 3_554, 0, 3_554, 0.8885, null]);
      expect(figures(old, PROFIT)).to.deep.equal([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, null, null]);
      expect(figures(old.previous, PROFIT)).to.deep.equal([1, 1, 1_000, 900, 0, 1, 12, 888, 0, 888, 0.888, null]);
      expect(Object.keys(launch.previous)).to.not.include.members(['key', 'currency', 'previous']);

      const plain = await get(`${BREAKDOWN}?${MARCH}&by=utmCampaign`);
      expect(plain.body.totalRows).to.equal(1);
      expect(plain.body.rows[0]).to.not.have.property('previous');
      expect(figures(plain.body.rows[0], PROFIT)).to.deep.equal(figures(launch, PROFIT));
      // Sorted by profit, ties by key: `old` has none now.
      const byProfit = await get(`${BREAKDOWN}?${MARCH}&by=utmCampaign&compare=previous&sort=profitCents&limit=1`);
      expect(byProfit.body.rows.map((r: any) => r.key.utmCampaign)).to.deep.equal(['launch']);
      expect(byProfit.body.totalRows).to.equal(2);
    });

    it('has a contribution but no profit, margin nor ROI where spend cannot join the row', async () => {
      await seed(h);
      const res = await get(`${BREAKDOWN}?${MARCH}&by=platform`);
      expect(res.status, res.text).to.equal(200);
      expect(figures(res.body.rows[0], PROFIT)).to.deep.equal([3, 2, 16_000, 14_400, 5_000, 1, 184, 9_216, null, null, null, null]);
    });

    it('re-prices past reports at once when a cost or the tax rate changes', async () => {
      await seed(h);
      await h.api.request('PUT', COSTS, {
        token: h.token,
        body: { entries: [aCost({ unitCostCents: 2_000 }), aCost({ product: 'MUG' })] },
      });
      await h.api.admin('PATCH', `/admin/v1/dashboards/${h.dashboardId}`, { taxRate: 0 });
      const res = await get(`${BREAKDOWN}?${MARCH}&by=utmCampaign`);
      // SHIRT 2 × 2,000 + 2 × 1,500, MUG 1 × 1,000; no tax: 14,400 − 8,000 = 6,400.
      expect(figures(res.body.rows[0], PROFIT)).to.deep.equal([3, 2, 16_000, 14_400, 8_000, 0, 0, 6_400, 3_000, 3_400, 0.2125, 1.1333]);
    });

    it('answers profit bucket by bucket, each with the bucket a period earlier', async () => {
      await seed(h);
      const res = await get(`${TIMESERIES}?${MARCH}&interval=month&compare=previous`);
      expect(res.status, res.text).to.equal(200);
      expect(res.body.series).to.have.length(1);
      const [bucket] = res.body.series[0].buckets;
      expect([bucket.start, bucket.end]).to.deep.equal(['2026-03-01T00:00:00.000+00:00', '2026-04-01T00:00:00.000+00:00']);
      expect(figures(bucket, PROFIT)).to.deep.equal([3, 2, 16_000, 14_400, 5_000, 1, 184, 9_216, 3_000, 6_216, 0.3885, 2.072]);
      // 31 days earlier: o-4 and o-5, two uncosted units, tax round(57.5) = 58, half away from zero.
      expect([bucket.previous.start, bucket.previous.end]).to.deep.equal([
        '2026-01-29T00:00:00.000+00:00',
        '2026-03-01T00:00:00.000+00:00',
      ]);
      expect(figures(bucket.previous, PROFIT)).to.deep.equal([2, 2, 5_000, 4_500, 0, 2, 58, 4_442, 0, 4_442, 0.8884, null]);
      const launch = await get(`${TIMESERIES}?${MARCH}&interval=month&compare=previous&utmCampaign=launch`);
      expect(launch.body.series[0].buckets[0].previous.paidGrossCents).to.equal(4_000);
      const byTerm = await get(`${TIMESERIES}?${MARCH}&interval=month&utmTerm=shoes`);
      expect(byTerm.body.series).to.deep.equal([]);
    });

    it('ranks products with their units, paid revenue, cost and margin, and the previous period', async () => {
      await seed(h);
      const res = await get(`${PRODUCTS}?${MARCH}&compare=previous`);
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.deep.include({ from: '2026-03-01T00:00:00.000Z', to: '2026-03-31T23:59:59.999Z', model: 'last', totalRows: 2 });
      expect(res.body.rows).to.deep.equal([
        {
          product: 'SHIRT',
          currency: 'BRL',
          name: 'Shirt v2',
          orders: 3,
          units: 5,
          paidUnits: 4,
          paidRevenueCents: 14_000,
          productCostCents: 5_000,
          grossMarginCents: 9_000,
          uncostedUnits: 0,
          previous: {
            orders: 1,
            units: 1,
            paidUnits: 1,
            paidRevenueCents: 4_000,
            productCostCents: 0,
            grossMarginCents: 4_000,
            uncostedUnits: 1,
          },
        },
        {
          product: 'MUG',
          currency: 'BRL',
          name: 'Mug',
          orders: 1,
          units: 1,
          paidUnits: 1,
          paidRevenueCents: 2_000,
          productCostCents: 0,
          grossMarginCents: 2_000,
          uncostedUnits: 1,
          previous: {
            orders: 1,
            units: 1,
            paidUnits: 1,
            paidRevenueCents: 1_000,
            productCostCents: 0,
            grossMarginCents: 1_000,
            uncostedUnits: 1,
          },
        },
      ]);
      // The mug has no cost: profit leaves out one unit of one product, over every row.
      expect(res.body.uncosted).to.deep.equal({ units: 1, products: 1 });
      const byUncosted = await get(`${PRODUCTS}?${MARCH}&sort=uncostedUnits&limit=1`);
      expect(byUncosted.body.rows.map((r: any) => r.product)).to.deep.equal(['MUG']);
      expect(byUncosted.body.totalRows).to.equal(2);
      expect((await get(`${PRODUCTS}?${MARCH}&sort=orders&limit=1`)).body.uncosted).to.deep.equal({ units: 1, products: 1 });
      expect(byUncosted.body.rows[0]).to.not.have.property('previous');
      const old = await get(`${PRODUCTS}?${MARCH}&compare=previous&utmCampaign=old`);
      // A product sold only in the previous period is a row with nothing now.
      expect(old.body.rows.map((r: any) => [r.product, r.orders, r.previous.orders])).to.deep.equal([['MUG', 0, 1]]);
    });
  });

  describe('GET /api/v1/reports/uncosted-products', () => {
    const h = useApi(storageFactory);
    const get = (path: string) => h.api.request('GET', path, { token: h.token });
    const UNCOSTED = '/api/v1/reports/uncosted-products';

    it('lists the products sold without a cost, the most units first, and what the reports say their profit leaves out', async () => {
      await seed(h);
      // February: o-4's shirt before its first cost, o-5's mug.
      const february = 'from=2026-02-01T00:00:00Z&to=2026-02-28T23:59:59.999Z';
      const res = await get(`${UNCOSTED}?${february}`);
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.deep.equal({
        from: '2026-02-01T00:00:00.000Z',
        to: '2026-02-28T23:59:59.999Z',
        rows: [
          // Equal on units: by product, by code point.
          { product: 'MUG', currency: 'BRL', name: 'Mug', uncostedUnits: 1 },
          { product: 'SHIRT', currency: 'BRL', name: 'Shirt', uncostedUnits: 1 },
        ],
        totalRows: 2,
        units: 2,
        products: 2,
      });
      const first = await get(`${UNCOSTED}?${february}&limit=1`);
      expect([first.body.rows.length, first.body.totalRows, first.body.units]).to.deep.equal([1, 2, 2]);
      expect((await get(`${UNCOSTED}?${february}&isTest=true`)).body.rows).to.deep.equal([]);
      const breakdown = await get(`${BREAKDOWN}?${february}&by=utmCampaign&limit=1`);
      expect([breakdown.body.rows.length, breakdown.body.uncosted]).to.deep.equal([1, { units: 2, products: 2 }]);
      const series = await get(`${TIMESERIES}?${february}&interval=day&utmCampaign=old`);
      expect(series.body.uncosted).to.deep.equal({ units: 1, products: 1 });
      // A cost for the mug from the first day of the period prices it: only the shirt is left.
      expect(
        (await h.api.request('PUT', COSTS, { token: h.token, body: { entries: [aCost({ product: 'MUG', from: '2026-02-01' })] } })).status,
      ).to.equal(200);
      expect((await get(`${UNCOSTED}?${february}`)).body.rows.map((r: any) => r.product)).to.deep.equal(['SHIRT']);
      expect((await get(`${BREAKDOWN}?${MARCH}&by=utmCampaign`)).body.uncosted).to.deep.equal({ units: 0, products: 0 });
      expectInvalid(await get(`${UNCOSTED}?from=2026-03-02T00:00:00Z&to=2026-03-01T00:00:00Z`), ['query.from']);
      expectInvalid(await get(`${UNCOSTED}?${february}&limit=0&sort=units`), ['query.limit', 'query.sort']);
    });
  });

  describe('profit queries: validation', () => {
    const h = useApi(storageFactory);
    const get = (path: string) => h.api.request('GET', path, { token: h.token });

    it('reports every problem of a products query at once', async () => {
      expectInvalid(await get(PRODUCTS), ['query.from', 'query.to']);
      expectInvalid(await get(`${PRODUCTS}?${MARCH}&sort=profitCents&compare=next&limit=0&model=middle&by=utmSource&utmTerm=`), [
        'query.sort',
        'query.compare',
        'query.limit',
        'query.model',
        'query.by',
        'query.utmTerm',
      ]);
      expectInvalid(await get(`${PRODUCTS}?from=2026-03-02T00:00:00Z&to=2026-03-01T00:00:00Z`), ['query.from']);
      expectInvalid(await get(`${PRODUCTS}?from=2025-01-01T00:00:00Z&to=2026-01-03T00:00:00Z`), ['query.to']);
    });

    it('refuses a comparison other than previous on a breakdown and a timeseries, and takes every profit metric as sort', async () => {
      expectInvalid(await get(`${BREAKDOWN}?${MARCH}&by=utmSource&compare=last-year`), ['query.compare']);
      expectInvalid(await get(`${TIMESERIES}?${MARCH}&interval=day&compare=`), ['query.compare']);
      for (const sort of ['productCostCents', 'uncostedUnits', 'taxCents', 'contributionCents', 'profitCents', 'marginRate', 'roi']) {
        const res = await get(`${BREAKDOWN}?${MARCH}&by=utmSource&sort=${sort}`);
        expect(res.status, `${sort}: ${res.text}`).to.equal(200);
      }
    });

    it("bounds an hourly series by 31 days of its zone's calendar: 745 hours where a DST change falls in them", async () => {
      const order = anOrderPayload({ createdAt: '2026-10-15T12:00:00Z' });
      expect((await h.api.request('POST', ORDERS, { token: h.token, body: order })).status).to.equal(201);
      // October 2026 in Berlin: 31 days and the hour that summer time gives back.
      const october = 'from=2026-09-30T22:00:00Z&to=2026-10-31T22:59:59.999Z&interval=hour';
      const berlin = await get(`${TIMESERIES}?${october}&timezone=Europe/Berlin`);
      expect(berlin.status, berlin.text).to.equal(200);
      expect(berlin.body.series[0].buckets).to.have.length(745);
      const longer = 'from=2026-09-30T22:00:00Z&to=2026-10-31T23:00:00.001Z&interval=hour&timezone=Europe/Berlin';
      expectInvalid(await get(`${TIMESERIES}?${longer}`), ['query.to']);
      // The same range in UTC is a day and an hour too long; in the dashboard's zone, when the query names none, it is a month.
      expectInvalid(await get(`${TIMESERIES}?${october}`), ['query.to']);
      await h.api.admin('PATCH', `/admin/v1/dashboards/${h.dashboardId}`, { timezone: 'Europe/Berlin' });
      expect((await get(`${TIMESERIES}?${october}`)).status).to.equal(200);
    });
  });
};
