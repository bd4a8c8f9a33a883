import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import { PRODUCTS_BY_SKU_MIGRATION, PRODUCTS_ROLLUP_MIGRATION } from '../../../src/adapters/sqlite/reports/report-schema';
import { migrate, MIGRATIONS } from '../../../src/adapters/sqlite/sqlite-schema';
import type { SqliteDatabase } from '../../../src/adapters/sqlite/sqlite-database';
import { SqliteProductReads } from '../../../src/adapters/sqlite/reports/sqlite-product-reads';
import { SqliteProfitReads } from '../../../src/adapters/sqlite/reports/sqlite-profit-reads';
import type { ProductCell, UncostedSummary } from '../../../src/application/ports/report-reader';
import { uncostedOfCells } from '../../../src/application/reports/uncosted-summary';
import { rankProductsNow, type NameRows } from '../../../src/application/reports/rank-products';
import type { ProductRow } from '../../../src/domain/product-report';
import type { Storage } from '../../../src/application/ports/storage';
import type { Order } from '../../../src/domain/order';
import { ORDER_STATUSES } from '../../../src/domain/order-status';
import type { Range, ReportScope } from '../../../src/domain/report';
import { random } from '../../contract/report-reader.contract';
import { anOrder } from '../../support/order-builder';
import { afterMigrationJobs, rollupsAndRebuild } from '../../support/rollup-tables';
import { aFileBefore, temporaryFolder, temporarySqliteDatabase } from '../../support/sqlite-files';

const DAY = 86_400_000;
const START = Date.UTC(2025, 10, 30);

/** Every product's row, named, by product then currency: what the products report answers of some cells, without a limit. */
const rowsOf = (cells: readonly ProductCell[], nameRows?: NameRows): ProductRow[] =>
  rankProductsNow(cells, { sort: 'orders', limit: 100_000 }, undefined, nameRows).rows.toSorted((a, b) =>
    a.currency + '\u0000' + a.product < b.currency + '\u0000' + b.product ? -1 : 1,
  );

/**
 * The products report from `report_products` (product-rollup.ts, sqlite-product-reads.ts): for any
 * range, the same cells, names included, as reading every order of the range (SqliteProfitReads).
 */
describe('SQLite products rollup', () => {
  let folder: ReturnType<typeof temporaryFolder>;
  let db: SqliteDatabase;
  let storage: Storage;
  let close: () => Promise<void>;

  beforeEach(() => ({ folder, db, storage, close } = temporarySqliteDatabase()));
  afterEach(() => close());

  const fromRollups = (scope: ReportScope, range: Range): ProductRow[] =>
    db.readTogether(() => {
      const profit = new SqliteProfitReads(db);
      const reads = new SqliteProductReads(db, profit);
      const read = reads.cells('dsh_a', scope, range, profit.priceList('dsh_a', 'UTC'));
      return rowsOf(read.cells, reads.nameRows('dsh_a', scope, read.rollup));
    });
  const fromOrders = (scope: ReportScope, range: Range): ProductRow[] => {
    const profit = new SqliteProfitReads(db);
    return rowsOf(profit.productCells('dsh_a', scope, range, profit.priceList('dsh_a', 'UTC')));
  };
  const uncostedFromRollups = (scope: ReportScope, range: Range): UncostedSummary => {
    const profit = new SqliteProfitReads(db);
    return new SqliteProductReads(db, profit).uncosted('dsh_a', scope, range, profit.priceList('dsh_a', 'UTC'));
  };
  const uncostedFromOrders = (scope: ReportScope, range: Range): UncostedSummary => {
    const profit = new SqliteProfitReads(db);
    return uncostedOfCells(profit.productCells('dsh_a', scope, range, profit.priceList('dsh_a', 'UTC')));
  };
  const ALL: ReportScope = { model: 'last', isTest: undefined, filters: {} };

  it('answers as the orders do for random ranges after random creations and replaces of status, lines, names, dates and flags', async () => {
    const next = random(7);
    const pick = <A>(values: readonly A[]): A => values[Math.floor(next() * values.length)];
    await storage.productCosts.put('dsh_a', [
      { product: 'p-1', currency: 'BRL', unitCostCents: 300, from: '2026-01-01' },
      { product: 'p-2', currency: 'BRL', unitCostCents: 500, from: '2026-02-02' },
      { product: 'p-1', currency: 'USD', unitCostCents: 70, from: '2026-02-01' },
      // A cost under a SKU from mid-range, one under the externalId of lines that have that SKU from before it.
      { product: 'S-1', currency: 'BRL', unitCostCents: 900, from: '2026-02-10' },
      { product: '7003', currency: 'BRL', unitCostCents: 40, from: '2026-01-15' },
    ]);
    // Lines known by their externalId, by a SKU alone, by a SKU and another externalId (one product with
    // the SKU alone), by an externalId that is also another line's SKU's alias, and by neither.
    const products = [
      { externalId: 'p-1' },
      { externalId: 'p-2' },
      { sku: 'S-1' },
      { externalId: '7003', sku: 'S-1' },
      { externalId: 'p-1', sku: 'S-2' },
      {},
    ];
    // Instants on quarter-hour, hour and day boundaries as often as between them.
    const instant = (): number => {
      const at = START + Math.floor(next() * 200 * DAY);
      return pick([at, at - (at % 900_000), at - (at % 3_600_000), at - (at % DAY)]);
    };
    const linesOf = () =>
      Array.from({ length: 1 + Math.floor(next() * 3) }, () => ({
        ...pick(products),
        name: `name ${Math.floor(next() * 1_000)}`,
        quantity: 1 + Math.floor(next() * 3),
        unitPriceCents: 100 + Math.floor(next() * 900),
      }));
    const current = new Map<string, Order>();
    for (let round = 0; round < 6; round++) {
      const writes: Promise<unknown>[] = [];
      for (let w = 0; w < 40; w++) {
        const known = [...current.keys()];
        if (known.length === 0 || next() < 0.5) {
          const order = anOrder()
            .inDashboard('dsh_a')
            .withExternalId(`o-${round}-${w}`)
            .with({
              status: pick(ORDER_STATUSES),
              isTest: next() < 0.3,
              createdAt: new Date(instant()),
              amounts: { ...anOrder().build().amounts, currency: pick(['BRL', 'USD']) },
              products: linesOf(),
            })
            .build();
          writes.push(storage.orders.insert(order, []).then((r) => E.isRight(r) && current.set(order.externalId, order)));
          continue;
        }
        const base = current.get(pick(known))!;
        const change = next();
        const changed: Order = {
          ...base,
          version: base.version + 1,
          status: change < 0.4 ? pick(ORDER_STATUSES) : base.status,
          products: change >= 0.4 && change < 0.7 ? linesOf() : base.products,
          createdAt: change >= 0.7 && change < 0.85 ? new Date(instant()) : base.createdAt,
          isTest: change >= 0.85 ? !base.isTest : base.isTest,
        };
        current.set(base.externalId, changed);
        writes.push(storage.orders.replace(changed, []));
      }
      await Promise.all(writes);
      for (let r = 0; r < 30; r++) {
        const [a, b] = [instant() + pick([0, 1, 450_000]), instant()];
        // Some ranges begin before the first order or end after the last: their ends move to whole days, months or years.
        const range = pick([
          { start: Math.min(a, b), end: Math.max(a, b) + 1 },
          { start: START - pick([1, 40 * DAY]), end: Math.max(a, b) + 1 },
          { start: Math.min(a, b), end: START + pick([201 * DAY, 400 * DAY]) },
        ]);
        const scope = { ...ALL, isTest: pick([undefined, true, false]) };
        expect(fromRollups(scope, range), JSON.stringify({ range, scope })).to.deep.equal(fromOrders(scope, range));
        expect(uncostedFromRollups(scope, range), `uncosted ${JSON.stringify({ range, scope })}`).to.deep.equal(
          uncostedFromOrders(scope, range),
        );
      }
      const whole = { start: START - DAY, end: START + 220 * DAY };
      expect(fromRollups(ALL, whole)).to.deep.equal(fromOrders(ALL, whole));
      const { kept, rebuilt } = rollupsAndRebuild(folder.path, folder.dir);
      expect(kept).to.deep.equal(rebuilt);
    }
  });

  it('keeps a line of 1,000,000 units of 10^13 cents, beyond a 64-bit integer, and reports it as the orders do', async () => {
    const huge = (externalId: string): Order =>
      anOrder()
        .inDashboard('dsh_a')
        .withExternalId(externalId)
        .paid()
        .with({
          createdAt: new Date(START + DAY / 2),
          products: [{ externalId: 'p-huge', name: 'Huge', quantity: 1_000_000, unitPriceCents: 10 ** 13 }],
        })
        .build();
    expect(E.isRight(await storage.orders.insert(huge('h-1'), []))).to.equal(true);
    expect(E.isRight(await storage.orders.insert(huge('h-2'), []))).to.equal(true);
    const range = { start: START, end: START + 3 * DAY };
    const cells = fromRollups(ALL, range);
    expect(cells.map((cell) => [cell.product, cell.paidUnits, cell.paidRevenueCents])).to.deep.equal([['p-huge', 2_000_000, 2e19]]);
    expect(cells).to.deep.equal(fromOrders(ALL, range));
  });

  it('names a product by its latest order still in the range once the order that named it drops it, moves away or is renamed', async () => {
    const line = (name: string) => ({ externalId: 'p-1', name, quantity: 1, unitPriceCents: 100 });
    const order = (id: string, at: number, name: string) =>
      anOrder()
        .inDashboard('dsh_a')
        .withExternalId(id)
        .with({ createdAt: new Date(at), products: [line(name)] })
        .build();
    const march = { start: Date.UTC(2026, 2, 1), end: Date.UTC(2026, 3, 1) };
    const nameIn = (range: Range) => fromRollups(ALL, range).map((cell) => [cell.name, cell.orders]);
    const older = order('older', Date.UTC(2026, 2, 3, 10), 'Older name');
    const newer = order('newer', Date.UTC(2026, 2, 3, 11), 'Newer name');
    const other = order('other', Date.UTC(2026, 2, 20), 'Other month day');
    for (const o of [older, newer, other]) await storage.orders.insert(o, []);
    const may = order('may', Date.UTC(2026, 4, 1), 'May');
    await storage.orders.insert(may, []);
    await storage.orders.replace({ ...may, version: 2, status: 'paid' }, []);
    const stale = db.prepare('SELECT count(*) FROM report_products WHERE name_stale = 1').pluck();
    expect(stale.get(), 'a change of status leaves every name exact').to.equal(0);
    expect(nameIn(march)).to.deep.equal([['Other month day', 3]]);

    await storage.orders.replace({ ...other, version: 2, createdAt: new Date(Date.UTC(2026, 3, 2)) }, []);
    expect(nameIn(march), 'the latest moved to April').to.deep.equal([['Newer name', 2]]);
    const dropped = { ...newer, version: 2, products: [{ ...line('x'), externalId: 'p-2' }] };
    await storage.orders.replace(dropped, []);
    expect(nameIn(march), 'the latest dropped the product').to.deep.equal([
      ['Older name', 1],
      ['x', 1],
    ]);
    await storage.orders.replace({ ...older, version: 2, products: [line('Renamed')] }, []);
    expect(nameIn(march), 'the latest renamed it').to.deep.equal([
      ['Renamed', 1],
      ['x', 1],
    ]);
    await storage.orders.replace({ ...dropped, version: 3, status: 'paid' }, []);
    expect(nameIn(march), 'a change of status').to.deep.equal([
      ['Renamed', 1],
      ['x', 1],
    ]);
    expect(fromRollups(ALL, march)).to.deep.equal(fromOrders(ALL, march));
    expect(stale.get(), 'the rows whose naming order left').to.be.greaterThan(0);
  });
});

describe('SQLite migration of the products rollup', () => {
  let folder: ReturnType<typeof temporaryFolder>;
  beforeEach(() => (folder = temporaryFolder()));
  afterEach(() => folder.remove());

  it('fills report_products from the orders of a file of the previous version, and prices them through a job once it opens', async () => {
    const { raw, insert } = aFileBefore(folder.path, PRODUCTS_ROLLUP_MIGRATION);
    const at = new Date(Date.UTC(2026, 4, 5, 6, 7));
    const lines = [
      { externalId: 'p-1', name: 'First', quantity: 2, unitPriceCents: 1_000 },
      { sku: 'S-2', name: 'Second', quantity: 1, unitPriceCents: 500 },
      { externalId: 'p-1', name: 'Again', quantity: 1, unitPriceCents: 900 },
    ];
    insert(anOrder().inDashboard('dsh_a').withExternalId('a').paid().with({ createdAt: at, products: lines }).build());
    insert(
      anOrder()
        .inDashboard('dsh_a')
        .withExternalId('b')
        .with({ createdAt: at, products: lines.slice(1) })
        .build(),
    );
    insert(anOrder().inDashboard('dsh_b').withExternalId('c').paid().with({ createdAt: at }).build());
    // Written around the repository, which keeps the counts (the migration sums the rollups with costs again, not them).
    raw.prepare("INSERT INTO order_counts VALUES ('dsh_a', 'paid', 1), ('dsh_a', 'pending', 1), ('dsh_b', 'paid', 1)").run();
    raw.close();

    await afterMigrationJobs(folder, ['dsh_a'], (db) => {
      const rows = db
        .prepare(
          `SELECT product, orders, units, paid_units, paid_revenue_cents, product_cost_cents, uncosted_units, name
           FROM report_products WHERE dashboard_id = 'dsh_a' AND grain = 'd' ORDER BY product`,
        )
        .raw()
        .all();
      expect(rows).to.deep.equal([
        ['S-2', 2, 2, 1, 500, 0, 1, 'Second'],
        ['p-1', 2, 4, 3, 2_900, 900, 0, 'Again'],
      ]);
    });
  });
});

describe('SQLite migration to one product per SKU', () => {
  let folder: ReturnType<typeof temporaryFolder>;
  beforeEach(() => (folder = temporaryFolder()));
  afterEach(() => folder.remove());

  it('makes a row per SKU of a file of the previous version, a cost under an externalId still pricing its lines, and leaves other dashboards as they were', async () => {
    // A file of the version before, rollups made by its migration (a line was its externalId, else its SKU).
    const { raw, insert } = aFileBefore(folder.path, PRODUCTS_ROLLUP_MIGRATION);
    const at = new Date(Date.UTC(2026, 4, 5, 6, 7));
    const paid = (dashboard: string, id: string, products: Order['products']) =>
      anOrder().inDashboard(dashboard).withExternalId(id).paid().with({ createdAt: at, products }).build();
    const line = { quantity: 1, unitPriceCents: 10_000 };
    // dsh_a sells the jogger through the API by its SKU and through a checkout under the checkout's id and the SKU; its
    // T-shirt line (p-1, SKU-1) is costed under p-1 (aFileBefore's cost), the jogger under its SKU.
    insert(paid('dsh_a', 'api', [{ sku: 'JOG-SLM', name: 'Calça Jogger', ...line }]));
    insert(paid('dsh_a', 'shopify', [{ externalId: '7003', sku: 'JOG-SLM', name: 'Calça Jogger Slim', ...line, quantity: 2 }]));
    insert(paid('dsh_a', 'tee', [{ externalId: 'p-1', sku: 'SKU-1', name: 'T-shirt', ...line }]));
    insert(paid('dsh_a', 'other', [{ externalId: '7004', name: 'Cap', ...line }]));
    raw.prepare("INSERT INTO product_costs VALUES ('dsh_a', 'JOG-SLM', 'BRL', '2026-01-01', 4000)").run();
    // dsh_b knows its products by externalId alone, and its rollups are priced already (its job ran).
    raw.prepare("INSERT INTO dashboards (id, name, timezone, tax_rate_hundredths, created_at) VALUES ('dsh_b', 'b', 'UTC', 0, 0)").run();
    insert(paid('dsh_b', 'b-1', [{ externalId: 'e-9', name: 'Mug', ...line, quantity: 2 }]));
    raw.prepare("INSERT INTO product_costs VALUES ('dsh_b', 'e-9', 'BRL', '2026-01-01', 100)").run();
    // dsh_c has a line with both and no cost: its products change, its prices do not.
    raw.prepare("INSERT INTO dashboards (id, name, timezone, tax_rate_hundredths, created_at) VALUES ('dsh_c', 'c', 'UTC', 0, 0)").run();
    insert(paid('dsh_c', 'c-1', [{ externalId: '8001', sku: 'C-SKU', name: 'Bag', ...line }]));
    raw.prepare("INSERT INTO order_counts VALUES ('dsh_a', 'paid', 4), ('dsh_b', 'paid', 1), ('dsh_c', 'paid', 1)").run();
    migrate(raw, folder.path, MIGRATIONS.slice(0, MIGRATIONS.indexOf(PRODUCTS_BY_SKU_MIGRATION)));
    for (const table of ['report_totals', 'report_campaigns', 'report_keys', 'report_products'])
      raw.prepare(`UPDATE ${table} SET product_cost_cents = 200, uncosted_units = 0 WHERE dashboard_id = 'dsh_b'`).run();
    raw.prepare("DELETE FROM reprice_jobs WHERE dashboard_id = 'dsh_b'").run();
    const month = (dashboard: string) =>
      raw
        .prepare(
          `SELECT product, orders, units, paid_units, paid_revenue_cents, product_cost_cents, uncosted_units, name
           FROM report_products WHERE dashboard_id = ? AND grain = 'm' ORDER BY product`,
        )
        .raw()
        .all(dashboard);
    expect(
      (month('dsh_a') as unknown[][]).map((row) => row[0]),
      'the products before',
    ).to.deep.equal(['7003', '7004', 'JOG-SLM', 'p-1']);
    raw.close();

    await afterMigrationJobs(folder, ['dsh_a'], (db) => {
      const rows = (dashboard: string, grain: string) =>
        db
          .prepare(
            `SELECT product, orders, units, paid_units, paid_revenue_cents, product_cost_cents, uncosted_units, name
             FROM report_products WHERE dashboard_id = ? AND grain = ? ORDER BY product`,
          )
          .raw()
          .all(dashboard, grain);
      expect(rows('dsh_a', 'm')).to.deep.equal([
        ['7004', 1, 1, 1, 10_000, 0, 1, 'Cap'],
        ['JOG-SLM', 2, 3, 3, 30_000, 12_000, 0, 'Calça Jogger Slim'],
        ['SKU-1', 1, 1, 1, 10_000, 300, 0, 'T-shirt'],
      ]);
      expect(rows('dsh_a', 'y')).to.deep.equal(rows('dsh_a', 'm'));
      expect(rows('dsh_b', 'y')).to.deep.equal([['e-9', 1, 2, 2, 20_000, 200, 0, 'Mug']]);
      expect(rows('dsh_c', 'd')).to.deep.equal([['C-SKU', 1, 1, 1, 10_000, 0, 1, 'Bag']]);
    });
  });
});
