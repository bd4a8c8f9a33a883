import type { Storage } from '../../application/ports/storage';
import { InMemoryAdAccountRepository } from './ads/in-memory-ad-account-repository';
import { InMemoryConversionRepository } from './ads/in-memory-conversion-repository';
import { inMemoryAccountStores } from './accounts/in-memory-account-stores';
import { InMemoryEventFeed } from './orders/in-memory-event-feed';
import { InMemoryDashboardRepository } from './accounts/in-memory-dashboard-repository';
import { InMemoryDeliveryRepository } from './webhooks/in-memory-delivery-repository';
import { InMemoryIdempotencyStore } from './guards/in-memory-idempotency-store';
import { InMemoryLinkRepository } from './links/in-memory-link-repository';
import { InMemoryOrderRepository } from './orders/in-memory-order-repository';
import { InMemoryProductCostRepository } from './costs/in-memory-product-cost-repository';
import { InMemoryRateLimitCounter } from './guards/in-memory-rate-limit-counter';
import { InMemoryReportReader } from './reports/in-memory-report-reader';
import { InMemorySourceDeliveryLog } from './sources/in-memory-source-delivery-log';
import { InMemorySourceRepository } from './sources/in-memory-source-repository';
import { InMemorySpendRepository } from './spend/in-memory-spend-repository';
import { InMemoryStorageHealth } from './in-memory-storage-health';
import { InMemoryTokenRepository } from './accounts/in-memory-token-repository';
import { InMemoryWebhookEndpointRepository } from './webhooks/in-memory-webhook-endpoint-repository';
import { InMemoryWebhookOutbox } from './webhooks/in-memory-webhook-outbox';

/** The in-memory store: every port in the process, gone at exit. */
export const inMemoryStorage = (): Storage => {
  const orders = new InMemoryOrderRepository();
  const spend = new InMemorySpendRepository();
  const productCosts = new InMemoryProductCostRepository();
  const deliveries = new InMemoryDeliveryRepository();
  const events = new InMemoryEventFeed();
  const webhooks = new InMemoryWebhookEndpointRepository();
  const adAccounts = new InMemoryAdAccountRepository();
  const conversions = new InMemoryConversionRepository();
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
    outbox: new InMemoryWebhookOutbox(orders, deliveries, events, webhooks, adAccounts, conversions),
    events,
    reports: new InMemoryReportReader(orders, spend, productCosts),
    spend,
    sources: new InMemorySourceRepository(),
    sourceDeliveries: new InMemorySourceDeliveryLog(),
    productCosts,
    accounts: inMemoryAccountStores(),
    adAccounts,
    conversions,
    health: new InMemoryStorageHealth(),
  };
};
