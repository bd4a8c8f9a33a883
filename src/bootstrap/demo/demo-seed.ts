import * as E from 'fp-ts/Either';
import type { UseCases } from '../../application/use-cases';
import type { Dashboard } from '../../domain/dashboard';
import type { ProductCostEntry } from '../../domain/product-cost';
import { MAX_SPEND_ENTRIES, type SpendEntry } from '../../domain/spend';
import { nextDate } from '../../domain/time-zone';
import { MAX_BATCH_ORDERS } from '../../adapters/http/orders/batch-routes';
import { planDemo, type DemoPlan } from './demo-plan';
import { DEMO_PRODUCTS, DEMO_RAISED, DEMO_TAX_RATE } from './demo-shop';

export const DEMO_ZONE = 'America/Sao_Paulo';
export const DEMO_DAYS = 90;
export const DEMO_SEED = 20_240_901;
export const DEMO_OWNER_EMAIL = 'owner@demo.example';

export interface DemoSeedOptions {
  /** The last day seeded, in the demo's zone: yesterday for the demo, so today is left to live orders. */
  readonly lastDay: string;
  readonly ownerPassword: string;
  /** Spend the demo's ad account reads instead of an upload: left out of the upload. */
  readonly readByAdAccount?: (entry: SpendEntry) => boolean;
}

export interface SeededDemo {
  readonly dashboard: Dashboard;
  readonly plan: DemoPlan;
}

/** The catalog's costs from the plan's first day, and the raised cost from its day on. */
export const demoCosts = (plan: DemoPlan): ProductCostEntry[] => {
  let raisedFrom = plan.firstDay;
  for (let day = 0; day < DEMO_DAYS - DEMO_RAISED.daysBeforeEnd; day++) raisedFrom = nextDate(raisedFrom);
  return [
    ...DEMO_PRODUCTS.flatMap(({ sku, costCents }) =>
      costCents === undefined
        ? []
        : Object.entries(costCents).map(([currency, unitCostCents]) => ({ product: sku, currency, unitCostCents, from: plan.firstDay })),
    ),
    { product: DEMO_RAISED.sku, currency: DEMO_RAISED.currency, unitCostCents: DEMO_RAISED.costCents, from: raisedFrom },
  ];
};

/**
 * Fills a new dashboard with the demo's past through the use cases the API and the CLI use: orders
 * 500 at a time, side by side, as `orders import` creates them (SQLite commits them in groups), spend as
 * `spend import` stores it, the outboxes relayed before any webhook endpoint exists (the past makes
 * no deliveries), the product costs and the tax rate (decision 0020) as `costs import` and
 * `dashboards update --tax-rate` set them, and an owner for the console; the source (decision 0021) is seeded
 * after this, in demo-source.ts.
 */
export const seedDemo = async (
  useCases: UseCases,
  { lastDay, ownerPassword, readByAdAccount = () => false }: DemoSeedOptions,
): Promise<SeededDemo> => {
  const dashboard = await useCases.createDashboard.execute('Loja Demo', DEMO_ZONE);
  const plan = planDemo({ lastDay, zone: DEMO_ZONE, days: DEMO_DAYS, seed: DEMO_SEED });
  for (let at = 0; at < plan.orders.length; at += MAX_BATCH_ORDERS) {
    const created = await Promise.all(
      plan.orders.slice(at, at + MAX_BATCH_ORDERS).map((order) => useCases.createOrder.execute(dashboard.id, order)),
    );
    const refused = created.find(E.isLeft);
    if (refused !== undefined) throw new Error(`the demo's order ${refused.left.externalId} was refused as a duplicate`);
  }
  const uploaded = plan.spend.filter((entry) => !readByAdAccount(entry));
  for (let at = 0; at < uploaded.length; at += MAX_SPEND_ENTRIES)
    await useCases.putSpend.execute(dashboard.id, uploaded.slice(at, at + MAX_SPEND_ENTRIES));
  await useCases.putProductCosts.execute(dashboard.id, demoCosts(plan));
  await useCases.updateDashboard.execute(dashboard.id, { taxRate: DEMO_TAX_RATE });
  while ((await useCases.relayOrderEvents.execute(MAX_BATCH_ORDERS)) > 0);
  const owner = await useCases.createOwner.execute(dashboard.id, DEMO_OWNER_EMAIL, ownerPassword);
  if (E.isLeft(owner)) throw new Error(`the demo's owner was refused: ${owner.left._tag}`);
  return { dashboard, plan };
};
