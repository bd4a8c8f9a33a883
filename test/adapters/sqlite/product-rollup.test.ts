import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import { PRODUCTS_ROLLUP_MIGRATION } from '../../../src/adapters/sqlite/reports/report-schema';
import type { SqliteDatabase } from '../../../src/adapters/sqlite/sqlite-database';
import { SqliteProductReads } from '../../../src/adapters/sqlite/reports/sqlite-product-reads';
import { SqliteProfitReads } from '../../../src/adapters/sqlite/reports/sqlite-profit-reads';
import type { ProductCell } from '../../../src/application/ports/report-reader';
import type { Storage } from '../../../src/application/ports/storage';
import type { Order } from '../../../src/domain/order';
import { ORDER_STATUSES } from '../../../src/domain/order-status';
import type { Range, ReportScope } from '../../../src/domain/report';
import { random } from '../../contract/report-reader.contract';
import { anOrder } from '../../support/order-builder';
import { afterMigrationJobs, rollupsAndRebuild } from '../../support/rollup-tables';
import { aFileBefore, temporaryFolder, temporarySqliteDatabase } from '../../support/sqlite-files';

const DAY = 86_400_000;
const START = Date.UTC(2026, 0, 30);

const byKey = (cells: readonly ProductCell[]): ProductCell[] =>
  [...cells].sort((a, b) => (a.currency + '\u0000' + a.product < b.currency + '\u0000' + b.product ? -1 : 1));

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

  const fromRollups = (scope: ReportScope, range: Range): ProductCell[] => {
    const profit = new SqliteProfitReads(db);
    return byKey(new SqliteProductReads(db, profit).cells('dsh_a', scope, range, profit.priceList('dsh_a', 'UTC')));
  };
  const fromOrders = (scope: ReportScope, range: Range): ProductCell[] => {
    const profit = new SqliteProfitReads(db);
    return byKey(profit.productCells('dsh_a', scope, range, profit.priceList('dsh_a', 'UTC')));
  };
  const ALL: ReportScope = { model: 'last', isTest: undefined, filters: {} };

  it('answers as the orders do for random ranges after random creations and replaces of status, lines, names, dates and flags', async () => {
    const next = random(7);
    const pick = <A>(values: readonly A[]): A => values[Math.floor(next() * values.length)];
    await storage.productCosts.put('dsh_a', [
      { product: 'p-1', currency: 'BRL', unitCostCents: 300, from: '2026-01-01' },
      { product: 'p-2', currency: 'BRL', unitCostCents: 500, from: '2026-02-02' },
      { product: 'p-1', currency: 'USD', unitCostCents: 70, from: '2026-02-01' },
    ]);
    const products = ['p-1', 'p-2', 'p-3'];
    // Instants on quarter-hour, hour and day boundaries as often as between them.
    const instant = (): number => {
      const at = START + Math.floor(next() * 40 * DAY);
      return pick([at, at - (at % 900_000), at - (at % 3_600_000), at - (at % DAY)]);
    };
    const linesOf = () =>
      Array.from({ length: 1 + Math.floor(next() * 3) }, () => ({
        externalId: pick(products),
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
      for (let r = 0; r < 25; r++) {
        const [a, b] = [instant() + pick([0, 1, 450_000]), instant()];
        const range = { start: Math.min(a, b), end: Math.max(a, b) + 1 };
        const scope = { ...ALL, isTest: pick([undefined, true, false]) };
        expect(fromRollups(scope, range), JSON.stringify({ range, scope })).to.deep.equal(fromOrders(scope, range));
      }
      const whole = { start: START - DAY, end: START + 60 * DAY };
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
