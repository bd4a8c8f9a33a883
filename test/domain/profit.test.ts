import { expect } from 'chai';
import { compareCodePoints } from '../../src/domain/code-point-order';
import {
  costAliasOfLine,
  isProductName,
  productCostProblems,
  productOfLine,
  unitCostLookup,
  unitCostOfLine,
} from '../../src/domain/product-cost';
import { productSharesOf } from '../../src/domain/product-report';
import { metricsOf, previousRange, shiftedBack, totalsOfOrder, ZERO_TOTALS, type CellTotals } from '../../src/domain/report';
import { divideRounded, ratio4 } from '../../src/domain/rounding';
import { hundredthsOf, isTaxRate, taxCentsOf } from '../../src/domain/tax-rate';

const at = (iso: string): number => Date.parse(iso);

describe('profit (decision 0020)', () => {
  describe('rounding', () => {
    it('rounds a half away from zero, on both sides of it', () => {
      expect([divideRounded(5, 2), divideRounded(-5, 2), divideRounded(7, 2), divideRounded(-7, 2)]).to.deep.equal([3, -3, 4, -4]);
      expect([divideRounded(4, 3), divideRounded(-4, 3), divideRounded(5, 3), divideRounded(-5, 3)]).to.deep.equal([1, -1, 2, -2]);
      // -1/32 = -0.03125: Math.round(x × 10,000) / 10,000 gives -0.0312, rounding the half towards +∞.
      expect(ratio4(-1, 32)).to.equal(-0.0313);
      expect(ratio4(1, 32)).to.equal(0.0313);
      expect(ratio4(-2_999, 32)).to.equal(-93.7188);
    });
  });

  describe('the tax rate', () => {
    it('is 0 to 100 with at most 2 decimals', () => {
      for (const rate of [0, 0.01, 0.29, 1.15, 12.34, 99.99, 100]) expect(isTaxRate(rate), String(rate)).to.equal(true);
      for (const rate of [-0.01, 100.01, 12.345, 0.001, 1e-7, Number.NaN, Infinity, '12', null])
        expect(isTaxRate(rate), String(rate)).to.equal(false);
    });

    it('is worked with in hundredths of a percent, exactly', () => {
      expect([0.29, 1.15, 8.7, 12.34, 33.33, 100].map(hundredthsOf)).to.deep.equal([29, 115, 870, 1234, 3333, 10_000]);
    });

    it('taxes in integer arithmetic where a float lands below the half (3000 × 1.15 / 100 = 34.4999… in floating point)', () => {
      expect((3_000 * 1.15) / 100).to.be.below(34.5);
      expect(taxCentsOf(3_000, 1.15)).to.equal(35);
      expect(taxCentsOf(1_500, 8.7)).to.equal(131);
      expect(taxCentsOf(25_000, 0.29)).to.equal(73);
      expect(taxCentsOf(3_000, 2.55)).to.equal(77);
      expect(taxCentsOf(3_333, 12.34)).to.equal(411);
      expect(taxCentsOf(10 ** 13, 33.33)).to.equal(3_333 * 10 ** 9);
      expect(taxCentsOf(12_345, 0)).to.equal(0);
    });
  });

  describe('code point order', () => {
    it('puts characters beyond U+FFFF after U+E000..U+FFFF, as UTF-8 bytes do (JavaScript `<` does not)', () => {
      const values = ['\u{1F600}', '\uFF5E', 'z', 'Z', 'é', 'a', 'ab', '', '\uE000'];
      const byBytes = [...values].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
      expect([...values].sort(compareCodePoints)).to.deep.equal(byBytes);
      expect('\u{1F600}' < '\uFF5E').to.equal(true);
      expect(compareCodePoints('\u{1F600}', '\uFF5E')).to.be.above(0);
    });
  });

  describe('product cost entries', () => {
    it('name a product by 1 to 255 characters, counted as code points', () => {
      expect(isProductName('x'.repeat(255))).to.equal(true);
      expect(isProductName('\u{1F600}'.repeat(255))).to.equal(true);
      expect(isProductName('')).to.equal(false);
      expect(isProductName('x'.repeat(256))).to.equal(false);
      expect(isProductName(7)).to.equal(false);
    });

    it('say what is wrong with each field', () => {
      expect(productCostProblems({ product: 'SKU-1', currency: 'BRL', unitCostCents: 0, from: '2026-02-28' })).to.deep.equal([]);
      expect(
        productCostProblems({ product: '', currency: 'brl', unitCostCents: -1, from: '2026-02-30' }).map((p) => p.field),
      ).to.deep.equal(['product', 'currency', 'unitCostCents', 'from']);
      expect(
        productCostProblems({ product: 'a', currency: 'BRL', unitCostCents: 1.5, from: '2026-02-01' }).map((p) => p.field),
      ).to.deep.equal(['unitCostCents']);
    });

    it('name a line by its sku, else its externalId, else `(not set)`; the externalId of a line with a sku is its cost alias', () => {
      expect(productOfLine({ externalId: 'e-1', sku: 'S-1' })).to.equal('S-1');
      expect(productOfLine({ sku: 'S-1' })).to.equal('S-1');
      expect(productOfLine({ externalId: 'e-1' })).to.equal('e-1');
      expect(productOfLine({})).to.equal('(not set)');
      expect(costAliasOfLine({ externalId: 'e-1', sku: 'S-1' })).to.equal('e-1');
      expect(costAliasOfLine({ externalId: 'S-1', sku: 'S-1' })).to.equal(undefined);
      expect(costAliasOfLine({ externalId: 'e-1' })).to.equal(undefined);
      expect(costAliasOfLine({ sku: 'S-1' })).to.equal(undefined);
    });

    it("price a line by its sku's cost in force, else by the cost in force under its externalId, day by day", () => {
      const lookup = unitCostLookup(
        [
          { product: 'e-1', currency: 'BRL', unitCostCents: 400, from: '2026-01-01' },
          { product: 'S-1', currency: 'BRL', unitCostCents: 500, from: '2026-03-01' },
          { product: 'e-1', currency: 'USD', unitCostCents: 90, from: '2026-01-01' },
        ],
        'UTC',
      );
      const line = { product: 'S-1', costAlias: 'e-1' };
      expect(unitCostOfLine(lookup, line, 'BRL', at('2025-12-31T23:59:59.999Z'))).to.equal(undefined);
      expect(unitCostOfLine(lookup, line, 'BRL', at('2026-02-28T23:59:59.999Z'))).to.equal(400);
      expect(unitCostOfLine(lookup, line, 'BRL', at('2026-03-01T00:00:00.000Z'))).to.equal(500);
      expect(unitCostOfLine(lookup, line, 'USD', at('2026-03-01T00:00:00.000Z'))).to.equal(90);
      expect(unitCostOfLine(lookup, { product: 'S-1' }, 'BRL', at('2026-02-28T00:00:00.000Z'))).to.equal(undefined);
      expect(unitCostOfLine(lookup, { product: 'S-1' }, 'USD', at('2026-03-02T00:00:00.000Z'))).to.equal(undefined);
    });
  });

  describe('the unit cost in force', () => {
    const entries = [
      { product: 'P', currency: 'BRL', unitCostCents: 1_000, from: '2026-03-10' },
      { product: 'P', currency: 'BRL', unitCostCents: 1_200, from: '2026-03-20' },
      { product: 'P', currency: 'USD', unitCostCents: 300, from: '2026-01-01' },
      { product: 'Q', currency: 'BRL', unitCostCents: 0, from: '2026-01-01' },
    ];

    it("is the entry with the latest `from` whose day has begun in the dashboard's zone, not in UTC", () => {
      const sp = unitCostLookup(entries, 'America/Sao_Paulo');
      // 2026-03-10 begins at 03:00 UTC in São Paulo.
      expect(sp('P', 'BRL', at('2026-03-10T02:59:59.999Z'))).to.equal(undefined);
      expect(sp('P', 'BRL', at('2026-03-10T03:00:00.000Z'))).to.equal(1_000);
      expect(sp('P', 'BRL', at('2026-03-20T02:59:59.999Z'))).to.equal(1_000);
      expect(sp('P', 'BRL', at('2026-03-20T03:00:00.000Z'))).to.equal(1_200);
      expect(sp('P', 'BRL', at('2030-01-01T00:00:00.000Z'))).to.equal(1_200);
      const kathmandu = unitCostLookup(entries, 'Asia/Kathmandu');
      // … and at 18:15 UTC the day before in Kathmandu (+05:45).
      expect(kathmandu('P', 'BRL', at('2026-03-09T18:14:59.999Z'))).to.equal(undefined);
      expect(kathmandu('P', 'BRL', at('2026-03-09T18:15:00.000Z'))).to.equal(1_000);
    });

    it('is per currency, and a cost of 0 is a cost', () => {
      const utc = unitCostLookup(entries, 'UTC');
      expect(utc('P', 'USD', at('2026-03-15T00:00:00Z'))).to.equal(300);
      expect(utc('P', 'EUR', at('2026-03-15T00:00:00Z'))).to.equal(undefined);
      expect(utc('Q', 'BRL', at('2026-03-15T00:00:00Z'))).to.equal(0);
      expect(utc('R', 'BRL', at('2026-03-15T00:00:00Z'))).to.equal(undefined);
    });

    it('follows a DST change: a `from` day of 23 hours begins at its own midnight', () => {
      // New York springs forward on 2026-03-08: the day begins at 05:00 UTC, the next at 04:00 UTC.
      const ny = unitCostLookup([{ product: 'P', currency: 'USD', unitCostCents: 1, from: '2026-03-09' }], 'America/New_York');
      expect(ny('P', 'USD', at('2026-03-09T03:59:59.999Z'))).to.equal(undefined);
      expect(ny('P', 'USD', at('2026-03-09T04:00:00.000Z'))).to.equal(1);
    });
  });

  describe("an order's totals", () => {
    const lookup = unitCostLookup([{ product: 'A', currency: 'BRL', unitCostCents: 250, from: '2026-01-01' }], 'UTC');
    const order = (status: 'paid' | 'refunded') => ({
      status,
      currency: 'BRL',
      createdAt: at('2026-02-01T00:00:00Z'),
      grossCents: 10_000,
      netToSellerCents: 9_000,
      lines: [
        { product: 'A', name: 'A', quantity: 3, unitPriceCents: 2_000 },
        { product: 'B', name: 'B', quantity: 2, unitPriceCents: 2_000 },
        { product: 'A', name: 'A again', quantity: 1, unitPriceCents: 0 },
      ],
    });

    it('price the lines of a paid order, and count the units without a cost', () => {
      expect(totalsOfOrder(order('paid'), lookup)).to.deep.include({
        paid: 1,
        paidNetCents: 9_000,
        productCostCents: 1_000,
        uncostedUnits: 2,
      });
    });

    it('price nothing of an order in another status', () => {
      expect(totalsOfOrder(order('refunded'), lookup)).to.deep.include({
        refunded: 1,
        refundedCents: 10_000,
        productCostCents: 0,
        uncostedUnits: 0,
      });
    });

    it('share out over its products: a product of two lines counts once in orders and is named by the first', () => {
      const shares = productSharesOf({ ...order('paid'), id: 'ord_1' }, lookup);
      expect(shares).to.deep.equal([
        {
          product: 'A',
          name: 'A',
          namedAt: at('2026-02-01T00:00:00Z'),
          namedBy: 'ord_1',
          totals: { orders: 1, units: 4, paidUnits: 4, paidRevenueCents: 6_000, productCostCents: 1_000, uncostedUnits: 0 },
        },
        {
          product: 'B',
          name: 'B',
          namedAt: at('2026-02-01T00:00:00Z'),
          namedBy: 'ord_1',
          totals: { orders: 1, units: 2, paidUnits: 2, paidRevenueCents: 4_000, productCostCents: 0, uncostedUnits: 2 },
        },
      ]);
      expect(productSharesOf({ ...order('refunded'), id: 'ord_2' }, lookup)[0].totals).to.deep.equal({
        orders: 1,
        units: 4,
        paidUnits: 0,
        paidRevenueCents: 0,
        productCostCents: 0,
        uncostedUnits: 0,
      });
    });
  });

  describe('the metrics of a row', () => {
    const totals: CellTotals = { ...ZERO_TOTALS, paid: 3, paidGrossCents: 3_000, paidNetCents: 2_700, productCostCents: 900 };

    it('compute tax, contribution, profit, margin and ROI from the totals, the spend and the tax rate', () => {
      expect(metricsOf(totals, 1_000, 1.15)).to.deep.include({
        taxCents: 35,
        contributionCents: 1_765,
        profitCents: 765,
        marginRate: 0.255,
        roi: 0.765,
        cpaCents: 333,
      });
    });

    it('leave profit, margin and ROI null where spend does not join, ROI where there is none, margin without paid revenue', () => {
      expect(metricsOf(totals, null, 0)).to.deep.include({
        contributionCents: 1_800,
        profitCents: null,
        marginRate: null,
        roi: null,
        cpaCents: null,
      });
      expect(metricsOf(totals, 0, 0)).to.deep.include({ profitCents: 1_800, marginRate: 0.6, roi: null, cpaCents: null, roas: null });
      expect(metricsOf(ZERO_TOTALS, 500, 10)).to.deep.include({ taxCents: 0, profitCents: -500, marginRate: null, roi: -1 });
    });

    it('go negative: a loss is a negative profit and margin', () => {
      expect(metricsOf({ ...totals, productCostCents: 2_600 }, 200, 0)).to.deep.include({
        contributionCents: 100,
        profitCents: -100,
        marginRate: -0.0333,
        roi: -0.5,
      });
    });
  });

  describe('the previous period', () => {
    it('is as long as the range and ends where it begins; a bucket moves back by the range length', () => {
      expect(previousRange({ start: 1_000, end: 1_600 })).to.deep.equal({ start: 400, end: 1_000 });
      expect(shiftedBack({ start: 1_100, end: 1_200 }, 600)).to.deep.equal({ start: 500, end: 600 });
    });
  });
});
