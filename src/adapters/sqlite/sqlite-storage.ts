import type { Logger } from '../../application/ports/logger';
import type { Storage } from '../../application/ports/storage';
import { sqliteAccountStores } from './sqlite-account-stores';
import { SqliteEventFeed } from './sqlite-event-feed';
import { SqliteDashboardRepository } from './sqlite-dashboard-repository';
import { SqliteDeliveryRepository } from './sqlite-delivery-repository';
import { SqliteDatabase, type SqliteDatabaseOptions } from './sqlite-database';
import { SqliteIdempotencyStore } from './sqlite-idempotency-store';
import { SqliteLinkRepository } from './sqlite-link-repository';
import { SqliteOrderRepository } from './sqlite-order-repository';
import { SqliteProductCostRepository } from './sqlite-product-cost-repository';
import { SqliteRateLimitCounter } from './sqlite-rate-limit-counter';
import { SqliteReportOffload } from './sqlite-report-offload';
import { SqliteReportReader } from './sqlite-report-reader';
import { SqliteSourceDeliveryLog } from './sqlite-source-delivery-log';
import { SqliteSourceRepository } from './sqlite-source-repository';
import { SqliteSpendRepository } from './sqlite-spend-repository';
import { SqliteStorageHealth } from './sqlite-storage-health';
import { SqliteTokenRepository } from './sqlite-token-repository';
import { SqliteWebhookEndpointRepository } from './sqlite-webhook-endpoint-repository';
import { SqliteWebhookOutbox } from './sqlite-webhook-outbox';

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
    health: new SqliteStorageHealth(db, () => offload.close()),
  };
};

/**
 * The SQLite store: opens the file at `path` (creating it and its folder), migrates it, and returns
 * the adapters of every port on it. A file that cannot be used throws a `SqliteFileError` naming it.
 */
export const openSqliteStorage = (options: SqliteStorageOptions): Storage => sqliteStorageOn(SqliteDatabase.open(options), options.logger);
