import { MongoClient, type MongoClientOptions } from 'mongodb';
import type { Logger } from '../../application/ports/logger';
import type { Storage } from '../../application/ports/storage';
import { MongoAdAccountRepository } from './ads/mongo-ad-account-repository';
import { MongoDashboardRepository } from './accounts/mongo-dashboard-repository';
import { MongoDeliveryRepository } from './webhooks/mongo-delivery-repository';
import { MongoIdempotencyStore } from './guards/mongo-idempotency-store';
import { guarded } from './mongo-errors';
import { ensureIndexes } from './mongo-indexes';
import { mongoAccountStores } from './accounts/mongo-account-stores';
import { MongoEventFeed } from './orders/mongo-event-feed';
import { giveOldTokensEveryScope, giveAllScopeTokensAdScopes, giveAllScopeTokensSourceScopes } from './accounts/dashboard-documents';
import { MongoLinkRepository } from './links/mongo-link-repository';
import { checkSchemaVersion } from './mongo-schema-version';
import { MongoOrderRepository } from './orders/mongo-order-repository';
import { MongoProductCostRepository } from './costs/mongo-product-cost-repository';
import { MongoProfitReads } from './reports/mongo-profit-reads';
import { MongoRateLimitCounter } from './guards/mongo-rate-limit-counter';
import { MongoReportReader } from './reports/mongo-report-reader';
import { markOrdersWrittenBeforeReports, MongoReportRollup } from './reports/mongo-report-rollup';
import { MongoSourceDeliveryLog } from './sources/mongo-source-delivery-log';
import { MongoSourceRepository } from './sources/mongo-source-repository';
import { MongoSpendRepository } from './spend/mongo-spend-repository';
import { MongoStorageHealth } from './mongo-storage-health';
import { MongoTokenRepository } from './accounts/mongo-token-repository';
import { MongoWebhookEndpointRepository } from './webhooks/mongo-webhook-endpoint-repository';
import { MongoWebhookOutbox } from './webhooks/mongo-webhook-outbox';
import { MongoConversionRepository } from './ads/mongo-conversion-repository';

/**
 * Timeouts short enough that a request fails with 503 in a few seconds instead of hanging when the
 * server is gone. Values the URI sets itself win over these.
 */
const DEFAULT_TIMEOUTS = {
  serverSelectionTimeoutMS: 3_000,
  connectTimeoutMS: 3_000,
  socketTimeoutMS: 15_000,
} as const;

export interface MongoStorageOptions {
  /** Overrides the defaults above (tests use a short server selection timeout). */
  readonly clientOptions?: MongoClientOptions;
  readonly pingTimeoutMs?: number;
  /** How long the events feed waits before serving an event (FEED_SETTLE_MS; tests shorten it). */
  readonly feedSettleMs?: number;
}

/**
 * The database named in the URI's path (`mongodb://host/orders?...` → `orders`), or undefined when
 * the path is empty. User info cannot hold a raw `/` or `?`, so the first of them ends the hosts.
 */
export const databaseFromUri = (uri: string): string | undefined => {
  const rest = uri.replace(/^mongodb(?:\+srv)?:\/\//i, '');
  const hostsEnd = rest.search(/[/?]/);
  if (hostsEnd === -1 || rest[hostsEnd] !== '/') return undefined;
  const path = rest.slice(hostsEnd + 1).split('?')[0] ?? '';
  return path === '' ? undefined : decodeURIComponent(path);
};

const clientOptionsFor = (uri: string, overrides: MongoClientOptions = {}): MongoClientOptions => {
  const query = uri.includes('?') ? uri.slice(uri.indexOf('?') + 1).toLowerCase() : '';
  const setByUri = (name: string): boolean => query.split('&').some((pair) => pair.startsWith(`${name.toLowerCase()}=`));
  const defaults = Object.fromEntries(Object.entries(DEFAULT_TIMEOUTS).filter(([name]) => !setByUri(name)));
  return { appName: 'orders-service', ignoreUndefined: true, ...defaults, ...overrides };
};

/**
 * The MongoDB storage over an existing client, without touching the server: it connects on first
 * use. The description names the hosts and the database, never the credentials of the URI.
 */
export const createMongoStorage = (
  client: MongoClient,
  dbName: string,
  logger: Logger,
  options: Pick<MongoStorageOptions, 'pingTimeoutMs' | 'feedSettleMs'> = {},
): Storage => {
  const db = client.db(dbName);
  const events = new MongoEventFeed(db, logger, options.feedSettleMs);
  const spend = new MongoSpendRepository(db, logger);
  const productCosts = new MongoProductCostRepository(db, logger);
  const hosts = client.options.srvHost ?? client.options.hosts.map((host) => host.toString()).join(',');
  return {
    description: `MongoDB database "${dbName}" on ${hosts}`,
    persistent: true,
    orders: new MongoOrderRepository(db, logger),
    dashboards: new MongoDashboardRepository(db, logger),
    tokens: new MongoTokenRepository(db, logger),
    links: new MongoLinkRepository(db, logger),
    idempotency: new MongoIdempotencyStore(db, logger),
    rateLimits: new MongoRateLimitCounter(db, logger),
    webhooks: new MongoWebhookEndpointRepository(db, logger),
    deliveries: new MongoDeliveryRepository(db, logger),
    outbox: new MongoWebhookOutbox(db, logger, events),
    events,
    reports: new MongoReportReader(db, logger, spend, new MongoProfitReads(db, logger, productCosts)),
    spend,
    sources: new MongoSourceRepository(db, logger),
    sourceDeliveries: new MongoSourceDeliveryLog(db, logger),
    productCosts,
    accounts: mongoAccountStores(db, logger),
    adAccounts: new MongoAdAccountRepository(db, logger),
    conversions: new MongoConversionRepository(db, logger),
    workers: [new MongoReportRollup(db, logger)],
    health: new MongoStorageHealth(client, db, options.pingTimeoutMs),
  };
};

/**
 * Opens the one MongoClient of the process, creates the indexes, checks (or, on a new database,
 * records) the schema version, and returns the storage. A server that cannot be reached fails the
 * start with `StorageUnavailableError` after the server selection timeout; a database of another
 * schema version fails it with `SchemaVersionMismatchError`. `storage.health.close()` closes the
 * client.
 */
export const connectMongoStorage = async (
  uri: string,
  dbName: string,
  logger: Logger,
  options: MongoStorageOptions = {},
): Promise<Storage> => {
  const client = new MongoClient(uri, clientOptionsFor(uri, options.clientOptions));
  const storage = createMongoStorage(client, dbName, logger, options);
  try {
    await guarded(async () => {
      await client.connect();
      await ensureIndexes(client.db(dbName));
      await checkSchemaVersion(client.db(dbName), logger);
      await markOrdersWrittenBeforeReports(client.db(dbName));
      await giveOldTokensEveryScope(client.db(dbName));
      await giveAllScopeTokensSourceScopes(client.db(dbName));
      await giveAllScopeTokensAdScopes(client.db(dbName));
    });
  } catch (err) {
    await client.close().catch(() => undefined);
    throw err;
  }
  logger.debug('MongoDB indexes ensured, schema version checked', { database: dbName });
  return storage;
};
