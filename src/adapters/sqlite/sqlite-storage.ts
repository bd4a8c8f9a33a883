import type { Logger } from '../../application/ports/logger';
import type { Storage } from '../../application/ports/storage';
import { SqliteAdAccountRepository } from './ads/sqlite-ad-account-repository';
import { SqliteConversionRepository } from './ads/sqlite-conversion-repository';
import { sqliteAccountStores } from './accounts/sqlite-account-stores';
import { SqliteEventFeed } from './orders/sqlite-event-feed';
import { SqliteDashboardRepository } from './accounts/sqlite-dashboard-repository';
import { SqliteDeliveryRepository } from './webhooks/sqlite-delivery-repository';
import { SqliteDatabase, type SqliteDatabaseOptions } from './sqlite-database';
import { SqliteIdempotencyStore } from './guards/sqlite-idempotency-store';
import { SqliteLinkRepository } from './links/sqlite-link-repository';
import { SqliteOrderRepository } from './orders/sqlite-order-repository';
import { SqliteProductCostRepository } from './costs/sqlite-product-cost-repository';
import { SqliteRateLimitCounter } from './guards/sqlite-rate-limit-counter';
import { SqliteReportOffload } from './reports/sqlite-report-offload';
import { SqliteReportReader } from './reports/sqlite-report-reader';
import { SqliteSourceDeliveryLog } from './sources/sqlite-source-delivery-log';
import { SqliteSourceRepository } from './sources/sqlite-source-repository';
import { SqliteSpendRepository } from './spend/sqlite-spend-repository';
import { SqliteStorageHealth } from './sqlite-storage-health';
import { SqliteTokenRepository } from './accounts/sqlite-token-repository';
import { SqliteWebhookEndpointRepository } from './webhooks/sqlite-webhook-endpoint-repository';
import { SqliteWebhookOutbox } from './webhooks/sqlite-webhook-outbox';

export interface SqliteStorageOptions extends SqliteDatabaseOptions {
  readonly logger: Logger;
}

/** Every storage port over one open database; `health.close()` closes it. */
export const sqliteStorageOn = (db: SqliteDatabase, logger: Logger): Storage => {
  const offload = new SqliteReportOffload(db.file);
  return {
    description: `embedded SQLite store, file ${db.file}`,
    persistent: true,
    orders: new SqliteOrderRepository(db, logger),
    dashboards: new SqliteDashboardRepository(db, logger),
    tokens: new SqliteTokenRepository(db, logger),
    links: new SqliteLinkRepository(db, logger),
    idempotency: new SqliteIdempotencyStore(db, logger),
    rateLimits: new SqliteRateLimitCounter(db),
    webhooks: new SqliteWebhookEndpointRepository(db, logger),
    deliveries: new SqliteDeliveryRepository(db, logger),
    outbox: new SqliteWebhookOutbox(db, logger),
    events: new SqliteEventFeed(db, logger),
    reports: new SqliteReportReader(db, offload),
    spend: new SqliteSpendRepository(db, logger, offload),
    sources: new SqliteSourceRepository(db, logger),
    sourceDeliveries: new SqliteSourceDeliveryLog(db, logger),
    productCosts: new SqliteProductCostRepository(db, logger),
    accounts: sqliteAccountStores(db, logger),
    adAccounts: new SqliteAdAccountRepository(db, logger),
    conversions: new SqliteConversionRepository(db, logger),
    health: new SqliteStorageHealth(db, () => offload.close()),
    longestWriteMs: () => db.takeLongestWriteMs(),
  };
};

/**
 * The SQLite store: opens the file at `path` (creating it and its folder), migrates it, and returns
 * the adapters of every port on it. A file that cannot be used throws a `SqliteFileError` naming it.
 */
export const openSqliteStorage = (options: SqliteStorageOptions): Storage => sqliteStorageOn(SqliteDatabase.open(options), options.logger);
