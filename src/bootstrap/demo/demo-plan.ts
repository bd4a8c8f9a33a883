import { NOT_SET } from '../../domain/attribution';
import type { NewOrder, Product } from '../../domain/order';
import type { SpendEntry } from '../../domain/spend';
import { nextDate, startOfDate } from '../../domain/time-zone';
import { DEMO_CAMPAIGNS, DEMO_PRODUCTS, type DemoCampaign, type DemoCurrency } from './demo-shop';

/** What the demo seeds: every order as its checkout would send it, and each campaign's spend by day. */
export interface DemoPlan {
  readonly firstDay: string;
  readonly lastDay: string;
  readonly orders: readonly NewOrder[];
  readonly spend: readonly SpendEntry[];
}

export interface DemoPlanOptions {
  /** The last day seeded (`YYYY-MM-DD` of `zone`); the plan covers `days` days up to it. */
  readonly lastDay: string;
  readonly zone: string;
  readonly days: number;
  /** The same seed and days give the same plan, order for order. */
  readonly seed: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** mulberry32: a small, well-spread 32-bit generator; Math.random cannot be seeded. */
export const seeded = (seed: number): (() => number) => {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
};

const weighted = <T>(random: () => number, items: readonly T[], weightOf: (item: T) => number): T => {
  let left = random() * items.reduce((sum, item) => sum + weightOf(item), 0);
  for (const item of items) {
    left -= weightOf(item);
    if (left < 0) return item;
  }
  return items[items.length - 1];
};

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)];

/** Orders by hour of the day: few at night, most in the evening. */
const HOUR_WEIGHTS = [2, 1, 1, 1, 1, 1, 2, 3, 5, 6, 7, 8, 9, 8, 7, 7, 8, 9, 10, 12, 13, 12, 9, 5];
const HOURS = HOUR_WEIGHTS.map((_, hour) => hour);
/** Sunday first, as Date.getUTCDay counts: weekends sell less. */
const WEEKDAY_FACTOR = [0.8, 1.05, 1, 1, 1.05, 1.1, 0.85];

const PAYMENT_METHODS: Readonly<Record<DemoCurrency, readonly { method: string; weight: number }[]>> = {
  BRL: [
    { method: 'credit_card', weight: 55 },
    { method: 'pix', weight: 33 },
    { method: 'boleto', weight: 12 },
  ],
  USD: [{ method: 'credit_card', weight: 1 }],
};

const STATES = ['SP', 'SP', 'SP', 'RJ', 'RJ', 'MG', 'MG', 'PR', 'RS', 'SC', 'BA', 'PE', 'DF', 'GO'];

/** What the checkout keeps of a sale: card and boleto fees, a share of each sale otherwise. */
const feesOf = (method: string, grossCents: number): number =>
  method === 'boleto' ? 349 : method === 'pix' ? Math.round(grossCents * 0.0099) : Math.round(grossCents * 0.0499) + 39;

const activeOn = (campaign: DemoCampaign, day: number): boolean =>
  campaign.days === undefined || (day >= campaign.days[0] && day <= campaign.days[1]);

const touchOf = (random: () => number, campaign: DemoCampaign) => ({
  utmSource: campaign.utmSource,
  utmMedium: campaign.utmMedium,
  utmCampaign: campaign.utmCampaign,
  utmContent: pick(random, campaign.contents),
});

/**
 * Where an order ended, by how it was paid and how long ago: cards are refused or approved at once,
 * pix codes and boletos may never be paid, and refunds and chargebacks come days after the payment.
 * The dates of a status after `end` would be in the future: the order stays in the status before.
 */
const outcomeOf = (random: () => number, method: string, createdAt: number, end: number) => {
  const r = random();
  const paidAfter = method === 'boleto' ? (1 + random() * 2) * DAY_MS : method === 'pix' ? (1 + random() * 20) * 60_000 : 5_000;
  const unpaid = method === 'boleto' ? 0.35 : method === 'pix' ? 0.08 : 0.015;
  if (method === 'credit_card' && r < 0.11) return { status: 'refused' as const };
  if (r > 1 - unpaid || createdAt + paidAfter >= end) return { status: 'pending' as const };
  const paidAt = new Date(createdAt + paidAfter);
  const after = random();
  const refundedAt = paidAt.getTime() + (1 + random() * 11) * DAY_MS;
  if (after < 0.05 && refundedAt < end) return { status: 'refunded' as const, paidAt, refundedAt: new Date(refundedAt) };
  const chargedbackAt = paidAt.getTime() + (15 + random() * 30) * DAY_MS;
  if (method === 'credit_card' && after > 0.985 && chargedbackAt < end)
    return { status: 'chargedback' as const, paidAt, chargedbackAt: new Date(chargedbackAt) };
  return { status: 'paid' as const, paidAt };
};

const productsOf = (random: () => number, currency: DemoCurrency): Product[] => {
  const count = weighted(random, [1, 2, 3], (n) => [62, 28, 10][n - 1]);
  const chosen = new Set<number>();
  while (chosen.size < count) chosen.add(Math.floor(random() * DEMO_PRODUCTS.length));
  return [...chosen].map((index) => {
    const product = DEMO_PRODUCTS[index];
    return { sku: product.sku, name: product.name, quantity: random() < 0.85 ? 1 : 2, unitPriceCents: product.priceCents[currency] };
  });
};

/**
 * A shop's last `days` days, made up the same way every time for a seed: a dozen campaigns (search,
 * shopping, social, video, e-mail, a sale of ten days, a launch in dollars), orders growing by about a
 * third over the period with fewer at weekends and at night, a first touch on an awareness campaign for
 * many orders, three payment methods, refusals, refunds and chargebacks in the proportions of a real
 * checkout, a few test orders, and each paid campaign's spend by day.
 */
export const planDemo = ({ lastDay, zone, days, seed }: DemoPlanOptions): DemoPlan => {
  const random = seeded(seed);
  const firstDay = new Date(startOfDate(lastDay, 'UTC') - (days - 1) * DAY_MS).toISOString().slice(0, 10);
  const end = startOfDate(nextDate(lastDay), zone);
  const orders: NewOrder[] = [];
  const spend: SpendEntry[] = [];
  const awareness = DEMO_CAMPAIGNS.filter((campaign) => campaign.role === 'awareness');
  for (let day = 0, date = firstDay; day < days; day++, date = nextDate(date)) {
    const start = startOfDate(date, zone);
    const active = DEMO_CAMPAIGNS.filter((campaign) => activeOn(campaign, day));
    const onSale = active.some((campaign) => campaign.days !== undefined && campaign.days[1] - campaign.days[0] < 15);
    const mean = 36 * (1 + (0.35 * day) / days) * WEEKDAY_FACTOR[new Date(`${date}T12:00:00Z`).getUTCDay()] * (onSale ? 1.6 : 1);
    const count = Math.round(mean * (0.85 + 0.3 * random()));
    for (let i = 0; i < count; i++) {
      const campaign = weighted(random, active, (c) => c.weight);
      const currency = campaign.currency;
      const hour = weighted(random, HOURS, (h) => HOUR_WEIGHTS[h]);
      const createdAt = Math.min(start + (hour + random()) * HOUR_MS, end - 1);
      const method = weighted(random, PAYMENT_METHODS[currency], (m) => m.weight).method;
      const products = productsOf(random, currency);
      const subtotal = products.reduce((sum, p) => sum + p.quantity * p.unitPriceCents, 0);
      const discountCents = random() < 0.15 ? Math.round(subtotal * 0.1) : 0;
      const freeShipping = subtotal >= (currency === 'BRL' ? 19_900 : 10_000);
      const shippingCents = freeShipping ? 0 : currency === 'BRL' ? 1_990 : 900;
      const grossCents = subtotal - discountCents + shippingCents;
      const totalFeesCents = feesOf(method, grossCents);
      const firstTouch =
        campaign.role === 'conversion' && currency === 'BRL' && random() < 0.45 ? touchOf(random, pick(random, awareness)) : undefined;
      const term = campaign.terms === undefined ? {} : { utmTerm: pick(random, campaign.terms) };
      const number = 10_001 + orders.length;
      orders.push({
        externalId: `DEMO-${number}`,
        platform: currency === 'BRL' ? 'shopify' : 'stripe',
        paymentMethod: method,
        isTest: false,
        createdAt: new Date(createdAt),
        amounts: { currency, grossCents, netToSellerCents: grossCents - totalFeesCents, discountCents, shippingCents, totalFeesCents },
        products,
        tracking: { ...touchOf(random, campaign), ...term },
        customer:
          currency === 'BRL'
            ? { email: `cliente${number}@example.com`, state: pick(random, STATES) }
            : { email: `customer${number}@example.com`, country: 'US' },
        ...(firstTouch === undefined ? {} : { trackingExtras: { firstTouch } }),
        ...outcomeOf(random, method, createdAt, end),
      });
    }
    // The team checks the checkout now and then with an order of its own.
    if (random() < 0.12) orders.push(testOrder(10_001 + orders.length, new Date(start + 10 * HOUR_MS)));
    for (const campaign of active) {
      if (campaign.dailyBudgetCents === undefined) continue;
      spend.push({
        date,
        utmSource: campaign.utmSource,
        utmMedium: campaign.utmMedium,
        utmCampaign: campaign.utmCampaign,
        utmContent: NOT_SET,
        currency: campaign.currency,
        amountCents: Math.round(campaign.dailyBudgetCents * (0.8 + 0.4 * random())),
      });
    }
  }
  return { firstDay, lastDay, orders, spend };
};

const testOrder = (number: number, createdAt: Date): NewOrder => ({
  externalId: `TEST-${number}`,
  platform: 'shopify',
  paymentMethod: 'credit_card',
  status: 'paid',
  isTest: true,
  createdAt,
  paidAt: createdAt,
  amounts: { currency: 'BRL', grossCents: 100, netToSellerCents: 56 },
  products: [{ sku: 'TEST', name: 'Produto de teste', quantity: 1, unitPriceCents: 100 }],
  tracking: { utmSource: 'equipe', utmMedium: 'interno', utmCampaign: 'teste-checkout' },
});
