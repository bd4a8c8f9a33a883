import type { Db, IndexDescription } from 'mongodb';

/**
 * The collections: one per aggregate (orders with their outbox, dashboards, tokens, links, webhook
 * endpoints, webhook deliveries) and one per guard (idempotency records, rate-limit counters), plus
 * `meta` for the schema version. No write spans two documents, so none needs a transaction, and
 * each collection can be sharded on its own.
 * The shard key of each, for a deployment that shards, is in docs/mongodb-notes.md.
 */
export const COLLECTIONS = {
  orders: 'orders',
  dashboards: 'dashboards',
  tokens: 'tokens',
  idempotencyKeys: 'idempotency_keys',
  rateLimits: 'rate_limits',
  links: 'links',
  webhookEndpoints: 'webhook_endpoints',
  webhookDeliveries: 'webhook_deliveries',
  meta: 'meta',
  reportCells: 'report_cells',
  reportState: 'report_state',
  spend: 'spend',
  productCosts: 'product_costs',
  users: 'users',
  memberships: 'memberships',
  invitations: 'invitations',
  sessions: 'sessions',
  eventFeed: 'event_feed',
  sources: 'sources',
  sourceDeliveries: 'source_deliveries',
  adAccounts: 'ad_accounts',
  conversionDeliveries: 'conversion_deliveries',
} as const;

/** The unique (eventId, adAccountId) index of conversion deliveries, named where its refusals are told apart from others. */
export const EVENT_AD_ACCOUNT_INDEX = 'conversion_deliveries_event_adAccount_unique';

/** The unique (eventId, endpointId) index of deliveries, named where its refusals are told apart from others. */
export const EVENT_ENDPOINT_INDEX = 'webhook_deliveries_event_endpoint_unique';

/**
 * Every index the adapters rely on, by collection, each with a fixed name. Listing indexes follow
 * the equality-sort-range rule: the equality keys (dashboard, status) first, then the sort keys
 * (createdAt, and `_id`, which is the order id, as the tie-breaker), the `createdAt` range last
 * because it rides on the sort key. TTL indexes (`expireAfterSeconds: 0`) let the server delete a
 * document once its `expiresAt` has passed; its monitor runs about once a minute, so the adapters
 * treat an expired document as absent until then.
 */
export const INDEXES: Readonly<Record<keyof typeof COLLECTIONS, readonly IndexDescription[]>> = {
  orders: [
    { name: 'orders_dashboard_externalId_unique', key: { dashboardId: 1, externalId: 1 }, unique: true },
    { name: 'orders_dashboard_createdAt_id', key: { dashboardId: 1, createdAt: -1, _id: -1 } },
    { name: 'orders_dashboard_status_createdAt_id', key: { dashboardId: 1, status: 1, createdAt: -1, _id: -1 } },
    // Only the orders the report rollup has not counted as they are: what it, and a report, look for.
    { name: 'orders_report_dirty', key: { dashboardId: 1, createdAt: 1 }, partialFilterExpression: { reportDirty: true } },
    // Only the orders whose outbox holds events: what the webhook relay looks for.
    { name: 'orders_outbox_pending', key: { 'outbox.id': 1 }, partialFilterExpression: { 'outbox.id': { $exists: true } } },
  ],
  dashboards: [{ name: 'dashboards_createdAt_id', key: { createdAt: 1, _id: 1 } }],
  tokens: [
    { name: 'tokens_hash_unique', key: { hash: 1 }, unique: true },
    { name: 'tokens_dashboard_createdAt_id', key: { dashboardId: 1, createdAt: 1, _id: 1 } },
  ],
  // One record per (dashboard, key); the server deletes it once `expiresAt` has passed.
  idempotencyKeys: [
    { name: 'idempotency_keys_dashboard_key_unique', key: { dashboardId: 1, key: 1 }, unique: true },
    { name: 'idempotency_keys_expiresAt_ttl', key: { expiresAt: 1 }, expireAfterSeconds: 0 },
  ],
  // Counters are found by `_id`; the server deletes them once `expiresAt` has passed.
  rateLimits: [{ name: 'rate_limits_expiresAt_ttl', key: { expiresAt: 1 }, expireAfterSeconds: 0 }],
  // The redirect finds a link by its slug, unique across dashboards; a dashboard's page walks the second.
  links: [
    { name: 'links_slug_unique', key: { slug: 1 }, unique: true },
    { name: 'links_dashboard_createdAt_id', key: { dashboardId: 1, createdAt: -1, _id: -1 } },
  ],
  // At most 20 endpoints per dashboard: each takes one of 20 slots, and the unique index refuses a 21st.
  webhookEndpoints: [{ name: 'webhook_endpoints_dashboard_slot_unique', key: { dashboardId: 1, slot: 1 }, unique: true }],
  webhookDeliveries: [
    // One delivery per event and endpoint, whoever relays the event, however many times.
    { name: EVENT_ENDPOINT_INDEX, key: { eventId: 1, endpointId: 1 }, unique: true },
    { name: 'webhook_deliveries_status_nextAttemptAt', key: { status: 1, nextAttemptAt: 1 } },
    { name: 'webhook_deliveries_endpoint_createdAt_id', key: { endpointId: 1, createdAt: -1, _id: -1 } },
    { name: 'webhook_deliveries_endpoint_status_createdAt_id', key: { endpointId: 1, status: 1, createdAt: -1, _id: -1 } },
    // Deleted by the server 30 days after they were made.
    { name: 'webhook_deliveries_expiresAt_ttl', key: { expiresAt: 1 }, expireAfterSeconds: 0 },
  ],
  // One document, found by `_id`.
  meta: [],
  // A report reads a projection's cells of one grain over a range of periods; a recomputation replaces a day's.
  reportCells: [
    { name: 'report_cells_dashboard_proj_grain_start', key: { dashboardId: 1, proj: 1, grain: 1, start: 1 } },
    { name: 'report_cells_dashboard_day', key: { dashboardId: 1, day: 1 } },
  ],
  // The rollup's lease on each dashboard (`_id` the dashboard id), the record of the first count of older
  // orders, and each month's state: a report looks for a dashboard's stale months, the rollup for all of them.
  reportState: [
    { name: 'report_state_until', key: { until: 1 } },
    { name: 'report_state_dashboard_month', key: { dashboardId: 1, month: 1 }, partialFilterExpression: { month: { $exists: true } } },
    { name: 'report_state_staleSince', key: { staleSince: 1 }, partialFilterExpression: { staleSince: { $exists: true } } },
  ],
  spend: [
    { name: 'spend_dashboard_date', key: { dashboardId: 1, date: -1 } },
    // An ad account's rows of a day: what its sync replaces.
    {
      name: 'spend_dashboard_adAccount_date',
      key: { dashboardId: 1, adAccount: 1, date: 1 },
      partialFilterExpression: { adAccount: { $exists: true } },
    },
  ],
  // The listing's order (`order`: product, currency, from as ASCII), and the same within one currency.
  productCosts: [
    { name: 'product_costs_dashboard_order', key: { dashboardId: 1, order: 1 } },
    { name: 'product_costs_dashboard_currency_order', key: { dashboardId: 1, currency: 1, order: 1 } },
  ],
  // Emails are stored lower-cased, so the unique index compares them case-insensitively.
  users: [
    { name: 'users_email_unique', key: { email: 1 }, unique: true },
    { name: 'users_createdAt_id', key: { createdAt: 1, _id: 1 } },
  ],
  // `_id` is `<userId> <dashboardId>`: one membership per pair.
  memberships: [
    { name: 'memberships_user_createdAt', key: { userId: 1, createdAt: 1 } },
    { name: 'memberships_dashboard_createdAt', key: { dashboardId: 1, createdAt: 1 } },
  ],
  invitations: [
    { name: 'invitations_tokenHash_unique', key: { tokenHash: 1 }, unique: true },
    { name: 'invitations_dashboard_createdAt_id', key: { dashboardId: 1, createdAt: -1, _id: -1 } },
  ],
  // `_id` is the session id's hash.
  sessions: [{ name: 'sessions_user', key: { userId: 1 } }],
  // The feed's order within a dashboard (and a type); an order's last key; the server's 30-day expiry.
  eventFeed: [
    { name: 'event_feed_dashboard_key_id', key: { dashboardId: 1, key: 1, _id: 1 } },
    { name: 'event_feed_dashboard_type_key_id', key: { dashboardId: 1, type: 1, key: 1, _id: 1 } },
    { name: 'event_feed_order_key', key: { orderId: 1, key: -1 } },
    { name: 'event_feed_expiresAt_ttl', key: { expiresAt: 1 }, expireAfterSeconds: 0 },
  ],
  // A delivery finds its source by `_id`; each source of a dashboard takes one slot, and the unique index refuses one beyond the limit.
  sources: [{ name: 'sources_dashboard_slot_unique', key: { dashboardId: 1, slot: 1 }, unique: true }],
  // One document per source (`_id` the source id), holding its log.
  sourceDeliveries: [],
  // A dashboard's accounts take one slot each and one copy of a platform account; the syncs claim the longest due.
  adAccounts: [
    { name: 'ad_accounts_dashboard_slot_unique', key: { dashboardId: 1, slot: 1 }, unique: true },
    { name: 'ad_accounts_dashboard_platform_account_unique', key: { dashboardId: 1, platform: 1, accountId: 1 }, unique: true },
    { name: 'ad_accounts_nextSyncAt', key: { nextSyncAt: 1 } },
  ],
  conversionDeliveries: [
    // One delivery per order event and ad account, whoever relays the event, however many times.
    { name: EVENT_AD_ACCOUNT_INDEX, key: { eventId: 1, adAccountId: 1 }, unique: true },
    { name: 'conversion_deliveries_status_nextAttemptAt', key: { status: 1, nextAttemptAt: 1 } },
    { name: 'conversion_deliveries_adAccount_createdAt_id', key: { adAccountId: 1, createdAt: -1, _id: -1 } },
    { name: 'conversion_deliveries_adAccount_status_createdAt_id', key: { adAccountId: 1, status: 1, createdAt: -1, _id: -1 } },
    // A refund finds the purchase it takes back.
    { name: 'conversion_deliveries_adAccount_order_kind', key: { adAccountId: 1, 'conversion.orderId': 1, 'conversion.kind': 1 } },
    // Deleted by the server 30 days after they were made.
    { name: 'conversion_deliveries_expiresAt_ttl', key: { expiresAt: 1 }, expireAfterSeconds: 0 },
  ],
};

/**
 * Creates the indexes and reads them back. Idempotent; an index of the same name with another
 * definition fails the start-up on purpose, since the ports' guarantees rest on these indexes (a
 * unique key, a TTL) and a server could keep the old one without a word.
 */
export const ensureIndexes = async (db: Db): Promise<void> => {
  for (const [name, indexes] of Object.entries(INDEXES) as [keyof typeof COLLECTIONS, readonly IndexDescription[]][]) {
    if (indexes.length === 0) continue;
    const collection = db.collection(COLLECTIONS[name]);
    await collection.createIndexes([...indexes]);
    const existing = (await collection.listIndexes().toArray()) as Record<string, unknown>[];
    for (const index of indexes) {
      const sameName = existing.filter((candidate) => candidate['name'] === index.name);
      const asDeclared = (found: (typeof existing)[number]): boolean =>
        JSON.stringify(Object.entries(found['key'] as object)) === JSON.stringify(Object.entries(index.key)) &&
        (found['unique'] === true) === (index.unique === true) &&
        found['expireAfterSeconds'] === index.expireAfterSeconds &&
        JSON.stringify(found['partialFilterExpression']) === JSON.stringify(index.partialFilterExpression);
      if (sameName.length === 0 || !sameName.every(asDeclared)) {
        throw new Error(
          `index ${COLLECTIONS[name]}.${String(index.name)} exists with another definition than this service needs; drop it and start again`,
        );
      }
    }
  }
};
