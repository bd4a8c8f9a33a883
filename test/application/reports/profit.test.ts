import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import { inMemoryStorage } from '../../../src/adapters/memory/in-memory-storage';
import type { Storage } from '../../../src/application/ports/storage';
import { reportUseCases } from '../../../src/application/reports/report-use-cases';
import type { BreakdownQuery } from '../../../src/application/reports/get-breakdown';
import type { Order, Product } from '../../../src/domain/order';
import type { OrderStatus } from '../../../src/domain/order-status';
import type { SpendEntry } from '../../../src/domain/spend';
import { anOrder } from '../../support/order-builder';

const ZONE = 'America/Sao_Paulo';

let n = 0;
/** An order of dashboard `dsh_a` made by hand: campaign, status, currency, money, instant and lines. */
const order = (
  campaign: string,
  status: OrderStatus,
  currency: 'BRL' | 'USD',
  [grossCents, netToSellerCents]: [number, number],
  at: string,
  products: Product[],
): Order =>
  anOrder()
    .inDashboard('dsh_a')
    .with({
      id: `ord_${String(++n).padStart(3, '0')}`,
      externalId: `o-${n}`,
      status,
      createdAt: new Date(at),
      amounts: { currency, grossCents, netToSellerCents, discountCents: 0, shippingCents: 0, taxesCents: 0, totalFeesCents: 0 },
      products,
      tracking: { utmSource: 'google', utmMedium: 'cpc', utmCampaign: campaign },
    })
    .build();

/** The shirt as a checkout sends it: under the checkout's own id, with its SKU. */
const shirt = (quantity: number, unitPriceCents: number, name = 'Shirt'): Product => ({
  externalId: '7001',
  sku: 'SHIRT',
  name,
  quantity,
  unitPriceCents,
});
const spend = (date: string, currency: string, amountCents: number): SpendEntry => ({
  date,
  utmSource: 'google',
  utmMedium: 'cpc',
  utmCampaign: 'A',
  utmContent: '(not set)',
  currency,
  amountCents,
});

/**
 * Profit against figures worked out by hand (decision 0020), in São Paulo (UTC−03:00): a cost's day
 * begins at 03:00 UTC. SHIRT costs R$10.00 from 2026-03-10 and R$15.00 from 2026-03-11, US$3.00
 * from 2026-03-01; MUG has no cost; the tax rate is 1.15 %, which a float gets wrong on 3,000 and
 * 15,000 cents (34.4999… and 172.4999…).
 */
describe('profit reports: each metric against figures worked out by hand', () => {
  let storage: Storage;
  const range = { from: new Date('2026-03-09T03:00:00Z'), to: new Date('2026-03-12T02:59:59.999Z') };

  beforeEach(async () => {
    storage = inMemoryStorage();
    await storage.dashboards.insert({
      id: 'dsh_a',
      name: 'Shop',
      timezone: ZONE,
      taxRate: 1.15,
      createdAt: new Date('2026-01-01T00:00:00Z'),
    });
    for (const o of [
      // 23:30 of 2026-03-10 in São Paulo, already 2026-03-11 in UTC: SHIRT at R$10.00, not R$15.00. MUG has no cost.
      order('A', 'paid', 'BRL', [10_000, 9_000], '2026-03-11T02:30:00Z', [
        shirt(2, 4_000),
        { sku: 'MUG', name: 'Mug', quantity: 1, unitPriceCents: 2_000 },
      ]),
      // 00:00 of 2026-03-11 in São Paulo: R$15.00. A line with the SKU alone is the same product.
      order('A', 'paid', 'BRL', [5_000, 4_600], '2026-03-11T03:00:00Z', [
        { sku: 'SHIRT', name: 'Shirt', quantity: 1, unitPriceCents: 4_000 },
      ]),
      // Refunded: no cost counts, its units do.
      order('A', 'refunded', 'BRL', [7_000, 6_500], '2026-03-11T12:00:00Z', [shirt(3, 4_000, 'Shirt v2')]),
      order('A', 'paid', 'USD', [2_000, 1_800], '2026-03-11T12:00:00Z', [shirt(1, 2_000)]),
      // 23:00 of 2026-03-09 in São Paulo: before SHIRT has a cost.
      order('B', 'paid', 'BRL', [3_000, 2_700], '2026-03-10T02:00:00Z', [shirt(1, 4_000)]),
      // The previous period (2026-03-06 to 2026-03-08 in São Paulo): no cost yet.
      order('A', 'paid', 'BRL', [4_000, 3_600], '2026-03-07T15:00:00Z', [shirt(1, 4_000, 'Old shirt')]),
    ])
      await storage.orders.insert(o, []);
    await storage.productCosts.put('dsh_a', [
      { product: 'SHIRT', currency: 'BRL', unitCostCents: 1_000, from: '2026-03-10' },
      { product: 'SHIRT', currency: 'BRL', unitCostCents: 1_500, from: '2026-03-11' },
      { product: 'SHIRT', currency: 'USD', unitCostCents: 300, from: '2026-03-01' },
      // Under the checkout's id of the shirt, from the day its SKU's first cost begins: the SKU's cost wins.
      { product: '7001', currency: 'BRL', unitCostCents: 99_999, from: '2026-03-10' },
    ]);
    await storage.spend.upsert('dsh_a', [
      spend('2026-03-10', 'BRL', 2_000),
      spend('2026-03-11', 'BRL', 1_000),
      spend('2026-03-11', 'USD', 500),
    ]);
  });

  const breakdown = async (query: Partial<BreakdownQuery>) => {
    const result = await reportUseCases(storage).getBreakdown.execute('dsh_a', {
      ...range,
      by: ['utmCampaign'],
      model: 'last',
      isTest: false,
      filters: {},
      sort: 'profitCents',
      limit: 100,
      ...query,
    });
    if (E.isLeft(result)) throw new Error('no such dashboard');
    return result.right;
  };

  it('prices, taxes and subtracts per campaign and currency, ranked by profit', async () => {
    const { rows } = await breakdown({});
    expect(rows.map((r) => [r.key.utmCampaign, r.currency])).to.deep.equal([
      ['A', 'BRL'],
      ['B', 'BRL'],
      ['A', 'USD'],
    ]);
    const pick = ({
      productCostCents,
      uncostedUnits,
      taxCents,
      contributionCents,
      spendCents,
      profitCents,
      marginRate,
      roi,
      roas,
      cpaCents,
    }: (typeof rows)[number]) => ({
      productCostCents,
      uncostedUnits,
      taxCents,
      contributionCents,
      spendCents,
      profitCents,
      marginRate,
      roi,
      roas,
      cpaCents,
    });
    // A in reais: paid 15,000 gross, 13,600 net; 2 × 1,000 + 1 × 1,500; tax 172.5 → 173; spend 3,000.
    expect(pick(rows[0])).to.deep.equal({
      productCostCents: 3_500,
      uncostedUnits: 1,
      taxCents: 173,
      contributionCents: 9_927,
      spendCents: 3_000,
      profitCents: 6_927,
      marginRate: 0.4618,
      roi: 2.309,
      roas: 5,
      cpaCents: 1_500,
    });
    // B: no cost yet, no spend: its profit is its contribution, with no ROI; tax 34.5 → 35.
    expect(pick(rows[1])).to.deep.equal({
      productCostCents: 0,
      uncostedUnits: 1,
      taxCents: 35,
      contributionCents: 2_665,
      spendCents: 0,
      profitCents: 2_665,
      marginRate: 0.8883,
      roi: null,
      roas: null,
      cpaCents: null,
    });
    // A in dollars: its own cost and spend, never added to the reais.
    expect(pick(rows[2])).to.deep.equal({
      productCostCents: 300,
      uncostedUnits: 0,
      taxCents: 23,
      contributionCents: 1_477,
      spendCents: 500,
      profitCents: 977,
      marginRate: 0.4885,
      roi: 1.954,
      roas: 4,
      cpaCents: 500,
    });
  });

  it('has no profit, margin or ROI where spend cannot join, and still the contribution', async () => {
    const { rows } = await breakdown({ by: ['platform'], sort: 'contributionCents' });
    expect(rows.map((r) => [r.currency, r.contributionCents, r.profitCents, r.marginRate, r.roi])).to.deep.equal([
      // Taxed once on the row's 18,000: 207, not 173 + 35.
      ['BRL', 16_300 - 3_500 - 207, null, null, null],
      ['USD', 1_477, null, null, null],
    ]);
  });

  it('compares with the period before, a campaign of that period alone included', async () => {
    const { rows } = await breakdown({ compare: 'previous', sort: 'orders' });
    const a = rows.find((r) => r.key.utmCampaign === 'A' && r.currency === 'BRL')!;
    expect(a.previous).to.deep.include({
      orders: 1,
      paid: 1,
      paidGrossCents: 4_000,
      productCostCents: 0,
      uncostedUnits: 1,
      taxCents: 46,
      spendCents: 0,
    });
    expect(a.previous).to.deep.include({ contributionCents: 3_554, profitCents: 3_554 });
    expect(rows.find((r) => r.key.utmCampaign === 'B')!.previous).to.deep.include({ orders: 0, profitCents: 0, marginRate: null });
  });

  it('reports products: units, paid revenue, cost, margin and what has no cost, named by the latest order', async () => {
    const result = await reportUseCases(storage).getProducts.execute('dsh_a', {
      ...range,
      model: 'last',
      isTest: false,
      filters: {},
      sort: 'paidRevenueCents',
      limit: 10,
      compare: 'previous',
    });
    if (E.isLeft(result)) throw new Error('no such dashboard');
    const zero = { orders: 0, units: 0, paidUnits: 0, paidRevenueCents: 0, productCostCents: 0, grossMarginCents: 0, uncostedUnits: 0 };
    expect(result.right).to.deep.equal({
      totalRows: 3,
      // The BRL shirt bought before its first cost, and the mug.
      uncosted: { units: 2, products: 2 },
      rows: [
        {
          product: 'SHIRT',
          currency: 'BRL',
          name: 'Shirt v2',
          orders: 4,
          units: 7,
          paidUnits: 4,
          paidRevenueCents: 16_000,
          productCostCents: 3_500,
          grossMarginCents: 12_500,
          uncostedUnits: 1,
          previous: { ...zero, orders: 1, units: 1, paidUnits: 1, paidRevenueCents: 4_000, grossMarginCents: 4_000, uncostedUnits: 1 },
        },
        // Equal on paid revenue: MUG before SHIRT.
        {
          product: 'MUG',
          currency: 'BRL',
          name: 'Mug',
          ...zero,
          orders: 1,
          units: 1,
          paidUnits: 1,
          paidRevenueCents: 2_000,
          grossMarginCents: 2_000,
          uncostedUnits: 1,
          previous: zero,
        },
        {
          product: 'SHIRT',
          currency: 'USD',
          name: 'Shirt',
          ...zero,
          orders: 1,
          units: 1,
          paidUnits: 1,
          paidRevenueCents: 2_000,
          productCostCents: 300,
          grossMarginCents: 1_700,
          previous: zero,
        },
      ],
    });
  });

  it("puts each order's cost in the bucket of its São Paulo day, and each bucket's previous one period back", async () => {
    const result = await reportUseCases(storage).getTimeseries.execute('dsh_a', {
      ...range,
      interval: 'day',
      model: 'last',
      isTest: false,
      filters: {},
      compare: 'previous',
    });
    if (E.isLeft(result)) throw new Error('no such dashboard');
    const brl = result.right.series.find((s) => s.currency === 'BRL')!;
    expect(brl.buckets.map((b) => [b.productCostCents, b.uncostedUnits, b.taxCents, b.profitCents])).to.deep.equal([
      [0, 1, 35, 2_665],
      // 10,000 gross × 1.15 % = 115; 9,000 − 2,000 − 115 − 2,000 spent.
      [2_000, 1, 115, 4_885],
      [1_500, 0, 58, 2_042],
    ]);
    expect(brl.buckets.map((b) => [b.previous!.start, b.previous!.paid, b.previous!.uncostedUnits])).to.deep.equal([
      [Date.parse('2026-03-06T03:00:00Z'), 0, 0],
      [Date.parse('2026-03-07T03:00:00Z'), 1, 1],
      [Date.parse('2026-03-08T03:00:00Z'), 0, 0],
    ]);
  });
});
