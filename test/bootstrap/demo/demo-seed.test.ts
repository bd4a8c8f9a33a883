import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import { CreateOrderBody } from '../../../src/adapters/http/orders/order-codecs';
import type { Storage } from '../../../src/application/ports/storage';
import type { UseCases } from '../../../src/application/use-cases';
import { ORDER_STATUSES } from '../../../src/domain/order-status';
import { unitCostLookup } from '../../../src/domain/product-cost';
import { addTotals, reportLinesOf, totalsOfOrder, ZERO_TOTALS, type CellTotals } from '../../../src/domain/report';
import { nextDate, startOfDate } from '../../../src/domain/time-zone';
import { compose } from '../../../src/bootstrap/composition';
import { planDemo, type DemoPlan } from '../../../src/bootstrap/demo/demo-plan';
import { DEMO_CAMPAIGNS, DEMO_PRODUCTS, DEMO_RAISED, DEMO_TAX_RATE } from '../../../src/bootstrap/demo/demo-shop';
import {
  DEMO_DAYS,
  DEMO_OWNER_EMAIL,
  DEMO_SEED,
  DEMO_ZONE,
  demoCosts,
  seedDemo,
  type SeededDemo,
} from '../../../src/bootstrap/demo/demo-seed';
import { temporarySqliteStorage } from '../../support/sqlite-files';

const LAST_DAY = '2026-03-31';
const PASSWORD = 'demo-test-password-42';

const planOf = (seed = DEMO_SEED): DemoPlan => planDemo({ lastDay: LAST_DAY, zone: DEMO_ZONE, days: DEMO_DAYS, seed });

const countBy = <T>(items: readonly T[], key: (item: T) => string): Record<string, number> =>
  items.reduce<Record<string, number>>((counts, item) => ({ ...counts, [key(item)]: (counts[key(item)] ?? 0) + 1 }), {});

const byCurrency = <T>(items: readonly T[], currency: (item: T) => string, add: (sum: CellTotals, item: T) => CellTotals) =>
  items.reduce<Record<string, CellTotals>>(
    (sums, item) => ({ ...sums, [currency(item)]: add(sums[currency(item)] ?? ZERO_TOTALS, item) }),
    {},
  );

describe('the demo: its plan and its seeding', () => {
  describe('the plan', () => {
    const plan = planOf();
    const real = plan.orders.filter((order) => !order.isTest);

    it('is the same for the same seed, and another for another seed', () => {
      expect(JSON.stringify(planOf())).to.equal(JSON.stringify(plan));
      expect(JSON.stringify(planOf(DEMO_SEED + 1))).to.not.equal(JSON.stringify(plan));
    });

    it('covers the 90 days up to its last day: every order and every spend inside them', () => {
      expect([plan.firstDay, plan.lastDay]).to.deep.equal(['2026-01-01', LAST_DAY]);
      const from = startOfDate(plan.firstDay, DEMO_ZONE);
      const end = startOfDate(nextDate(LAST_DAY), DEMO_ZONE);
      const instants = plan.orders.flatMap((o) => [o.createdAt, o.paidAt, o.refundedAt, o.chargedbackAt].filter((d) => d !== undefined));
      expect(instants.filter((d) => d.getTime() < from || d.getTime() >= end)).to.deep.equal([]);
      expect(new Set(plan.spend.map((s) => s.date)).size).to.equal(DEMO_DAYS);
      expect(new Set(plan.orders.map((o) => o.createdAt.toISOString().slice(0, 10))).size).to.be.at.least(DEMO_DAYS - 1);
    });

    it('is what a checkout would send: every order passes the API creation codec', () => {
      const refused = plan.orders.filter((order) => E.isLeft(CreateOrderBody.decode(JSON.parse(JSON.stringify(order)))));
      expect(refused.map((o) => o.externalId)).to.deep.equal([]);
      expect(new Set(plan.orders.map((o) => o.externalId)).size).to.equal(plan.orders.length);
    });

    it('looks like a shop: a dozen campaigns, several sources, mediums and contents, first touches, products and payment methods', () => {
      expect(plan.orders.length).to.be.within(3_000, 6_000);
      const campaigns = new Set(real.map((o) => o.tracking.utmCampaign));
      expect(campaigns.size).to.equal(DEMO_CAMPAIGNS.length).and.to.be.at.least(12);
      expect(new Set(real.map((o) => o.tracking.utmSource)).size).to.be.at.least(5);
      expect(new Set(real.map((o) => o.tracking.utmMedium)).size).to.be.at.least(5);
      expect(new Set(real.map((o) => o.tracking.utmContent)).size).to.be.at.least(20);
      const firstTouches = real.filter((o) => o.trackingExtras?.['firstTouch'] !== undefined);
      expect(firstTouches.length / real.length).to.be.within(0.2, 0.5);
      expect(new Set(real.flatMap((o) => o.products.map((p) => p.sku)))).to.have.property('size', DEMO_PRODUCTS.length);
      expect(Object.keys(countBy(real, (o) => o.paymentMethod)).sort()).to.deep.equal(['boleto', 'credit_card', 'pix']);
      expect(new Set(plan.spend.map((s) => s.utmCampaign)).size).to.be.at.least(10);
    });

    it('sells mostly in reais, some in dollars, and ends orders in believable proportions; a few are test orders', () => {
      const currencies = countBy(real, (o) => o.amounts.currency);
      expect(currencies['USD'] / real.length).to.be.within(0.01, 0.1);
      expect(currencies['BRL'] / real.length).to.be.above(0.9);
      const share = (status: string) => (countBy(real, (o) => o.status)[status] ?? 0) / real.length;
      expect(ORDER_STATUSES.map(share).every((s) => s > 0)).to.equal(true);
      expect(share('paid')).to.be.within(0.7, 0.9);
      expect(share('refused')).to.be.within(0.02, 0.12);
      expect(share('pending')).to.be.within(0.03, 0.12);
      expect(share('refunded')).to.be.within(0.01, 0.08);
      expect(share('chargedback')).to.be.within(0.001, 0.02);
      expect(plan.orders.filter((o) => o.isTest).length).to.be.within(3, 20);
    });
  });

  describe('seeded into a SQLite file through the use cases', function () {
    this.timeout(180_000);
    let storage: Storage;
    let useCases: UseCases;
    let seeded: SeededDemo;

    before(async () => {
      storage = temporarySqliteStorage();
      ({ useCases } = compose({
        storage,
        transitions: {},
        rateLimit: { max: 600, windowSeconds: 60 },
        idempotency: { ttlMs: 86_400_000, leaseMs: 10_000 },
      }));
      const started = performance.now();
      seeded = await seedDemo(useCases, { lastDay: LAST_DAY, ownerPassword: PASSWORD });
      console.log(`      seeded ${seeded.plan.orders.length} orders in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    });
    after(() => storage.health.close());

    const period = () => ({
      model: 'last' as const,
      isTest: false,
      filters: {},
      from: new Date(startOfDate(seeded.plan.firstDay, DEMO_ZONE)),
      to: new Date(startOfDate(nextDate(seeded.plan.lastDay), DEMO_ZONE) - 1),
    });

    it("shows in the Overview's figures exactly the seeded orders and spend, per currency", async () => {
      const series = await useCases.getTimeseries.execute(seeded.dashboard.id, { ...period(), interval: 'day' });
      if (E.isLeft(series)) throw new Error(series.left._tag);
      const shown = Object.fromEntries(
        series.right.series.map(({ currency, buckets }) => [
          currency,
          {
            totals: buckets.reduce<CellTotals>((sum, bucket) => addTotals(sum, bucket), ZERO_TOTALS),
            spendCents: buckets.reduce((sum, bucket) => sum + (bucket.spendCents ?? 0), 0),
          },
        ]),
      );
      const real = seeded.plan.orders.filter((o) => !o.isTest);
      const totals = byCurrency(
        real,
        (o) => o.amounts.currency,
        (sum, o) =>
          addTotals(
            sum,
            totalsOfOrder(
              {
                status: o.status,
                currency: o.amounts.currency,
                createdAt: o.createdAt.getTime(),
                grossCents: o.amounts.grossCents,
                netToSellerCents: o.amounts.netToSellerCents,
                lines: reportLinesOf(o.products),
              },
              unitCostLookup(demoCosts(seeded.plan), DEMO_ZONE),
            ),
          ),
      );
      const spend = seeded.plan.spend.reduce<Record<string, number>>(
        (sums, s) => ({ ...sums, [s.currency]: (sums[s.currency] ?? 0) + s.amountCents }),
        {},
      );
      expect(shown).to.deep.equal({
        BRL: { totals: totals['BRL'], spendCents: spend['BRL'] },
        USD: { totals: totals['USD'], spendCents: spend['USD'] },
      });
      expect(shown['BRL'].totals.paidGrossCents).to.be.above(shown['BRL'].spendCents * 2);
      // Every product but the socks has a cost: a profit to show, and the socks' units uncosted.
      expect(shown['BRL'].totals.productCostCents).to.be.above(0);
      expect(shown['BRL'].totals.uncostedUnits).to.be.above(0);
    });

    it('prices the products with the seeded costs, the runner at two of them, and taxes revenue at the demo rate', async () => {
      const dashboard = await useCases.getDashboard.execute(seeded.dashboard.id);
      expect(E.isRight(dashboard) && dashboard.right.taxRate).to.equal(DEMO_TAX_RATE);
      const costs = demoCosts(seeded.plan);
      expect(costs.filter((c) => c.product === DEMO_RAISED.sku && c.currency === 'BRL').map((c) => c.from)).to.have.length(2);
      const products = await useCases.getProducts.execute(seeded.dashboard.id, { ...period(), sort: 'paidRevenueCents', limit: 50 });
      if (E.isLeft(products)) throw new Error('no dashboard');
      const row = (sku: string) => products.right.rows.find((r) => r.product === sku && r.currency === 'BRL');
      expect(row('SCK-KIT')).to.deep.include({ productCostCents: 0, uncostedUnits: row('SCK-KIT')?.paidUnits });
      const runner = row(DEMO_RAISED.sku)!;
      expect(runner.uncostedUnits).to.equal(0);
      expect(runner.productCostCents)
        .to.be.above(runner.paidUnits * 15_750)
        .and.below(runner.paidUnits * DEMO_RAISED.costCents);
    });

    it('gives the top campaigns of the Overview a row for every campaign, and the first touch a breakdown of its own', async () => {
      const by = ['utmSource', 'utmCampaign'] as const;
      const last = await useCases.getBreakdown.execute(seeded.dashboard.id, { ...period(), by, sort: 'paidGrossCents', limit: 50 });
      const first = await useCases.getBreakdown.execute(seeded.dashboard.id, {
        ...period(),
        model: 'first',
        by,
        sort: 'paidGrossCents',
        limit: 50,
      });
      if (E.isLeft(last) || E.isLeft(first)) throw new Error('no dashboard');
      expect(last.right.rows).to.have.length(DEMO_CAMPAIGNS.length);
      expect(last.right.rows.filter((row) => row.spendCents !== null && row.spendCents > 0)).to.have.length.of.at.least(10);
      expect(first.right.rows.map((r) => [r.key, r.orders])).to.not.deep.equal(last.right.rows.map((r) => [r.key, r.orders]));
    });

    it('leaves nothing in the outboxes, and an owner who signs in with the password given', async () => {
      expect(await storage.outbox.backlog()).to.equal(0);
      const session = await useCases.signIn.execute(DEMO_OWNER_EMAIL, PASSWORD, '127.0.0.1');
      expect(E.isRight(session)).to.equal(true);
    });
  });
});
