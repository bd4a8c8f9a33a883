import type { Storage } from '../../../src/application/ports/storage';
import { dashboardRepositoryContract } from '../../contract/dashboard-repository.contract';
import { deliveryRepositoryContract } from '../../contract/delivery-repository.contract';
import { idempotencyStoreContract } from '../../contract/idempotency-store.contract';
import { linkRepositoryContract } from '../../contract/link-repository.contract';
import { orderRepositoryContract } from '../../contract/order-repository.contract';
import { rateLimitCounterContract } from '../../contract/rate-limit-counter.contract';
import { reportReaderContract } from '../../contract/report-reader.contract';
import { breakdownRowsContract } from '../../contract/breakdown-rows.contract';
import { profitReportsContract } from '../../contract/profit-reports.contract';
import { adAccountRepositoryContract } from '../../contract/ad-account-repository.contract';
import { conversionRepositoryContract } from '../../contract/conversion-repository.contract';
import { spendRepositoryContract } from '../../contract/spend-repository.contract';
import { productCostRepositoryContract } from '../../contract/product-cost-repository.contract';
import { accountStoresContract } from '../../contract/account-stores.contract';
import { eventFeedContract } from '../../contract/event-feed.contract';
import { sourceDeliveryLogContract } from '../../contract/source-delivery-log.contract';
import { sourceRepositoryContract } from '../../contract/source-repository.contract';
import { tokenRepositoryContract } from '../../contract/token-repository.contract';
import { webhookEndpointRepositoryContract } from '../../contract/webhook-endpoint-repository.contract';
import { webhookOutboxContract } from '../../contract/webhook-outbox.contract';
import { temporarySqliteStorage } from '../../support/sqlite-files';

/** Every port's contract on the SQLite store, each test on a new file, removed after it. */
describe('SQLite adapters', () => {
  let storage: Storage | undefined;
  const fresh = (): Storage => (storage = temporarySqliteStorage());

  afterEach(async () => {
    await storage?.health.close();
    storage = undefined;
  });

  orderRepositoryContract('SqliteOrderRepository', async () => fresh().orders);
  dashboardRepositoryContract('SqliteDashboardRepository', async () => fresh().dashboards);
  tokenRepositoryContract('SqliteTokenRepository', async () => fresh().tokens);
  linkRepositoryContract('SqliteLinkRepository', async () => fresh().links);
  idempotencyStoreContract('SqliteIdempotencyStore', async () => fresh().idempotency);
  rateLimitCounterContract('SqliteRateLimitCounter', async () => fresh().rateLimits);
  webhookEndpointRepositoryContract('SqliteWebhookEndpointRepository', async () => fresh().webhooks);
  deliveryRepositoryContract('SqliteDeliveryRepository', async () => fresh().deliveries);
  webhookOutboxContract('SqliteWebhookOutbox', async () => fresh(), true);
  sourceRepositoryContract('SqliteSourceRepository', async () => fresh().sources);
  sourceDeliveryLogContract('SqliteSourceDeliveryLog', async () => fresh().sourceDeliveries);
  spendRepositoryContract('SqliteSpendRepository', async () => fresh().spend);
  adAccountRepositoryContract('SqliteAdAccountRepository', async () => fresh().adAccounts);
  conversionRepositoryContract('SqliteConversionRepository', async () => fresh());
  productCostRepositoryContract('SqliteProductCostRepository', async () => fresh().productCosts);
  accountStoresContract('SQLite', async () => fresh().accounts);
  eventFeedContract('SQLite', async () => fresh());
  reportReaderContract('SqliteReportReader', async () => fresh());
  profitReportsContract('SQLite', async () => fresh());
});

/** Reports read by many tests from one file, filled once. */
describe('SQLite reports', () => {
  let storage: Storage | undefined;

  after(async () => {
    await storage?.health.close();
  });

  breakdownRowsContract('SqliteReportReader', async () => (storage = temporarySqliteStorage()));
});
