import type { Storage } from '../../application/ports/storage';
import { inMemoryAccountStores } from './in-memory-account-stores';
import { InMemoryEventFeed } from './in-memory-event-feed';
import { InMemoryDashboardRepository } from './in-memory-dashboard-repository';
import { InMemoryDeliveryRepository } from './in-memory-delivery-repository';
import { InMemoryIdempotencyStore } from './in-memory-idempotency-store';
import { InMemoryLinkRepository } from './in-memory-link-repository';
import { InMemoryOrderRepository } from './in-memory-order-repository';
import { InMemoryProductCostRepository } from './in-memory-product-cost-repository';
import { InMemoryRateLimitCounter } from './in-memory-rate-limit-counter';
import { InMemoryReportReader } from './in-memory-report-reader';
import { InMemorySourceDeliveryLog } from './in-memory-source-delivery-log';
import { InMemorySourceRepository } from './in-memory-source-repository';
import { InMemorySpendRepository } from './in-memory-spend-repository';
import { InMemoryStorageHealth } from './in-memory-storage-health';
import { InMemoryTokenRepository } from './in-memory-token-repository';
import { InMemoryWebhookEndpointRepository } from './in-memory-webhook-endpoint-repository';
import { InMemoryWebhookOutbox } from './in-memory-webhook-outbox';

/** The in-memory store: every port in the process, gone at exit. */
export const inMemoryStorage = (): Storage => {
  const orders = new InMemoryOrderRepository();
  const spend = new InMemorySpendRepository();
  const productCosts = new InMemoryProductCostRepository();
  const deliveries = new InMemoryDeliveryRepository();
  const events = new InMemoryEventFeed();
  const webhooks = new InMemoryWebhookEndpointRepository();
  return {
    description: 'in-memory store (STORE=memory: data lives only as long as the process)',
    persistent: false,
    orders,
    dashboards: new InMemoryDashboardRepository(),
    tokens: new InMemoryTokenRepository(),
    links: new InMemoryLinkRepository(),
    idempotency: new InMemoryIdempotencyStore(),
    rateLimits: new InMemoryRateLimitCounter(),
    webhooks,
    deliveries,
    outbox: new InMemoryWebhookOutbox(orders, deliveries, events, webhooks),
    events,
    reports: new InMemoryReportReader(orders, spend, productCosts),
    spend,
    sources: new InMemorySourceRepository(),
    sourceDeliveries: new InMemorySourceDeliveryLog(),
    productCosts,
    accounts: inMemoryAccountStores(),
    health: new InMemoryStorageHealth(),
  };
};
