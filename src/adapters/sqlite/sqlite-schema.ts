import type { Database } from 'better-sqlite3';
import { ADS_MIGRATION } from './ads/ads-schema';
import { CONVERSIONS_MIGRATION } from './ads/conversions-schema';
import { ACCOUNTS_MIGRATION } from './accounts/accounts-schema';
import { EVENT_FEED_MIGRATION } from './orders/event-feed-schema';
import { PROFIT_MIGRATION } from './reports/profit-schema';
import {
  COSTS_IN_ROLLUPS_MIGRATION,
  PRODUCTS_BY_SKU_MIGRATION,
  PRODUCTS_ROLLUP_MIGRATION,
  REPORTS_MIGRATION,
  ROLLUPS_IN_GROUP_COMMIT_MIGRATION,
} from './reports/report-schema';
import { SOURCES_MIGRATION } from './sources/sources-schema';

/**
 * The schema, as the migrations that build it, in order: migration N takes a file from
 * `PRAGMA user_version` N-1 to N. A migration, once released, is never edited; a change is a new one
 * appended here. Instants are integer milliseconds since the epoch, money integer cents, free-form
 * objects and product lists JSON text; tables are STRICT, so a value of another type is refused.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE dashboards (
    id TEXT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    created_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX dashboards_oldest_first ON dashboards (created_at, id);

  CREATE TABLE tokens (
    id TEXT PRIMARY KEY NOT NULL,
    dashboard_id TEXT NOT NULL,
    name TEXT,
    hash TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER
  ) STRICT;
  CREATE INDEX tokens_of_dashboard ON tokens (dashboard_id, created_at, id);

  -- No index on the order id: nothing looks an order up by it, and it holds 131 random bits. The
  -- events refer to their order by \`seq\`, declared so that VACUUM (and VACUUM INTO) keep it.
  CREATE TABLE orders (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL,
    dashboard_id TEXT NOT NULL,
    external_id TEXT NOT NULL,
    platform TEXT NOT NULL,
    payment_method TEXT NOT NULL,
    status TEXT NOT NULL,
    is_test INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    paid_at INTEGER,
    refunded_at INTEGER,
    chargedback_at INTEGER,
    currency TEXT NOT NULL,
    gross_cents INTEGER NOT NULL,
    net_to_seller_cents INTEGER NOT NULL,
    discount_cents INTEGER NOT NULL,
    shipping_cents INTEGER NOT NULL,
    taxes_cents INTEGER NOT NULL,
    total_fees_cents INTEGER NOT NULL,
    products TEXT NOT NULL,
    utm_source TEXT NOT NULL,
    utm_medium TEXT NOT NULL,
    utm_campaign TEXT NOT NULL,
    customer TEXT,
    fees TEXT,
    metadata TEXT,
    tracking_extras TEXT,
    version INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (dashboard_id, external_id)
  ) STRICT;
  CREATE INDEX orders_newest_first ON orders (dashboard_id, created_at DESC, id DESC);
  CREATE INDEX orders_by_status_newest_first ON orders (dashboard_id, status, created_at DESC, id DESC);

  -- How many orders each dashboard has in each status, kept by triggers in the transaction of the
  -- write: a total without dates is read here in constant time, where counting index entries would
  -- grow with the dashboard.
  CREATE TABLE order_counts (
    dashboard_id TEXT NOT NULL,
    status TEXT NOT NULL,
    orders INTEGER NOT NULL,
    PRIMARY KEY (dashboard_id, status)
  ) STRICT, WITHOUT ROWID;
  CREATE TRIGGER order_counts_on_insert AFTER INSERT ON orders BEGIN
    INSERT INTO order_counts (dashboard_id, status, orders) VALUES (NEW.dashboard_id, NEW.status, 1)
      ON CONFLICT (dashboard_id, status) DO UPDATE SET orders = orders + 1;
  END;
  CREATE TRIGGER order_counts_on_status AFTER UPDATE OF status ON orders WHEN OLD.status IS NOT NEW.status BEGIN
    UPDATE order_counts SET orders = orders - 1 WHERE dashboard_id = OLD.dashboard_id AND status = OLD.status;
    INSERT INTO order_counts (dashboard_id, status, orders) VALUES (NEW.dashboard_id, NEW.status, 1)
      ON CONFLICT (dashboard_id, status) DO UPDATE SET orders = orders + 1;
  END;
  CREATE TRIGGER order_counts_on_delete AFTER DELETE ON orders BEGIN
    UPDATE order_counts SET orders = orders - 1 WHERE dashboard_id = OLD.dashboard_id AND status = OLD.status;
  END;

  -- The outbox: each event with the order as the change left it (its row, as JSON), in the order written.
  CREATE TABLE order_events (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL,
    order_seq INTEGER NOT NULL,
    type TEXT NOT NULL,
    occurred_at INTEGER NOT NULL,
    previous_status TEXT,
    order_row TEXT NOT NULL
  ) STRICT;
  CREATE INDEX order_events_of_order ON order_events (order_seq, seq);

  CREATE TABLE idempotency_keys (
    dashboard_id TEXT NOT NULL,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    claim_id TEXT NOT NULL,
    reserved_id TEXT NOT NULL,
    lease_expires_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    response_status INTEGER,
    response_headers TEXT,
    response_body TEXT,
    PRIMARY KEY (dashboard_id, key)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);

  CREATE TABLE rate_limit_windows (
    subject TEXT NOT NULL,
    window_ms INTEGER NOT NULL,
    window_start INTEGER NOT NULL,
    hits INTEGER NOT NULL,
    reset_at INTEGER NOT NULL,
    PRIMARY KEY (subject, window_ms, window_start)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX rate_limit_windows_expiry ON rate_limit_windows (reset_at);
  `,
  // UTM links and their short links (decision 0013). The slug is unique across dashboards: the redirect finds a
  // link by it alone, and the index settles a collision of two new slugs. A page of a dashboard walks
  // links_newest_first; a link is found by its id (the primary key), then checked against the dashboard.
  `
  CREATE TABLE links (
    id TEXT PRIMARY KEY NOT NULL,
    dashboard_id TEXT NOT NULL,
    slug TEXT NOT NULL UNIQUE,
    name TEXT,
    destination_url TEXT NOT NULL,
    utm_source TEXT NOT NULL,
    utm_medium TEXT NOT NULL,
    utm_campaign TEXT NOT NULL,
    utm_term TEXT,
    utm_content TEXT,
    utm_id TEXT,
    params TEXT NOT NULL,
    url TEXT NOT NULL,
    clicks INTEGER NOT NULL,
    created_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX links_newest_first ON links (dashboard_id, created_at DESC, id DESC);
  `,
  `
  -- Webhook endpoints (DECISIONS D12). \`events\` is a JSON array of event types, empty for all.
  CREATE TABLE webhook_endpoints (
    id TEXT PRIMARY KEY NOT NULL,
    dashboard_id TEXT NOT NULL,
    url TEXT NOT NULL,
    events TEXT NOT NULL,
    description TEXT,
    enabled INTEGER NOT NULL,
    disabled_reason TEXT,
    secret TEXT NOT NULL,
    previous_secret TEXT,
    previous_secret_expires_at INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    version INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX webhook_endpoints_of_dashboard ON webhook_endpoints (dashboard_id, created_at, id);

  -- One row per event and endpoint: the unique pair makes the relay idempotent. \`attempts\` is a JSON
  -- array; \`payload\` the reduced event of the log (JSON), \`body\` the bytes sent. A lease
  -- (\`lease_until\`, 0 when nobody holds it, and \`lease_id\`) is a claim on the due attempt.
  CREATE TABLE webhook_deliveries (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    dashboard_id TEXT NOT NULL,
    endpoint_id TEXT NOT NULL,
    event_id TEXT NOT NULL,
    event_type TEXT NOT NULL,
    status TEXT NOT NULL,
    attempts TEXT NOT NULL,
    next_attempt_at INTEGER,
    automatic_retries INTEGER NOT NULL,
    lease_until INTEGER NOT NULL,
    lease_id TEXT,
    created_at INTEGER NOT NULL,
    payload TEXT NOT NULL,
    body TEXT NOT NULL,
    UNIQUE (event_id, endpoint_id)
  ) STRICT;
  -- The due attempts, and only they: a claim walks this index from the longest due.
  CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
  CREATE INDEX webhook_deliveries_newest_first ON webhook_deliveries (endpoint_id, created_at DESC, id DESC);
  CREATE INDEX webhook_deliveries_by_status_newest_first ON webhook_deliveries (endpoint_id, status, created_at DESC, id DESC);
  CREATE INDEX webhook_deliveries_expiry ON webhook_deliveries (created_at);

  -- The relay takes events out of the outbox by id once it has made their deliveries.
  CREATE UNIQUE INDEX order_events_by_id ON order_events (id);
  `,
  REPORTS_MIGRATION,
  ACCOUNTS_MIGRATION,
  EVENT_FEED_MIGRATION,
  SOURCES_MIGRATION,
  ROLLUPS_IN_GROUP_COMMIT_MIGRATION,
  PROFIT_MIGRATION,
  COSTS_IN_ROLLUPS_MIGRATION,
  PRODUCTS_ROLLUP_MIGRATION,
  ADS_MIGRATION,
  CONVERSIONS_MIGRATION,
  PRODUCTS_BY_SKU_MIGRATION,
  // A claim of webhook deliveries goes endpoint by endpoint (sqlite-delivery-repository.ts): the
  // pending ones by endpoint and due time, in place of the pending ones by due time alone.
  `
  CREATE INDEX webhook_deliveries_due_by_endpoint ON webhook_deliveries (endpoint_id, next_attempt_at) WHERE status = 'pending';
  DROP INDEX webhook_deliveries_due;
  `,
];

/** Marks the file as this service's (`PRAGMA application_id`): "ORDS". */
export const APPLICATION_ID = 0x4f524453;

/** A file this version cannot use as it is: its message names the file and says what to do. */
export class SqliteFileError extends Error {
  override readonly name = 'SqliteFileError';
}

const pragmaNumber = (db: Database, name: string): number => db.pragma(name, { simple: true }) as number;

/**
 * Brings the file to the schema of `migrations`, each in a transaction of its own that also sets
 * `user_version`, so a crash between two leaves a file at a version it really has. Several processes
 * may start at once: BEGIN IMMEDIATE serialises them and the version is read again inside. A file of a
 * newer version, or one that holds another application's tables, is refused and left untouched.
 */
export const migrate = (db: Database, file: string, migrations: readonly string[] = MIGRATIONS): void => {
  const supported = migrations.length;
  for (;;) {
    const version = checkedVersion(db, file, supported);
    if (version === supported) return;
    db.transaction(() => {
      if (pragmaNumber(db, 'user_version') !== version) return;
      db.exec(migrations[version]);
      db.pragma(`application_id = ${APPLICATION_ID}`);
      db.pragma(`user_version = ${version + 1}`);
    }).immediate();
  }
};

/**
 * Writes the file's mark again, as it is, in a transaction: a file that cannot be written (read-only,
 * immutable) or a disk with no room left for the WAL stops the start here rather than failing the
 * first request that writes.
 */
export const probeWrite = (db: Database): void => {
  db.transaction(() => db.pragma(`application_id = ${APPLICATION_ID}`)).immediate();
};

const checkedVersion = (db: Database, file: string, supported: number): number => {
  const version = pragmaNumber(db, 'user_version');
  const applicationId = pragmaNumber(db, 'application_id');
  if (applicationId !== 0 && applicationId !== APPLICATION_ID) {
    throw new SqliteFileError(
      `SQLite file ${file} belongs to another application (application_id ${applicationId}); point SQLITE_PATH at another file`,
    );
  }
  if (version > supported) {
    throw new SqliteFileError(
      `SQLite file ${file} was written by a newer version of the orders service (schema version ${version}; this version supports up to ${supported}): run a newer version, or restore a backup made by this one`,
    );
  }
  if (version === 0 && applicationId === 0) {
    const tables = db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table'").get() as { n: number };
    if (tables.n > 0)
      throw new SqliteFileError(`SQLite file ${file} holds tables but no orders-service schema; point SQLITE_PATH at a new or empty file`);
  }
  return version;
};
