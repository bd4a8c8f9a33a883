import type { Db, IndexDescription } from 'mongodb';

export const COLLECTIONS = {
  orders: 'orders',
  dashboards: 'dashboards',
  tokens: 'tokens',
  idempotencyKeys: 'idempotency_keys',
  rateLimits: 'rate_limits',
} as const;

/**
 * Every index the adapters rely on, by collection, each with a fixed name. Listing indexes follow
 * the equality-sort-range rule: the equality keys (dashboard, status) first, then the sort keys
 * (createdAt, and `_id`, which is the order id, as the tie-breaker), the `createdAt` range last
 * because it rides on the sort key.
 */
export const INDEXES: Readonly<Record<keyof typeof COLLECTIONS, readonly IndexDescription[]>> = {
  orders: [
    { name: 'orders_dashboard_externalId_unique', key: { dashboardId: 1, externalId: 1 }, unique: true },
    { name: 'orders_dashboard_createdAt_id', key: { dashboardId: 1, createdAt: -1, _id: -1 } },
    { name: 'orders_dashboard_status_createdAt_id', key: { dashboardId: 1, status: 1, createdAt: -1, _id: -1 } },
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
};

/**
 * Creates the indexes, then checks that each exists as declared. Idempotent: creating an index whose
 * name and definition already exist does nothing. An existing index with the same name but another
 * definition fails the start-up, on purpose: silently keeping the wrong one (say, not unique) would
 * break the ports' guarantees. MongoDB refuses such a `createIndexes` itself; FerretDB 1.24 answers
 * ok and keeps the old index, hence the check. One index per command: FerretDB 1.24 drops the
 * connection when one command names two or more indexes that all exist already
 * (docs/ferretdb-notes.md).
 */
export const ensureIndexes = async (db: Db): Promise<void> => {
  for (const [key, indexes] of Object.entries(INDEXES) as [keyof typeof COLLECTIONS, readonly IndexDescription[]][]) {
    if (indexes.length === 0) continue;
    const collection = db.collection(COLLECTIONS[key]);
    for (const index of indexes) await collection.createIndexes([index]);
    const existing = await collection.listIndexes().toArray();
    for (const index of indexes) {
      const found = existing.find((candidate) => candidate['name'] === index.name);
      const sameKeys = found !== undefined && JSON.stringify(Object.entries(found['key'])) === JSON.stringify(Object.entries(index.key));
      if (
        !sameKeys ||
        (found?.['unique'] === true) !== (index.unique === true) ||
        found?.['expireAfterSeconds'] !== index.expireAfterSeconds
      ) {
        throw new Error(
          `index ${COLLECTIONS[key]}.${String(index.name)} exists with another definition than this service needs; drop it and start again`,
        );
      }
    }
  }
};
