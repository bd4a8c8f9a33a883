import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import { COSTS_IN_ROLLUPS_MIGRATION } from '../../../src/adapters/sqlite/reports/report-schema';
import { CHUNK_MOVES, CHUNK_ROWS } from '../../../src/adapters/sqlite/reports/rollup-costs';
import { SqliteDatabase } from '../../../src/adapters/sqlite/sqlite-database';
import { sqliteStorageOn } from '../../../src/adapters/sqlite/sqlite-storage';
import type { Storage } from '../../../src/application/ports/storage';
import type { Dashboard } from '../../../src/domain/dashboard';
import type { Order } from '../../../src/domain/order';
import { ORDER_STATUSES } from '../../../src/domain/order-status';
import { random } from '../../contract/report-reader.contract';
import { memoryLogger } from '../../support/memory-log';
import { anOrder } from '../../support/order-builder';
import { afterMigrationJobs, repricingDone, rollupsAndRebuild } from '../../support/rollup-tables';
import { aFileBefore, temporaryFolder } from '../../support/sqlite-files';

const dashboard = (id: string, timezone: string): Dashboard => ({ id, name: id, timezone, taxRate: 0, createdAt: new Date(0) });

/** The cost sums of report_totals' day rows of the dashboard: [start, currency, product_cost_cents, uncosted_units]. */
const dayCosts = (db: { prepare: SqliteDatabase['prepare'] }, dashboardId: string): unknown[][] =>
  db
    .prepare(
      `SELECT start, currency, product_cost_cents, uncosted_units FROM report_totals
       WHERE dashboard_id = ? AND grain = 'd' AND (product_cost_cents <> 0 OR uncosted_units <> 0) ORDER BY start, currency`,
    )
    .raw()
    .all(dashboardId) as unknown[][];

/**
 * The costs the rollups keep (rollup-costs.ts): every order at today's prices, moved when a cost
 * upload, a change of time zone or a rebuild changes them; each time equal to a rebuild that prices
 * every order again from the orders and the costs.
 */
for (const [mode, repriceInlineMax] of [
  ["moved in the change's write", 1_000_000],
  ['moved by re-pricing jobs', 0],
] as const)
  describe(`SQLite rollups: costs at today prices, ${mode}`, () => {
    let folder: ReturnType<typeof temporaryFolder>;
    let storage: Storage;
    let db: SqliteDatabase;

    beforeEach(() => {
      folder = temporaryFolder();
      db = SqliteDatabase.open({ path: folder.path, repriceInlineMax });
      storage = sqliteStorageOn(db, memoryLogger().logger);
    });
    afterEach(async () => {
      await db.close();
      folder.remove();
    });

    /** The day rows' costs once every job has ended. */
    const dayCostsSettled = async (dashboardId: string): Promise<unknown[][]> => {
      await repricingDone(folder.path);
      return dayCosts(db, dashboardId);
    };

    const expectRollupsToMatchTheOrders = async (): Promise<void> => {
      await repricingDone(folder.path);
      const { kept, rebuilt } = rollupsAndRebuild(folder.path, folder.dir);
      expect(kept).to.deep.equal(rebuilt);
    };

    it('prices a paid order as it is written, moves it when its status changes and when a cost of its day is set', async () => {
      await storage.dashboards.insert(dashboard('dsh_a', 'UTC'));
      await storage.productCosts.put('dsh_a', [{ product: 'p-1', currency: 'BRL', unitCostCents: 700, from: '2026-03-01' }]);
      const order = anOrder()
        .inDashboard('dsh_a')
        .paid()
        .with({ createdAt: new Date(Date.UTC(2026, 2, 2, 10)) })
        .build();
      expect(E.isRight(await storage.orders.insert(order, []))).to.equal(true);
      const day = Date.UTC(2026, 2, 2);
      // The builder's line: p-1, 2 units.
      expect(await dayCostsSettled('dsh_a')).to.deep.equal([[day, 'BRL', 1_400, 0]]);
      await storage.productCosts.put('dsh_a', [{ product: 'p-1', currency: 'BRL', unitCostCents: 900, from: '2026-03-02' }]);
      expect(await dayCostsSettled('dsh_a')).to.deep.equal([[day, 'BRL', 1_800, 0]]);
      await storage.productCosts.put('dsh_a', [{ product: 'p-1', currency: 'BRL', unitCostCents: 1, from: '2026-03-03' }]);
      expect(await dayCostsSettled('dsh_a'), 'a cost from a later day').to.deep.equal([[day, 'BRL', 1_800, 0]]);
      expect(await storage.orders.replace({ ...order, status: 'refunded', version: order.version + 1 }, [])).to.equal(true);
      expect(await dayCostsSettled('dsh_a'), 'no longer paid').to.deep.equal([]);
      await expectRollupsToMatchTheOrders();
    });

    it("moves each product's cost in report_products, even when a change leaves the order's total as it was", async () => {
      await storage.dashboards.insert(dashboard('dsh_a', 'UTC'));
      await storage.productCosts.put('dsh_a', [
        { product: 'p-1', currency: 'BRL', unitCostCents: 100, from: '2026-03-01' },
        { product: 'p-2', currency: 'BRL', unitCostCents: 200, from: '2026-03-01' },
      ]);
      const line = (product: string) => ({ externalId: product, name: product, quantity: 1, unitPriceCents: 1_000 });
      const order = anOrder()
        .inDashboard('dsh_a')
        .paid()
        .with({ createdAt: new Date(Date.UTC(2026, 2, 2, 10)), products: [line('p-1'), line('p-2'), line('p-3')] })
        .build();
      await storage.orders.insert(order, []);
      const productCosts = async () => {
        await repricingDone(folder.path);
        return db
          .prepare(`SELECT product, product_cost_cents, uncosted_units FROM report_products WHERE grain = 'm' ORDER BY product`)
          .raw()
          .all();
      };
      expect(await productCosts()).to.deep.equal([
        ['p-1', 100, 0],
        ['p-2', 200, 0],
        ['p-3', 0, 1],
      ]);
      // The order costs 300 before and after.
      await storage.productCosts.put('dsh_a', [
        { product: 'p-1', currency: 'BRL', unitCostCents: 200, from: '2026-03-01' },
        { product: 'p-2', currency: 'BRL', unitCostCents: 100, from: '2026-03-01' },
      ]);
      expect(await productCosts()).to.deep.equal([
        ['p-1', 200, 0],
        ['p-2', 100, 0],
        ['p-3', 0, 1],
      ]);
      await expectRollupsToMatchTheOrders();
    });

    it('moves the orders between a day start in the old zone and in the new one when the time zone changes', async () => {
      await storage.dashboards.insert(dashboard('dsh_a', 'UTC'));
      await storage.productCosts.put('dsh_a', [
        { product: 'p-1', currency: 'BRL', unitCostCents: 100, from: '2026-03-01' },
        { product: 'p-1', currency: 'BRL', unitCostCents: 300, from: '2026-03-02' },
      ]);
      // 2026-03-02T01:00Z: on the 2nd in UTC (300), on the 1st in São Paulo (-03:00, 100).
      const order = anOrder()
        .inDashboard('dsh_a')
        .paid()
        .with({ createdAt: new Date(Date.UTC(2026, 2, 2, 1)) })
        .build();
      await storage.orders.insert(order, []);
      expect(await dayCostsSettled('dsh_a')).to.deep.equal([[Date.UTC(2026, 2, 2), 'BRL', 600, 0]]);
      await storage.dashboards.update(dashboard('dsh_a', 'America/Sao_Paulo'));
      expect(await dayCostsSettled('dsh_a')).to.deep.equal([[Date.UTC(2026, 2, 2), 'BRL', 200, 0]]);
      await expectRollupsToMatchTheOrders();
    });

    it('keeps every rollup equal to a rebuild after random orders, status changes, cost uploads and zone changes on two dashboards', async () => {
      const next = random(91);
      const pick = <A>(values: readonly A[]): A => values[Math.floor(next() * values.length)];
      const zones = ['UTC', 'Asia/Kathmandu', 'America/Sao_Paulo', 'Asia/Kolkata'];
      const dashboards = ['dsh_a', 'dsh_b'];
      for (const id of dashboards) await storage.dashboards.insert(dashboard(id, pick(zones)));
      const products = ['p-1', 'p-2', 'p-3', 'SKU-9'];
      const skus = ['S-1', 'S-2', 'p-2'];
      const current = new Map<string, Order>();
      let serial = 0;
      const day = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
      for (let round = 0; round < 10; round++) {
        const writes: Promise<unknown>[] = [];
        for (let w = 0; w < 40; w++) {
          const roll = next();
          const known = [...current.keys()];
          if (roll < 0.5 || known.length === 0) {
            serial += 1;
            const order = anOrder()
              .inDashboard(pick(dashboards))
              .withExternalId(`o-${serial}`)
              .with({
                status: pick(ORDER_STATUSES),
                createdAt: new Date(Date.UTC(2026, 0, 1) + Math.floor(next() * 20 * 86_400_000)),
                amounts: { ...anOrder().build().amounts, currency: pick(['BRL', 'USD']) },
                products: Array.from({ length: 1 + Math.floor(next() * 3) }, (_, i) => ({
                  // By externalId, by SKU, or by a SKU and another externalId (whose costs price the line where the SKU has none).
                  ...pick([{ externalId: pick(products) }, { sku: pick(products) }, { externalId: pick(products), sku: pick(skus) }]),
                  name: `line ${i}`,
                  quantity: 1 + Math.floor(next() * 4),
                  unitPriceCents: 1_000,
                })),
              })
              .build();
            writes.push(storage.orders.insert(order, []).then((r) => E.isRight(r) && current.set(order.externalId, order)));
          } else if (roll < 0.8) {
            const base = current.get(pick(known))!;
            const changed = { ...base, status: pick(ORDER_STATUSES), version: base.version + 1 };
            current.set(base.externalId, changed);
            writes.push(storage.orders.replace(changed, []));
          } else if (roll < 0.95) {
            const entries = Array.from({ length: 1 + Math.floor(next() * 3) }, () => ({
              product: pick([...products, ...skus]),
              currency: pick(['BRL', 'USD']),
              unitCostCents: Math.floor(next() * 5_000),
              from: day(Math.floor(next() * 20)),
            }));
            writes.push(storage.productCosts.put(pick(dashboards), entries));
          } else {
            writes.push(storage.dashboards.update(dashboard(pick(dashboards), pick(zones))));
          }
        }
        await Promise.all(writes);
        await expectRollupsToMatchTheOrders();
      }
      expect((await dayCostsSettled('dsh_a')).length + (await dayCostsSettled('dsh_b')).length).to.be.greaterThan(10);
    });

    it('answers reports exact while a job has still to move orders, and the writes meanwhile keep the rollups right', async () => {
      await storage.dashboards.insert(dashboard('dsh_a', 'UTC'));
      const at = (day: number) => new Date(Date.UTC(2026, 2, day, 12));
      const orders = [1, 2, 3, 4].map((day) =>
        anOrder()
          .inDashboard('dsh_a')
          .withExternalId(`o-${day}`)
          .with({ status: day === 4 ? 'pending' : 'paid', createdAt: at(day) })
          .build(),
      );
      for (const order of orders) await storage.orders.insert(order, []);
      await db.repricing.stop();
      await storage.productCosts.put('dsh_a', [{ product: 'p-1', currency: 'BRL', unitCostCents: 100, from: '2026-03-02' }]);
      const jobs = db.prepare('SELECT count(*) FROM reprice_jobs').pluck().get() as number;
      expect(jobs).to.equal(repriceInlineMax === 0 ? 1 : 0);
      // Meanwhile: one order leaves paid, one becomes paid, a new one is paid (2 units of p-1 each).
      await storage.orders.replace({ ...orders[1], status: 'refunded', version: orders[1].version + 1 }, []);
      await storage.orders.replace({ ...orders[3], status: 'paid', version: orders[3].version + 1 }, []);
      await storage.orders.insert(
        anOrder()
          .inDashboard('dsh_a')
          .withExternalId('o-5')
          .paid()
          .with({ createdAt: at(5) })
          .build(),
        [],
      );
      const query = {
        buckets: [{ start: Date.UTC(2026, 2, 1), end: Date.UTC(2026, 2, 6) }],
        by: [],
        model: 'last' as const,
        isTest: undefined,
        filters: {},
        costZone: 'UTC',
      };
      // Paid now: o-1 (before the cost: uncosted), o-3, o-4, o-5 (costed: 3 × 2 × 100).
      const expected = { productCostCents: 600, uncostedUnits: 2 };
      const costs = async () =>
        (await storage.reports.cells('dsh_a', query)).map(({ productCostCents, uncostedUnits }) => ({ productCostCents, uncostedUnits }));
      expect(await costs(), 'while the job waits').to.deep.equal([expected]);
      db.repricing.start();
      expect(await dayCostsSettled('dsh_a')).to.deep.equal([
        [Date.UTC(2026, 2, 1), 'BRL', 0, 2],
        [Date.UTC(2026, 2, 3), 'BRL', 200, 0],
        [Date.UTC(2026, 2, 4), 'BRL', 200, 0],
        [Date.UTC(2026, 2, 5), 'BRL', 200, 0],
      ]);
      expect(await costs(), 'once it has ended').to.deep.equal([expected]);
      await expectRollupsToMatchTheOrders();
    });

    it('leaves the slices of a file to jobs however few the orders, which one pass carries out, and prices as a rebuild does', async () => {
      await storage.dashboards.insert(dashboard('dsh_a', 'UTC'));
      for (const day of [1, 2, 3])
        await storage.orders.insert(
          anOrder()
            .inDashboard('dsh_a')
            .withExternalId(`s-${day}`)
            .paid()
            .with({ createdAt: new Date(Date.UTC(2026, 2, day, 12)) })
            .build(),
          [],
        );
      await db.repricing.stop();
      // Three slices of one file: two products nobody sold, then the one sold (the builder's line: p-1, 2 units).
      await storage.productCosts.put('dsh_a', [{ product: 'p-9', currency: 'BRL', unitCostCents: 50, from: '2026-01-01' }], true);
      await storage.productCosts.put('dsh_a', [{ product: 'p-8', currency: 'BRL', unitCostCents: 60, from: '2026-01-01' }], true);
      await storage.productCosts.put('dsh_a', [{ product: 'p-1', currency: 'BRL', unitCostCents: 300, from: '2026-03-02' }], true);
      expect(db.prepare('SELECT count(*) FROM reprice_jobs').pluck().get(), 'a job per slice').to.equal(3);
      db.repricing.start();
      expect(await dayCostsSettled('dsh_a')).to.deep.equal([
        [Date.UTC(2026, 2, 1), 'BRL', 0, 2],
        [Date.UTC(2026, 2, 2), 'BRL', 600, 0],
        [Date.UTC(2026, 2, 3), 'BRL', 600, 0],
      ]);
      await expectRollupsToMatchTheOrders();
    });

    it('moves a dashboard of many paid orders in several chunks, beside another dashboard whose orders it skips', async () => {
      await storage.dashboards.insert(dashboard('dsh_a', 'Asia/Kolkata'));
      const writes = Array.from({ length: 2 * CHUNK_MOVES + 50 }, (_, i) =>
        storage.orders.insert(
          anOrder()
            .inDashboard(i % 5 === 0 ? 'dsh_b' : 'dsh_a')
            .withExternalId(`many-${i}`)
            .paid()
            .with({ createdAt: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000) })
            .build(),
          [],
        ),
      );
      await Promise.all(writes);
      await storage.productCosts.put('dsh_a', [{ product: 'p-1', currency: 'BRL', unitCostCents: 10, from: '2026-01-02' }]);
      await storage.productCosts.put('dsh_b', [{ product: 'p-1', currency: 'BRL', unitCostCents: 7, from: '2025-12-01' }]);
      await expectRollupsToMatchTheOrders();
      const total = db.prepare("SELECT sum(product_cost_cents) FROM report_totals WHERE grain = 'm' AND dashboard_id = ?").pluck();
      // dsh_a: its paid orders from 2026-01-02 in Kolkata (18:30 UTC on the 1st) on, 2 units of 10 each.
      const costedA = Array.from({ length: 2 * CHUNK_MOVES + 50 }, (_, i) => i).filter(
        (i) => i % 5 !== 0 && Date.UTC(2026, 0, 1) + i * 3_600_000 >= Date.UTC(2026, 0, 1, 18, 30),
      ).length;
      expect(total.get('dsh_a')).to.equal(costedA * 20);
      expect(total.get('dsh_b')).to.equal(((2 * CHUNK_MOVES + 50) / 5) * 14);
    });

    it('prices again what it rebuilds when `reports rebuild` runs', async () => {
      await storage.dashboards.insert(dashboard('dsh_a', 'Asia/Kathmandu'));
      await storage.productCosts.put('dsh_a', [{ product: 'p-1', currency: 'BRL', unitCostCents: 250, from: '2026-01-01' }]);
      await storage.orders.insert(
        anOrder()
          .inDashboard('dsh_a')
          .paid()
          .with({ createdAt: new Date(Date.UTC(2026, 1, 1)) })
          .build(),
        [],
      );
      const before = await dayCostsSettled('dsh_a');
      const products = db.prepare("SELECT product, product_cost_cents, name, name_stale FROM report_products WHERE grain = 'd'").raw();
      const productsBefore = products.all();
      db.prepare('UPDATE report_totals SET product_cost_cents = 0').run();
      db.prepare("UPDATE report_products SET product_cost_cents = 0, name = 'wrong', name_stale = 1").run();
      await storage.reports.rebuild();
      expect(await dayCostsSettled('dsh_a')).to.deep.equal(before);
      expect(before).to.deep.equal([[Date.UTC(2026, 1, 1), 'BRL', 500, 0]]);
      expect(products.all()).to.deep.equal(productsBefore);
      // The line's product is its SKU; the cost stored under its externalId prices it.
      expect(productsBefore).to.deep.equal([['SKU-1', 500, 'T-shirt', 0]]);
    });
  });

describe('SQLite migration of the costs into the rollups', () => {
  let folder: ReturnType<typeof temporaryFolder>;
  beforeEach(() => (folder = temporaryFolder()));
  afterEach(() => folder.remove());

  it('sums the cost columns of a file of the previous version, and prices the orders of its dashboards with costs through a job once it opens', async () => {
    const { raw, insert } = aFileBefore(folder.path, COSTS_IN_ROLLUPS_MIGRATION);
    const at = new Date(Date.UTC(2026, 4, 5, 6));
    insert(anOrder().inDashboard('dsh_a').withExternalId('costed').paid().with({ createdAt: at }).build());
    insert(anOrder().inDashboard('dsh_b').withExternalId('uncosted').paid().with({ createdAt: at }).build());
    // Written around the repository, which keeps the counts (the migration sums the projections again, not them).
    raw.prepare("INSERT INTO order_counts VALUES ('dsh_a', 'paid', 1), ('dsh_b', 'paid', 1)").run();
    raw.close();

    await afterMigrationJobs(folder, ['dsh_a'], (db) => {
      const day = Date.UTC(2026, 4, 5);
      expect(dayCosts(db, 'dsh_a')).to.deep.equal([[day, 'BRL', 600, 0]]);
      expect(dayCosts(db, 'dsh_b')).to.deep.equal([[day, 'BRL', 0, 2]]);
    });
  });
});

describe('SQLite re-pricing jobs of several dashboards', () => {
  let folder: ReturnType<typeof temporaryFolder>;
  let db: SqliteDatabase;
  let storage: Storage;

  beforeEach(async () => {
    folder = temporaryFolder();
    // Chunks bounded by their moves alone, whatever the machine's speed: the counts below are of moves.
    db = SqliteDatabase.open({ path: folder.path, repriceInlineMax: 0, repriceChunkMs: Number.POSITIVE_INFINITY });
    storage = sqliteStorageOn(db, memoryLogger().logger);
    // The chunks are run one by one below.
    await db.repricing.stop();
  });
  afterEach(async () => {
    await db.close();
    folder.remove();
  });

  const paidOrders = async (dashboardId: string, count: number): Promise<void> => {
    await storage.dashboards.insert(dashboard(dashboardId, 'UTC'));
    await Promise.all(
      Array.from({ length: count }, (_, i) =>
        storage.orders.insert(
          anOrder()
            .inDashboard(dashboardId)
            .withExternalId(`${dashboardId}-${i}`)
            .paid()
            .with({ createdAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000) })
            .build(),
          [],
        ),
      ),
    );
  };
  const jobsOf = (dashboardId: string): unknown =>
    db.prepare('SELECT count(*) FROM reprice_jobs WHERE dashboard_id = ?').pluck().get(dashboardId);

  it('stops a chunk once it has looked at orders for its time, one order at least: with no time, one order a chunk', async () => {
    await db.close();
    db = SqliteDatabase.open({ path: folder.path, repriceInlineMax: 0, repriceChunkMs: 0 });
    storage = sqliteStorageOn(db, memoryLogger().logger);
    await db.repricing.stop();
    await paidOrders('dsh_a', 6);
    await storage.productCosts.put('dsh_a', [{ product: 'p-1', currency: 'BRL', unitCostCents: 10, from: '2025-12-01' }]);
    let chunks = 0;
    while (await db.repriceChunk()) chunks++;
    expect(chunks, 'a chunk per order').to.equal(6);
    expect(jobsOf('dsh_a')).to.equal(0);
    const { kept, rebuilt } = rollupsAndRebuild(folder.path, folder.dir);
    expect(kept).to.deep.equal(rebuilt);
  });

  it('reads at most CHUNK_ROWS orders a chunk, however much time it has', async () => {
    await db.close();
    db = SqliteDatabase.open({ path: folder.path, repriceInlineMax: 0, repriceChunkMs: 60_000 });
    storage = sqliteStorageOn(db, memoryLogger().logger);
    await db.repricing.stop();
    await paidOrders('dsh_a', 2 * CHUNK_ROWS + 10);
    // A product nobody sold: no order moves, so only the rows read can end a chunk.
    await storage.productCosts.put('dsh_a', [{ product: 'p-none', currency: 'BRL', unitCostCents: 10, from: '2025-12-01' }]);
    expect(jobsOf('dsh_a')).to.equal(1);
    const looked = db
      .prepare("SELECT count(*) FROM orders WHERE dashboard_id = 'dsh_a' AND seq <= (SELECT done_seq FROM reprice_jobs)")
      .pluck();
    expect(await db.repriceChunk()).to.equal(true);
    expect(looked.get()).to.equal(CHUNK_ROWS);
    let chunks = 1;
    while (await db.repriceChunk()) chunks++;
    expect(chunks).to.equal(3);
    expect(jobsOf('dsh_a')).to.equal(0);
    const { kept, rebuilt } = rollupsAndRebuild(folder.path, folder.dir);
    expect(kept).to.deep.equal(rebuilt);
  });

  it('carries out the jobs of a file stored in slices in two passes: the first job, then the others together', async () => {
    await paidOrders('dsh_a', 4 * CHUNK_MOVES);
    const slice = (cents: number) =>
      storage.productCosts.put('dsh_a', [{ product: 'p-1', currency: 'BRL', unitCostCents: cents, from: '2025-12-01' }]);
    await slice(10);
    expect(await db.repriceChunk()).to.equal(true);
    for (const cents of [20, 30, 40, 50]) await slice(cents);
    const progress = db.prepare('SELECT done_seq FROM reprice_jobs ORDER BY id').pluck();
    expect(progress.all().map((seq) => (seq as number) > 0)).to.deep.equal([true, false, false, false, false]);
    let chunks = 1;
    while (await db.repriceChunk()) {
      chunks++;
      const [first, ...others] = progress.all() as number[];
      if (first === undefined) break;
      if (others.length > 0 && first !== others[0]) continue;
      expect(new Set(others).size, 'the jobs not begun move together').to.be.at.most(1);
    }
    // Each pass moves 100 orders, 25 a chunk: 4 chunks for the first job, 4 more for the four others (16 one after another).
    expect(chunks).to.be.at.most(9);
    expect(jobsOf('dsh_a')).to.equal(0);
    expect(
      db.prepare("SELECT sum(product_cost_cents) FROM report_totals WHERE grain = 'm' AND dashboard_id = 'dsh_a'").pluck().get(),
    ).to.equal(4 * CHUNK_MOVES * 2 * 50);
    const { kept, rebuilt } = rollupsAndRebuild(folder.path, folder.dir);
    expect(kept).to.deep.equal(rebuilt);
  });

  it('gives each dashboard with a job a chunk in turn: a short job made after a long one ends before it', async () => {
    await paidOrders('dsh_a', 4 * CHUNK_MOVES);
    await paidOrders('dsh_b', 3);
    await storage.productCosts.put('dsh_a', [{ product: 'p-1', currency: 'BRL', unitCostCents: 10, from: '2025-12-01' }]);
    await storage.productCosts.put('dsh_b', [{ product: 'p-1', currency: 'BRL', unitCostCents: 7, from: '2025-12-01' }]);
    expect([jobsOf('dsh_a'), jobsOf('dsh_b')]).to.deep.equal([1, 1]);
    expect(await db.repriceChunk()).to.equal(true);
    expect(await db.repriceChunk()).to.equal(true);
    expect([jobsOf('dsh_a'), jobsOf('dsh_b')], "dsh_b's turn came second").to.deep.equal([1, 0]);
    while (await db.repriceChunk());
    expect([jobsOf('dsh_a'), jobsOf('dsh_b')]).to.deep.equal([0, 0]);
    const { kept, rebuilt } = rollupsAndRebuild(folder.path, folder.dir);
    expect(kept).to.deep.equal(rebuilt);
  });
});
