import * as E from 'fp-ts/Either';
import type { UseCases } from '../../application/use-cases';
import type { OrderStatus } from '../../domain/order-status';
import { dateInZone } from '../../domain/time-zone';
import { planDemo } from './demo-plan';
import { DEMO_SEED, DEMO_ZONE } from './demo-seed';

const LIVE_ORDERS = 8;
/** What becomes of each of today's orders after its creation, as the checkout's own webhooks would say. */
const LIVE_CHANGES: readonly (OrderStatus | undefined)[] = ['paid', 'paid', undefined, 'paid', 'refused', 'paid', undefined, 'paid'];

/**
 * Today in the demo, once its past is seeded: a webhook endpoint to the demo's receiver, then a few
 * orders of the last hour created pending and paid or refused through the transition table, and a
 * test event. Their events reach the receiver once the service's workers run, and fill the console's
 * delivery log. Numbers follow the seeded orders' (`after`).
 */
export const startDemoDay = async (
  useCases: UseCases,
  dashboardId: string,
  receiverUrl: string,
  after: number,
  now: Date,
): Promise<void> => {
  const endpoint = await useCases.createWebhook.execute(dashboardId, { url: receiverUrl, description: 'The demo receiver, on loopback' });
  if (E.isLeft(endpoint)) throw new Error(`the demo's webhook endpoint was refused: ${endpoint.left._tag}`);
  const today = planDemo({ lastDay: dateInZone(now.getTime(), DEMO_ZONE), zone: DEMO_ZONE, days: 1, seed: DEMO_SEED + 1 });
  const orders = today.orders.filter((order) => !order.isTest).slice(0, LIVE_ORDERS);
  for (const [index, order] of orders.entries()) {
    const externalId = `DEMO-${10_001 + after + index}`;
    const { paidAt: _paid, refundedAt: _refunded, chargedbackAt: _chargedback, ...placed } = order;
    const createdAt = new Date(now.getTime() - (orders.length - index) * 7 * 60_000);
    const created = await useCases.createOrder.execute(dashboardId, { ...placed, externalId, createdAt, status: 'pending' });
    if (E.isLeft(created)) throw new Error(`the demo's order ${externalId} was refused as a duplicate`);
    const status = LIVE_CHANGES[index];
    if (status === undefined) continue;
    const changed = await useCases.updateOrder.execute(dashboardId, externalId, { status });
    if (E.isLeft(changed)) throw new Error(`the demo's order ${externalId} could not become ${status}: ${changed.left._tag}`);
  }
  await useCases.sendTestWebhook.execute(dashboardId, endpoint.right.id);
};
