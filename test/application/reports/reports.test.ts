import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import { inMemoryStorage } from '../../../src/adapters/memory/in-memory-storage';
import type { Storage } from '../../../src/application/ports/storage';
import { GetBreakdown, type BreakdownQuery } from '../../../src/application/reports/get-breakdown';
import { GetTimeseries } from '../../../src/application/reports/get-timeseries';
import type { Order } from '../../../src/domain/order';
import type { OrderStatus } from '../../../src/domain/order-status';
import { isoInZone } from '../../../src/domain/time-zone';
import { anOrder } from '../../support/order-builder';

let n = 0;
/** An order of dashboard `dsh_a` made by hand: its campaign, status, money and instant. */
const order = (campaign: string, status: OrderStatus, grossCents: number, at: string, changes: Partial<Order> = {}): Order =>
  anOrder()
    .inDashboard('dsh_a')
    .with({
      id: `ord_${++n}`,
      externalId: `o-${n}`,
      status,
      createdAt: new Date(at),
      amounts: {
        currency: 'BRL',
        grossCents,
        netToSellerCents: grossCents - 1000,
        discountCents: 0,
        shippingCents: 0,
        taxesCents: 0,
        totalFeesCents: 0,
      },
      tracking: { utmSource: 'google', utmMedium: 'cpc', utmCampaign: campaign },
      ...changes,
    })
    .build();

const usd = (o: Order): Order => ({ ...o, amounts: { ...o.amounts, currency: 'USD' } });

describe('reports: each metric against figures worked out by hand', () => {
  let storage: Storage;
  const setUp = async (timezone: string, orders: readonly Order[]) => {
    storage = inMemoryStorage();
    await storage.dashboards.insert({ id: 'dsh_a', name: 'Shop', timezone, taxRate: 0, createdAt: new Date('2026-01-01T00:00:00Z') });
    for (const o of orders) await storage.orders.insert(o, []);
  };
  const breakdown = async (query: Partial<BreakdownQuery>) => {
    const result = await new GetBreakdown(storage.dashboards, storage.reports).execute('dsh_a', {
      from: new Date('2026-03-10T03:00:00Z'),
      to: new Date('2026-03-12T02:59:59.999Z'),
      by: ['utmCampaign'],
      model: 'last',
      isTest: false,
      filters: {},
      sort: 'paidGrossCents',
      limit: 100,
      ...query,
    });
    if (E.isLeft(result)) throw new Error('no such dashboard');
    return result.right;
  };

  describe('a breakdown by campaign, with spend, in America/Sao_Paulo', () => {
    beforeEach(async () => {
      await setUp('America/Sao_Paulo', [
        order('A', 'paid', 10_000, '2026-03-10T12:00:00Z'),
        order('A', 'refunded', 5_000, '2026-03-10T13:00:00Z'),
        order('A', 'pending', 3_000, '2026-03-11T13:00:00Z'),
        usd(order('A', 'paid', 2_000, '2026-03-11T14:00:00Z')),
        order('B', 'chargedback', 7_000, '2026-03-11T15:00:00Z'),
        order('B', 'refused', 1_000, '2026-03-12T02:59:59.999Z'),
        order('A', 'paid', 99_999, '2026-03-11T16:00:00Z', { isTest: true }),
        order('A', 'paid', 50_000, '2026-03-12T03:00:00Z'),
        order('A', 'paid', 60_000, '2026-03-10T02:59:59.999Z'),
      ]);
      await storage.spend.upsert('dsh_a', [
        {
          date: '2026-03-10',
          utmSource: 'google',
          utmMedium: 'cpc',
          utmCampaign: 'A',
          utmContent: '(not set)',
          currency: 'BRL',
          amountCents: 5_000,
        },
        {
          date: '2026-03-11',
          utmSource: 'meta',
          utmMedium: '(not set)',
          utmCampaign: 'A',
          utmContent: 'v1',
          currency: 'BRL',
          amountCents: 1_000,
        },
        {
          date: '2026-03-11',
          utmSource: 'google',
          utmMedium: 'cpc',
          utmCampaign: 'C',
          utmContent: '(not set)',
          currency: 'BRL',
          amountCents: 3_000,
        },
        {
          date: '2026-03-12',
          utmSource: 'google',
          utmMedium: 'cpc',
          utmCampaign: 'A',
          utmContent: '(not set)',
          currency: 'BRL',
          amountCents: 777,
        },
      ]);
    });

    it('adds up orders, money, rates and spend per campaign and currency, a campaign with spend and no orders included', async () => {
      const { rows, totalRows } = await breakdown({});
      expect(totalRows).to.equal(4);
      expect(rows).to.deep.equal([
        {
          key: { utmCampaign: 'A' },
          currency: 'BRL',
          orders: 3,
          pending: 1,
          paid: 1,
          refused: 0,
          refunded: 1,
          chargedback: 0,
          grossCents: 18_000,
          paidGrossCents: 10_000,
          paidNetCents: 9_000,
          refundedCents: 5_000,
          chargedbackCents: 0,
          approvalRate: 1,
          averageOrderCents: 10_000,
          spendCents: 6_000,
          roas: 1.6667,
          cpaCents: 6_000,
          productCostCents: 0,
          uncostedUnits: 2,
          taxCents: 0,
          contributionCents: 9_000,
          profitCents: 3_000,
          marginRate: 0.3,
          roi: 0.5,
        },
        {
          key: { utmCampaign: 'A' },
          currency: 'USD',
          orders: 1,
          pending: 0,
          paid: 1,
          refused: 0,
          refunded: 0,
          chargedback: 0,
          grossCents: 2_000,
          paidGrossCents: 2_000,
          paidNetCents: 1_000,
          refundedCents: 0,
          chargedbackCents: 0,
          approvalRate: 1,
          averageOrderCents: 2_000,
          spendCents: 0,
          roas: null,
          cpaCents: null,
          productCostCents: 0,
          uncostedUnits: 2,
          taxCents: 0,
          contributionCents: 1_000,
          profitCents: 1_000,
          marginRate: 0.5,
          roi: null,
        },
        {
          key: { utmCampaign: 'B' },
          currency: 'BRL',
          orders: 2,
          pending: 0,
          paid: 0,
          refused: 1,
          refunded: 0,
          chargedback: 1,
          grossCents: 8_000,
          paidGrossCents: 0,
          paidNetCents: 0,
          refundedCents: 0,
          chargedbackCents: 7_000,
          approvalRate: 0.5,
          averageOrderCents: null,
          spendCents: 0,
          roas: null,
          cpaCents: null,
          productCostCents: 0,
          uncostedUnits: 0,
          taxCents: 0,
          contributionCents: 0,
          profitCents: 0,
          marginRate: null,
          roi: null,
        },
        {
          key: { utmCampaign: 'C' },
          currency: 'BRL',
          orders: 0,
          pending: 0,
          paid: 0,
          refused: 0,
          refunded: 0,
          chargedback: 0,
          grossCents: 0,
          paidGrossCents: 0,
          paidNetCents: 0,
          refundedCents: 0,
          chargedbackCents: 0,
          approvalRate: null,
          averageOrderCents: null,
          spendCents: 3_000,
          roas: 0,
          cpaCents: null,
          productCostCents: 0,
          uncostedUnits: 0,
          taxCents: 0,
          contributionCents: 0,
          profitCents: -3_000,
          marginRate: null,
          roi: -1,
        },
      ]);
    });

    it('counts test orders with isTest=true or all, never by default (spend is spend either way)', async () => {
      expect((await breakdown({ isTest: true })).rows.map((r) => [r.key, r.paidGrossCents, r.spendCents])).to.deep.equal([
        [{ utmCampaign: 'A' }, 99_999, 6_000],
        [{ utmCampaign: 'C' }, 0, 3_000],
      ]);
      expect((await breakdown({ isTest: undefined })).rows[0]).to.deep.include({ currency: 'BRL', paidGrossCents: 109_999, paid: 2 });
    });

    it('joins spend over what the key leaves open, and not at all by platform', async () => {
      const bySource = await breakdown({ by: ['utmSource', 'utmCampaign'] });
      expect(bySource.rows.map((r) => [r.key, r.currency, r.spendCents])).to.deep.equal([
        [{ utmSource: 'google', utmCampaign: 'A' }, 'BRL', 5_000],
        [{ utmSource: 'google', utmCampaign: 'A' }, 'USD', 0],
        [{ utmSource: 'google', utmCampaign: 'B' }, 'BRL', 0],
        [{ utmSource: 'google', utmCampaign: 'C' }, 'BRL', 3_000],
        [{ utmSource: 'meta', utmCampaign: 'A' }, 'BRL', 1_000],
      ]);
      const byPlatform = await breakdown({ by: ['platform'] });
      expect(byPlatform.rows.every((r) => r.spendCents === null && r.roas === null && r.cpaCents === null)).to.equal(true);
    });

    it('sorts by any metric, descending, nulls last, and cuts at limit', async () => {
      const { rows, totalRows } = await breakdown({ sort: 'spendCents', limit: 2 });
      expect(totalRows).to.equal(4);
      expect(rows.map((r) => [r.key.utmCampaign, r.currency, r.spendCents])).to.deep.equal([
        ['A', 'BRL', 6_000],
        ['C', 'BRL', 3_000],
      ]);
      expect((await breakdown({ sort: 'averageOrderCents' })).rows.map((r) => r.averageOrderCents)).to.deep.equal([
        10_000,
        2_000,
        null,
        null,
      ]);
    });
  });

  it('attributes by first touch, falling back to the last touch for an order without one, (not set) for a field that is not a string', async () => {
    await setUp('UTC', [
      order('A', 'paid', 1_000, '2026-03-10T12:00:00Z', {
        trackingExtras: { firstTouch: { utmSource: 'email', utmCampaign: 'welcome', utmMedium: 3 } },
      }),
      order('A', 'paid', 2_000, '2026-03-10T12:00:00Z'),
      order('B', 'paid', 4_000, '2026-03-10T12:00:00Z', { trackingExtras: { firstTouch: { utmSource: 'email' } } }),
    ]);
    const first = await breakdown({ model: 'first', by: ['utmSource', 'utmMedium', 'utmCampaign'] });
    expect(first.rows.map((r) => [r.key, r.paidGrossCents])).to.deep.equal([
      [{ utmSource: 'email', utmMedium: '(not set)', utmCampaign: '(not set)' }, 4_000],
      [{ utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'A' }, 2_000],
      [{ utmSource: 'email', utmMedium: '(not set)', utmCampaign: 'welcome' }, 1_000],
    ]);
  });

  it('reads utmContent and utmTerm from tracking, else from trackingExtras, else (not set)', async () => {
    await setUp('UTC', [
      order('A', 'paid', 1_000, '2026-03-10T12:00:00Z', {
        tracking: { utmSource: 's', utmMedium: 'm', utmCampaign: 'A', utmContent: 'in-tracking' },
        trackingExtras: { utmContent: 'in-extras' },
      }),
      order('A', 'paid', 2_000, '2026-03-10T12:00:00Z', { trackingExtras: { utmContent: 'in-extras', utmTerm: 'shoes' } }),
      order('A', 'paid', 4_000, '2026-03-10T12:00:00Z', { trackingExtras: { utmContent: 42 } }),
    ]);
    const rows = (await breakdown({ by: ['utmContent', 'utmTerm'] })).rows.map((r) => [r.key, r.paidGrossCents]);
    expect(rows).to.deep.equal([
      [{ utmContent: '(not set)', utmTerm: '(not set)' }, 4_000],
      [{ utmContent: 'in-extras', utmTerm: 'shoes' }, 2_000],
      [{ utmContent: 'in-tracking', utmTerm: '(not set)' }, 1_000],
    ]);
  });

  describe('timeseries in a time zone calendar', () => {
    const series = async (timezone: string, from: string, to: string, interval: 'hour' | 'day' | 'week' | 'month') => {
      const result = await new GetTimeseries(storage.dashboards, storage.reports, storage.spend).execute('dsh_a', {
        from: new Date(from),
        to: new Date(to),
        interval,
        timezone,
        model: 'last',
        isTest: false,
        filters: {},
      });
      if (E.isLeft(result)) throw new Error('no such dashboard');
      return result.right;
    };

    it('gives New York a 23-hour day at the March DST change, and puts each order in the day of its local clock', async () => {
      await setUp('America/New_York', [
        order('A', 'paid', 1_000, '2026-03-08T04:59:59.999Z'),
        order('A', 'paid', 2_000, '2026-03-08T05:00:00Z'),
        order('A', 'paid', 4_000, '2026-03-09T03:59:59.999Z'),
        order('A', 'paid', 8_000, '2026-03-09T04:00:00Z'),
      ]);
      const {
        series: [brl],
      } = await series('America/New_York', '2026-03-07T05:00:00Z', '2026-03-10T03:59:59.999Z', 'day');
      expect(
        brl.buckets.map((b) => [isoInZone(b.start, 'America/New_York'), isoInZone(b.end, 'America/New_York'), b.paidGrossCents]),
      ).to.deep.equal([
        ['2026-03-07T00:00:00.000-05:00', '2026-03-08T00:00:00.000-05:00', 1_000],
        ['2026-03-08T00:00:00.000-05:00', '2026-03-09T00:00:00.000-04:00', 6_000],
        ['2026-03-09T00:00:00.000-04:00', '2026-03-10T00:00:00.000-04:00', 8_000],
      ]);
      expect(brl.buckets[1].end - brl.buckets[1].start).to.equal(23 * 3_600_000);
    });

    it('cuts +05:45 days at a quarter past six UTC, and the first and last buckets at from and to', async () => {
      await setUp('UTC', [
        order('A', 'paid', 1_000, '2026-03-10T18:14:59.999Z'),
        order('A', 'paid', 2_000, '2026-03-10T18:15:00Z'),
        order('A', 'refunded', 4_000, '2026-03-11T18:14:00Z'),
        usd(order('A', 'paid', 16_000, '2026-03-11T10:00:00Z')),
      ]);
      const { series: all, timezone } = await series('Asia/Kathmandu', '2026-03-10T12:00:00Z', '2026-03-11T18:14:59.999Z', 'day');
      expect(timezone).to.equal('Asia/Kathmandu');
      expect(all.map((s) => s.currency)).to.deep.equal(['BRL', 'USD']);
      expect(
        all[0].buckets.map((b) => [
          isoInZone(b.start, timezone),
          isoInZone(b.end, timezone),
          b.paidGrossCents,
          b.refundedCents,
          b.spendCents,
        ]),
      ).to.deep.equal([
        ['2026-03-10T17:45:00.000+05:45', '2026-03-11T00:00:00.000+05:45', 1_000, 0, 0],
        ['2026-03-11T00:00:00.000+05:45', '2026-03-12T00:00:00.000+05:45', 2_000, 4_000, 0],
      ]);
      expect(all[1].buckets.map((b) => b.paidGrossCents)).to.deep.equal([0, 16_000]);
    });

    it('puts spend in the bucket its day starts in, in the dashboard time zone, and has none when filtered by term', async () => {
      await setUp('Asia/Kolkata', [order('A', 'paid', 1_000, '2026-03-10T12:00:00Z')]);
      await storage.spend.upsert('dsh_a', [
        {
          date: '2026-03-10',
          utmSource: 'google',
          utmMedium: 'cpc',
          utmCampaign: 'A',
          utmContent: '(not set)',
          currency: 'BRL',
          amountCents: 500,
        },
        {
          date: '2026-03-11',
          utmSource: 'google',
          utmMedium: 'cpc',
          utmCampaign: 'A',
          utmContent: '(not set)',
          currency: 'BRL',
          amountCents: 300,
        },
      ]);
      // Kolkata's 2026-03-11 starts at 2026-03-10T18:30Z: in the UTC day of the 10th.
      const {
        series: [utc],
      } = await series('UTC', '2026-03-10T00:00:00Z', '2026-03-11T23:59:59.999Z', 'day');
      expect(utc.buckets.map((b) => [b.spendCents, b.roas])).to.deep.equal([
        [300, 3.3333],
        [0, null],
      ]);
      const result = await new GetTimeseries(storage.dashboards, storage.reports, storage.spend).execute('dsh_a', {
        from: new Date('2026-03-09T18:30:00Z'),
        to: new Date('2026-03-11T18:29:59.999Z'),
        interval: 'day',
        model: 'last',
        isTest: false,
        filters: { utmTerm: 'shoes' },
      });
      expect(E.isRight(result) && result.right.series).to.deep.equal([]);
    });
  });
});
