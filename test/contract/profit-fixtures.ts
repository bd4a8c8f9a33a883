import type { JsonObject, Order, Product } from '../../src/domain/order';
import { ORDER_STATUSES, type OrderStatus } from '../../src/domain/order-status';
import type { ProductCostEntry } from '../../src/domain/product-cost';
import type { SpendEntry } from '../../src/domain/spend';
import { anOrder } from '../support/order-builder';
import { random } from './report-reader.contract';

/**
 * A shop for the profit contract, with its answers worked out here from first principles: nothing of
 * the service's report code is called (no attribution, no pricing, no rounding, no ranking of its own).
 * The dashboard's zone is America/Sao_Paulo, UTC−03:00 all year since 2019: a cost's `from` day begins
 * at 03:00 UTC, never at midnight UTC, and the orders between the two catch a store that prices in UTC.
 */

export const ZONE = 'America/Sao_Paulo';
/** The zones a World may be in: one offset all year each. */
export type WorldZone = typeof ZONE | 'UTC';
const OFFSET: Readonly<Record<WorldZone, string>> = { [ZONE]: '-03:00', UTC: 'Z' };
/** When a day of the zone begins, from its date. */
export const dayStart = (date: string, zone: WorldZone = ZONE): number => Date.parse(`${date}T00:00:00.000${OFFSET[zone]}`);

type Dim = 'utmSource' | 'utmMedium' | 'utmCampaign' | 'utmContent' | 'utmTerm';
export type Touch = Readonly<Record<Dim, string>>;
type By = 'utmSource' | 'utmMedium' | 'utmCampaign' | 'utmContent' | 'utmTerm' | 'platform' | 'paymentMethod';

/** An order, and the touches it was made with: what a report attributes it to, known here without the service's code. */
export interface Made {
  readonly order: Order;
  readonly last: Touch;
  readonly first: Touch;
}

/** The current period of the contract's reports: not aligned to days, so that every store reads edges. */
export const FROM = Date.parse('2026-03-01T05:17:00.000Z');
export const TO = Date.parse('2026-03-29T20:00:00.000Z');
const LENGTH = TO + 1 - FROM;

const LINES: readonly Omit<Product, 'quantity' | 'unitPriceCents' | 'name'>[] = [
  { externalId: 'ext-1', sku: 'SKU-1' },
  { sku: 'SKU-2' },
  // The product of the line above sold through a checkout that gives it its own id: one product, SKU-2.
  { externalId: '7003', sku: 'SKU-2' },
  { externalId: 'ext-3' },
  {},
  { externalId: '\u{1F600}' },
  { externalId: '\uFF5E' },
  { externalId: 'Ext-1' },
];

/** Costs that change within the period, a product priced by its sku, one by `(not set)`, some never priced. */
export const COSTS: readonly ProductCostEntry[] = [
  { product: 'ext-1', currency: 'BRL', unitCostCents: 500, from: '2026-01-20' },
  { product: 'ext-1', currency: 'BRL', unitCostCents: 733, from: '2026-03-10' },
  { product: 'ext-1', currency: 'BRL', unitCostCents: 650, from: '2026-03-21' },
  { product: 'ext-1', currency: 'USD', unitCostCents: 150, from: '2026-03-15' },
  // The line's sku wins over its externalId from its first day on; before it, ext-1's costs price the line.
  { product: 'SKU-1', currency: 'BRL', unitCostCents: 2_222, from: '2026-03-15' },
  { product: 'SKU-2', currency: 'BRL', unitCostCents: 0, from: '2026-01-01' },
  { product: 'SKU-2', currency: 'USD', unitCostCents: 321, from: '2026-02-14' },
  // Under the externalId of the SKU-2 lines that have one: only they, in dollars before 2026-02-14; never in reais.
  { product: '7003', currency: 'USD', unitCostCents: 77, from: '2026-01-01' },
  { product: '7003', currency: 'BRL', unitCostCents: 55_555, from: '2026-01-01' },
  { product: '(not set)', currency: 'BRL', unitCostCents: 111, from: '2026-03-05' },
  { product: '\u{1F600}', currency: 'BRL', unitCostCents: 1_234, from: '2026-02-01' },
  { product: '\uFF5E', currency: 'BRL', unitCostCents: 1_234, from: '2026-02-01' },
];

/** Spend on keys with orders, a key without any, days in both periods and at their edges, two currencies. */
export const SPEND: readonly SpendEntry[] = [
  ...['2026-01-31', '2026-02-05', '2026-02-28', '2026-03-01', '2026-03-02', '2026-03-10', '2026-03-29', '2026-03-30'].flatMap((date, i) => [
    {
      date,
      utmSource: 'google',
      utmMedium: 'cpc',
      utmCampaign: 'launch',
      utmContent: '(not set)',
      currency: 'BRL',
      amountCents: 1_000 + 37 * i,
    },
    { date, utmSource: 'meta', utmMedium: 'paid', utmCampaign: 'spring', utmContent: 'ad-a', currency: 'BRL', amountCents: 2_000 + 11 * i },
    { date, utmSource: 'meta', utmMedium: 'paid', utmCampaign: 'spring', utmContent: 'ad-a', currency: 'USD', amountCents: 300 + i },
  ]),
  {
    date: '2026-03-12',
    utmSource: 'newsletter',
    utmMedium: 'email',
    utmCampaign: 'nothing-sold',
    utmContent: '(not set)',
    currency: 'BRL',
    amountCents: 4_500,
  },
  {
    date: '2026-02-12',
    utmSource: 'tiktok',
    utmMedium: 'video',
    utmCampaign: 'only-before',
    utmContent: '(not set)',
    currency: 'BRL',
    amountCents: 6_000,
  },
];

/**
 * The shop's orders, from 3 days before the previous period to 3 after the current one: every kind of
 * line (externalId, sku, neither), touches with and without a first touch, contents and terms in
 * `tracking` or in `trackingExtras`, test orders, two currencies, and some orders put just before and
 * just after a cost's day begins in São Paulo.
 */
export const madeOrders = (seed: number, count: number, dashboardId: string): Made[] => {
  const next = random(seed);
  const pick = <A>(values: readonly A[]): A => values[Math.floor(next() * values.length)];
  const span = 2 * LENGTH + 6 * 86_400_000;
  const instants = [
    ...Array.from({ length: count }, () => FROM - LENGTH - 3 * 86_400_000 + Math.floor(next() * span)),
    // Around 2026-03-10 and 2026-03-21 in São Paulo (03:00 UTC), and the periods' own edges.
    ...[dayStart('2026-03-10') - 1, dayStart('2026-03-10'), Date.parse('2026-03-10T01:00:00Z'), dayStart('2026-03-21') - 1],
    ...[dayStart('2026-03-21'), FROM - 1, FROM, TO, TO + 1, FROM - LENGTH, FROM - LENGTH - 1],
  ];
  return instants.map((at, i) => {
    const last: Touch = {
      utmSource: pick(['google', 'meta', 'tiktok', '\u{1F600}src', '\uFF5Esrc']),
      utmMedium: pick(['cpc', 'paid']),
      utmCampaign: pick(['launch', 'spring', 'summer']),
      utmContent: pick(['(not set)', 'ad-a', 'ad-b']),
      utmTerm: pick(['(not set)', 'shoes']),
    };
    const hasFirst = next() < 0.5;
    const first: Touch = hasFirst
      ? {
          utmSource: pick(['google', 'email']),
          utmMedium: '(not set)',
          utmCampaign: pick(['launch', '(not set)']),
          utmContent: '(not set)',
          utmTerm: '(not set)',
        }
      : last;
    const contentInTracking = next() < 0.5;
    const extras: JsonObject = {
      ...(last.utmContent !== '(not set)' && !contentInTracking ? { utmContent: last.utmContent } : {}),
      ...(last.utmTerm !== '(not set)' ? { utmTerm: last.utmTerm } : {}),
      ...(hasFirst
        ? {
            firstTouch: {
              utmSource: first.utmSource,
              ...(first.utmCampaign === '(not set)' ? {} : { utmCampaign: first.utmCampaign }),
              utmMedium: 7,
            },
          }
        : {}),
    };
    // The orders put at the edges are paid real orders in reais with a line of ext-1, whose cost changes there.
    const edge = i >= count;
    const currency = edge || next() < 0.7 ? 'BRL' : 'USD';
    const products: Product[] = Array.from({ length: 1 + Math.floor(next() * 3) }, (_, n) => ({
      ...(edge && n === 0 ? LINES[0] : pick(LINES)),
      name: pick(['Shirt', 'Shirt (new)', 'Thing']),
      quantity: 1 + Math.floor(next() * 4),
      unitPriceCents: 100 + Math.floor(next() * 5_000),
    }));
    const gross = products.reduce((sum, line) => sum + line.quantity * line.unitPriceCents, 0) + Math.floor(next() * 999);
    const status: OrderStatus = edge || next() < 0.55 ? 'paid' : pick(ORDER_STATUSES);
    const order = anOrder()
      .inDashboard(dashboardId)
      .with({
        // Ids that tie on createdAt name products by the greater id.
        id: `ord_${seed}_${String(i).padStart(4, '0')}`,
        externalId: `p-${seed}-${i}`,
        createdAt: new Date(at),
        status,
        isTest: !edge && next() < 0.1,
        platform: pick(['shopify', 'woo']),
        paymentMethod: pick(['pix', 'card']),
        amounts: {
          currency,
          grossCents: gross,
          netToSellerCents: gross - Math.floor(gross * 0.07),
          discountCents: 0,
          shippingCents: 0,
          taxesCents: 0,
          totalFeesCents: 0,
        },
        products,
        tracking: {
          utmSource: last.utmSource,
          utmMedium: last.utmMedium,
          utmCampaign: last.utmCampaign,
          ...(contentInTracking && last.utmContent !== '(not set)' ? { utmContent: last.utmContent } : {}),
        },
        ...(Object.keys(extras).length === 0 ? {} : { trackingExtras: extras }),
      })
      .build();
    return { order, last, first };
  });
};

/** What a report is made from: the orders, and the dashboard's costs, spend, tax rate and zone as they are. */
export interface World {
  readonly zone: WorldZone;
  readonly made: readonly Made[];
  readonly costs: readonly ProductCostEntry[];
  readonly spend: readonly SpendEntry[];
  readonly taxRate: number;
}

export interface Scope {
  readonly model: 'last' | 'first';
  readonly isTest: boolean | undefined;
  readonly filters: Partial<Record<Dim, string>>;
}

const bytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

/** round(n × 10^digits / d) / 10^digits, a half away from zero, worked out on integers. */
const rounded = (n: number, d: number, digits: 0 | 4): number => {
  const scale = 10n ** BigInt(digits);
  const num = BigInt(n) * scale;
  const den = BigInt(d);
  const sign = num < 0n !== den < 0n ? -1n : 1n;
  const [a, b] = [num < 0n ? -num : num, den < 0n ? -den : den];
  const whole = a / b;
  const q = (a - whole * b) * 2n >= b ? whole + 1n : whole;
  return Number(sign * q) / 10 ** digits;
};

/** A line's product: its SKU, else its externalId, else `(not set)`. */
const productOf = (line: Product): string => line.sku ?? line.externalId ?? '(not set)';

/** The unit cost in force: the entry of the product and currency with the latest `from` whose day (of the dashboard's zone) has begun. */
const unitCost = (world: World, product: string, currency: string, at: number): number | undefined => {
  let best: ProductCostEntry | undefined;
  for (const e of world.costs)
    if (
      e.product === product &&
      e.currency === currency &&
      dayStart(e.from, world.zone) <= at &&
      (best === undefined || e.from > best.from)
    )
      best = e;
  return best?.unitCostCents;
};

/** A line's unit cost: its product's in force; where none is, the one in force under its externalId, if it has one besides a SKU. */
const lineCost = (world: World, line: Product, currency: string, at: number): number | undefined =>
  unitCost(world, productOf(line), currency, at) ??
  (line.sku !== undefined && line.externalId !== undefined ? unitCost(world, line.externalId, currency, at) : undefined);

const inScope = (m: Made, scope: Scope): boolean => {
  if (scope.isTest !== undefined && m.order.isTest !== scope.isTest) return false;
  const touch = scope.model === 'first' ? m.first : m.last;
  return Object.entries(scope.filters).every(([d, v]) => touch[d as Dim] === v);
};

const valueOf = (m: Made, model: 'last' | 'first', d: By): string =>
  d === 'platform' ? m.order.platform : d === 'paymentMethod' ? m.order.paymentMethod : (model === 'first' ? m.first : m.last)[d];

type Totals = Record<string, number>;

/** What orders add up to, every field from its definition (decisions 0016, 0020). */
const totalsOf = (orders: readonly Made[], world: World): Totals => {
  const t: Totals = { pending: 0, paid: 0, refused: 0, refunded: 0, chargedback: 0, grossCents: 0, paidGrossCents: 0, paidNetCents: 0 };
  Object.assign(t, { refundedCents: 0, chargedbackCents: 0, productCostCents: 0, uncostedUnits: 0 });
  for (const { order } of orders) {
    t[order.status] += 1;
    t['grossCents'] += order.amounts.grossCents;
    if (order.status === 'refunded') t['refundedCents'] += order.amounts.grossCents;
    if (order.status === 'chargedback') t['chargedbackCents'] += order.amounts.grossCents;
    if (order.status !== 'paid') continue;
    t['paidGrossCents'] += order.amounts.grossCents;
    t['paidNetCents'] += order.amounts.netToSellerCents;
    for (const line of order.products) {
      const cost = lineCost(world, line, order.amounts.currency, order.createdAt.getTime());
      if (cost === undefined) t['uncostedUnits'] += line.quantity;
      else t['productCostCents'] += line.quantity * cost;
    }
  }
  return t;
};

export type DirectMetrics = Record<string, number | null>;

const metricsOf = (t: Totals, spend: number | null, taxRate: number): DirectMetrics => {
  const orders = t['pending'] + t['paid'] + t['refused'] + t['refunded'] + t['chargedback'];
  const decided = orders - t['pending'];
  const taxCents = rounded(t['paidGrossCents'] * Math.round(taxRate * 100), 10_000, 0);
  const contributionCents = t['paidNetCents'] - t['productCostCents'] - taxCents;
  const profitCents = spend === null ? null : contributionCents - spend;
  return {
    orders,
    ...t,
    approvalRate: decided === 0 ? null : rounded(t['paid'] + t['refunded'] + t['chargedback'], decided, 4),
    averageOrderCents: t['paid'] === 0 ? null : rounded(t['paidGrossCents'], t['paid'], 0),
    spendCents: spend,
    roas: spend === null || spend === 0 ? null : rounded(t['paidGrossCents'], spend, 4),
    cpaCents: spend === null || spend === 0 || t['paid'] === 0 ? null : rounded(spend, t['paid'], 0),
    taxCents,
    contributionCents,
    profitCents,
    marginRate: profitCents === null || t['paidGrossCents'] === 0 ? null : rounded(profitCents, t['paidGrossCents'], 4),
    roi: profitCents === null || spend === null || spend === 0 ? null : rounded(profitCents, spend, 4),
  };
};

const SPEND_DIMS: readonly By[] = ['utmSource', 'utmMedium', 'utmCampaign', 'utmContent'];

export interface BreakdownAsked extends Scope {
  readonly from: number;
  readonly to: number;
  readonly by: readonly By[];
  readonly sort: string;
  readonly limit: number;
  readonly compare: boolean;
}

/** Descending by the sort value, a null after every number; then by the tie values in order, by UTF-8 bytes. */
const ranked = <R>(rows: R[], value: (r: R) => number | null, tie: (r: R) => readonly string[]): R[] =>
  rows.sort((a, b) => {
    const [x, y] = [value(a), value(b)];
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      return y - x;
    }
    const [s, u] = [tie(a), tie(b)];
    for (let i = 0; i < s.length; i++) if (s[i] !== u[i]) return bytes(s[i], u[i]);
    return 0;
  });

/** The paid units of the scope's orders created in [from, to] that no cost priced, and how many products they are. */
export const directUncosted = (world: World, q: Scope & { readonly from: number; readonly to: number }) => {
  let units = 0;
  const products = new Set<string>();
  for (const m of world.made) {
    const { order } = m;
    const at = order.createdAt.getTime();
    if (at < q.from || at > q.to || order.status !== 'paid' || !inScope(m, q)) continue;
    for (const line of order.products)
      if (lineCost(world, line, order.amounts.currency, at) === undefined) {
        units += line.quantity;
        products.add(productOf(line));
      }
  }
  return { units, products: products.size };
};

/** The products sold without a cost over [from, to], named as the products report names them, the most units first. */
export const directUncostedProducts = (world: World, q: Scope & { readonly from: number; readonly to: number; readonly limit: number }) => {
  const report = directProducts(world, { ...q, sort: 'uncostedUnits', limit: Number.MAX_SAFE_INTEGER, compare: false });
  const rows = report.rows
    .filter((row) => row.uncostedUnits > 0)
    .map((row) => ({ product: row.product, currency: row.currency, name: row.name, uncostedUnits: row.uncostedUnits }));
  return { rows: rows.slice(0, q.limit), totalRows: rows.length, ...directUncosted(world, q) };
};

/** A breakdown as decisions 0016, 0020 define it, row by row. */
export const directBreakdown = (world: World, q: BreakdownAsked) => {
  const joins = q.by.every((d) => SPEND_DIMS.includes(d)) && q.filters.utmTerm === undefined;
  const periods = [{ start: q.from, end: q.to + 1 }];
  if (q.compare) periods.push({ start: 2 * q.from - (q.to + 1), end: q.from });
  const rows = new Map<string, { key: Record<string, string>; currency: string; orders: Made[][]; spend: number[] }>();
  const rowOf = (key: Record<string, string>, currency: string) => {
    const id = JSON.stringify([q.by.map((d) => key[d]), currency]);
    if (!rows.has(id)) rows.set(id, { key, currency, orders: periods.map(() => []), spend: periods.map(() => 0) });
    return rows.get(id)!;
  };
  periods.forEach(({ start, end }, p) => {
    for (const m of world.made) {
      const at = m.order.createdAt.getTime();
      if (at < start || at >= end || !inScope(m, q)) continue;
      rowOf(Object.fromEntries(q.by.map((d) => [d, valueOf(m, q.model, d)])), m.order.amounts.currency).orders[p].push(m);
    }
    if (!joins) return;
    for (const e of world.spend) {
      const day = dayStart(e.date, world.zone);
      if (day < start || day >= end) continue;
      if (Object.entries(q.filters).some(([d, v]) => e[d as 'utmSource'] !== v)) continue;
      rowOf(Object.fromEntries(q.by.map((d) => [d, e[d as 'utmSource']])), e.currency).spend[p] += e.amountCents;
    }
  });
  const all = [...rows.values()].map((row) => {
    const metrics = (p: number) => metricsOf(totalsOf(row.orders[p], world), joins ? row.spend[p] : null, world.taxRate);
    return { key: row.key, currency: row.currency, ...metrics(0), ...(q.compare ? { previous: metrics(1) } : {}) };
  });
  const sorted = ranked(
    all,
    (r) => (r as unknown as DirectMetrics)[q.sort],
    (r) => [...q.by.map((d) => r.key[d]), r.currency],
  );
  return { rows: sorted.slice(0, q.limit), totalRows: all.length, uncosted: directUncosted(world, q) };
};

export interface TimeseriesAsked extends Scope {
  readonly from: number;
  readonly to: number;
  /** Only these two: their buckets are known here without a calendar (São Paulo has one offset all year). */
  readonly interval: 'hour' | 'day';
  /** The buckets' calendar, which need not be the dashboard's. */
  readonly timezone: WorldZone;
  readonly compare: boolean;
}

const bucketsOf = (q: Pick<TimeseriesAsked, 'from' | 'to' | 'interval' | 'timezone'>) => {
  // How far the zone's clock is ahead of UTC: −3 hours in São Paulo.
  const offset = Date.parse('2026-01-01T00:00:00Z') - dayStart('2026-01-01', q.timezone);
  const size = q.interval === 'hour' ? 3_600_000 : 86_400_000;
  const buckets: { start: number; end: number }[] = [];
  let start = Math.floor((q.from + offset) / size) * size - offset;
  for (; start <= q.to; start += size) buckets.push({ start: Math.max(start, q.from), end: Math.min(start + size, q.to + 1) });
  return buckets;
};

/** A timeseries as decisions 0016, 0020 define it, bucket by bucket; a previous bucket is its bucket moved back by the period. */
export const directTimeseries = (world: World, q: TimeseriesAsked) => {
  const joins = q.filters.utmTerm === undefined;
  const length = q.to + 1 - q.from;
  const current = bucketsOf(q);
  const shifted = current.map((b) => ({ start: b.start - length, end: b.end - length }));
  const counts = (e: SpendEntry, b: { start: number; end: number }) =>
    dayStart(e.date, world.zone) >= b.start &&
    dayStart(e.date, world.zone) < b.end &&
    Object.entries(q.filters).every(([d, v]) => e[d as 'utmSource'] === v);
  const figures = (currency: string, b: { start: number; end: number }) => {
    const orders = world.made.filter((m) => {
      const at = m.order.createdAt.getTime();
      return at >= b.start && at < b.end && m.order.amounts.currency === currency && inScope(m, q);
    });
    const spend = world.spend.filter((e) => e.currency === currency && counts(e, b)).reduce((sum, e) => sum + e.amountCents, 0);
    return {
      orders,
      spend,
      metrics: { start: b.start, end: b.end, ...metricsOf(totalsOf(orders, world), joins ? spend : null, world.taxRate) },
    };
  };
  const all = q.compare ? [...shifted, ...current] : current;
  const currencies = ['BRL', 'USD'].filter((currency) =>
    all.some((b) => figures(currency, b).orders.length > 0 || (joins && world.spend.some((e) => e.currency === currency && counts(e, b)))),
  );
  return currencies.map((currency) => ({
    currency,
    buckets: current.map((b, i) => ({
      ...figures(currency, b).metrics,
      ...(q.compare ? { previous: figures(currency, shifted[i]).metrics } : {}),
    })),
  }));
};

export interface ProductsAsked extends Scope {
  readonly from: number;
  readonly to: number;
  readonly sort: string;
  readonly limit: number;
  readonly compare: boolean;
}

/** The products report as decision 0020 defines it: a row per product and currency, named by its latest order. */
export const directProducts = (world: World, q: ProductsAsked) => {
  const periods = [{ start: q.from, end: q.to + 1 }];
  if (q.compare) periods.push({ start: 2 * q.from - (q.to + 1), end: q.from });
  const rows = new Map<string, { product: string; currency: string; named: { at: number; id: string; name: string }; figures: Totals[] }>();
  periods.forEach(({ start, end }, p) => {
    for (const m of world.made) {
      const { order } = m;
      const at = order.createdAt.getTime();
      if (at < start || at >= end || !inScope(m, q)) continue;
      const seen = new Set<string>();
      for (const line of order.products) {
        const product = productOf(line);
        const id = JSON.stringify([product, order.amounts.currency]);
        if (!rows.has(id)) {
          const zero = () => ({ orders: 0, units: 0, paidUnits: 0, paidRevenueCents: 0, productCostCents: 0, uncostedUnits: 0 });
          rows.set(id, {
            product,
            currency: order.amounts.currency,
            named: { at: -Infinity, id: '', name: '' },
            figures: periods.map(zero),
          });
        }
        const row = rows.get(id)!;
        const f = row.figures[p];
        if (!seen.has(product)) {
          seen.add(product);
          f['orders'] += 1;
          if (at > row.named.at || (at === row.named.at && order.id > row.named.id)) row.named = { at, id: order.id, name: line.name };
        }
        f['units'] += line.quantity;
        if (order.status !== 'paid') continue;
        f['paidUnits'] += line.quantity;
        f['paidRevenueCents'] += line.quantity * line.unitPriceCents;
        const cost = lineCost(world, line, order.amounts.currency, at);
        if (cost === undefined) f['uncostedUnits'] += line.quantity;
        else f['productCostCents'] += line.quantity * cost;
      }
    }
  });
  const withMargin = (f: Totals) => ({
    orders: f['orders'],
    units: f['units'],
    paidUnits: f['paidUnits'],
    paidRevenueCents: f['paidRevenueCents'],
    productCostCents: f['productCostCents'],
    grossMarginCents: f['paidRevenueCents'] - f['productCostCents'],
    uncostedUnits: f['uncostedUnits'],
  });
  const all = [...rows.values()].map((row) => ({
    product: row.product,
    currency: row.currency,
    name: row.named.name,
    ...withMargin(row.figures[0]),
    ...(q.compare ? { previous: withMargin(row.figures[1]) } : {}),
  }));
  const sorted = ranked(
    all,
    (r) => (r as unknown as Record<string, number>)[q.sort],
    (r) => [r.product, r.currency],
  );
  return { rows: sorted.slice(0, q.limit), totalRows: all.length, uncosted: directUncosted(world, q) };
};
