import { expect } from 'chai';
import { listingParams, listingSql, type ListingShape } from '../../../src/adapters/sqlite/orders/order-listing';
import { SqliteDatabase } from '../../../src/adapters/sqlite/sqlite-database';
import { LINK_SQL } from '../../../src/adapters/sqlite/links/sqlite-link-repository';
import { DELIVERY_CLAIM_SQL } from '../../../src/adapters/sqlite/webhooks/sqlite-delivery-repository';
import { sqliteStorageOn } from '../../../src/adapters/sqlite/sqlite-storage';
import type { OrderQuery } from '../../../src/application/ports/order-repository';
import { ORDER_STATUSES } from '../../../src/domain/order-status';
import { memoryLogger } from '../../support/memory-log';
import { anOrder } from '../../support/order-builder';
import { temporaryFolder, temporarySqliteDatabase } from '../../support/sqlite-files';

const SHAPES: ListingShape[] = [false, true].flatMap((status) =>
  [false, true].flatMap((from) => [false, true].map((to) => ({ status, from, to }))),
);

const queryOf = (shape: ListingShape): OrderQuery => ({
  page: 3,
  pageSize: 20,
  ...(shape.status ? { status: 'paid' } : {}),
  ...(shape.from ? { from: new Date('2026-01-01T00:00:00Z') } : {}),
  ...(shape.to ? { to: new Date('2026-02-01T00:00:00Z') } : {}),
});

const describeShape = (shape: ListingShape): string =>
  [shape.status ? 'status' : '', shape.from ? 'from' : '', shape.to ? 'to' : ''].filter(Boolean).join(' + ') || 'no filter';

/**
 * The listing reads through its indexes (decision 0015): for every combination of filters, the page is
 * a SEARCH of the listing index that walks it in order (no scan of the table, no sort in a temporary
 * B-tree), and the total is read from `order_counts` or counted on the covering index.
 */
describe('SQLite listing query plans', () => {
  let folder: ReturnType<typeof temporaryFolder>;
  let db: SqliteDatabase;

  before(async () => {
    folder = temporaryFolder();
    db = SqliteDatabase.open({ path: folder.path });
    const orders = sqliteStorageOn(db, memoryLogger().logger).orders;
    await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        orders.insert(
          anOrder()
            .inDashboard(`dsh_${i % 3}`)
            .withStatus(ORDER_STATUSES[i % ORDER_STATUSES.length])
            .createdAt(new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString())
            .build(),
          [],
        ),
      ),
    );
  });
  after(async () => {
    await db.close();
    folder.remove();
  });

  const planOf = (sql: string, params: Record<string, unknown>): string =>
    (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[]).map((row) => row.detail).join(' | ');

  for (const shape of SHAPES) {
    it(`pages and counts through the indexes with ${describeShape(shape)}`, () => {
      const sql = listingSql(shape);
      const { filters, limit, offset } = listingParams('dsh_1', queryOf(shape));
      const index = shape.status ? 'orders_by_status_newest_first' : 'orders_newest_first';
      const equalities = shape.status ? 'dashboard_id=? AND status=?' : 'dashboard_id=?';
      const range =
        shape.from && shape.to
          ? ' AND created_at>? AND created_at<?'
          : shape.from
            ? ' AND created_at>?'
            : shape.to
              ? ' AND created_at<?'
              : '';

      const page = planOf(sql.page, { ...filters, limit, offset });
      expect(page).to.equal(`SEARCH orders USING INDEX ${index} (${equalities}${range})`);

      const count = planOf(sql.count, filters);
      if (shape.from || shape.to) expect(count).to.equal(`SEARCH orders USING COVERING INDEX ${index} (${equalities}${range})`);
      else expect(count).to.equal(`SEARCH order_counts USING PRIMARY KEY (${equalities})`);
    });
  }
});

/** The links' statements read through their indexes: none scans the table or sorts. */
describe('SQLite link query plans', () => {
  let folder: ReturnType<typeof temporaryFolder>;
  let db: SqliteDatabase;

  before(() => {
    folder = temporaryFolder();
    db = SqliteDatabase.open({ path: folder.path });
  });
  after(async () => {
    await db.close();
    folder.remove();
  });

  const planOf = (sql: string): string =>
    (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...Array<string>((sql.match(/\?/g) ?? []).length).fill('x')) as { detail: string }[])
      .map((row) => row.detail)
      .join(' | ');

  const cases: [string, string, string][] = [
    ['a link by its id', LINK_SQL.byId, 'SEARCH links USING INDEX sqlite_autoindex_links_1 (id=?)'],
    ['a page of the dashboard, in order', LINK_SQL.page, 'SEARCH links USING INDEX links_newest_first (dashboard_id=?)'],
    ["the dashboard's total", LINK_SQL.count, 'SEARCH links USING COVERING INDEX links_newest_first (dashboard_id=?)'],
    ['a link by its slug', LINK_SQL.bySlug, 'SEARCH links USING INDEX sqlite_autoindex_links_2 (slug=?)'],
    ['the look-up of a slug', LINK_SQL.slugExists, 'SEARCH links USING COVERING INDEX sqlite_autoindex_links_2 (slug=?)'],
    ['the click', LINK_SQL.click, 'SEARCH links USING INDEX sqlite_autoindex_links_2 (slug=?)'],
    ['a deletion', LINK_SQL.delete, 'SEARCH links USING INDEX sqlite_autoindex_links_1 (id=?)'],
  ];
  for (const [name, sql, plan] of cases) {
    it(`finds ${name} through an index`, () => {
      expect(planOf(sql)).to.equal(plan);
    });
  }
});

/**
 * A claim of webhook deliveries seeks each endpoint with pending deliveries in the index of the pending
 * ones by endpoint and due time (the first endpoint of all is a SEARCH without a term: min() reads the
 * index's first entry): no step of it scans the deliveries, however many one endpoint has.
 */
describe('SQLite webhook claim query plans', () => {
  let db: SqliteDatabase;
  let close: () => Promise<void>;

  before(() => ({ db, close } = temporarySqliteDatabase()));
  after(() => close());

  const params = { now: 0, limit: 1, skipEndpoints: '[]', skipDashboards: '[]', endpoint: 'whk_x' };
  const planOf = (sql: string): string[] =>
    (
      db
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all(Object.fromEntries(Object.entries(params).filter(([name]) => sql.includes(`@${name}`)))) as {
        detail: string;
      }[]
    ).map((row) => row.detail);

  for (const [name, sql] of Object.entries(DELIVERY_CLAIM_SQL)) {
    it(`reads ${name} through the index of pending deliveries by endpoint, scanning none`, () => {
      const plan = planOf(sql);
      const reads = plan.filter((step) => step.includes('webhook_deliveries'));
      expect(reads).to.not.be.empty;
      for (const step of reads)
        expect(step).to.match(
          /^SEARCH webhook_deliveries USING (COVERING )?INDEX webhook_deliveries_due_by_endpoint( \(endpoint_id[=>]|$)/,
        );
    });
  }
});
