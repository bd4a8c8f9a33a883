import BetterSqlite3 from 'better-sqlite3';
import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { orderToRow, WRITE_COLUMNS } from '../../../src/adapters/sqlite/orders/order-rows';
import { ROLLUPS_IN_GROUP_COMMIT_MIGRATION } from '../../../src/adapters/sqlite/reports/report-schema';
import { SqliteDatabase } from '../../../src/adapters/sqlite/sqlite-database';
import { migrate, MIGRATIONS } from '../../../src/adapters/sqlite/sqlite-schema';
import { sqliteStorageOn } from '../../../src/adapters/sqlite/sqlite-storage';
import type { OrderEvent } from '../../../src/application/ports/order-repository';
import type { Storage } from '../../../src/application/ports/storage';
import type { Order } from '../../../src/domain/order';
import { ORDER_STATUSES, type OrderStatus } from '../../../src/domain/order-status';
import { random } from '../../contract/report-reader.contract';
import { memoryLogger } from '../../support/memory-log';
import { anOrder } from '../../support/order-builder';
import { rollupsAndRebuild } from '../../support/rollup-tables';
import { anOrderTooBigForTheDisk, temporaryFolder, temporarySqliteDatabase } from '../../support/sqlite-files';

const anEvent = (id: string, order: Order): OrderEvent => ({ id, type: 'order.updated', occurredAt: order.updatedAt, order });

/** How each promise settled, once all have. */
const settled = async (promises: readonly Promise<unknown>[]): Promise<unknown[]> =>
  (await Promise.allSettled(promises)).map((result) => (result.status === 'fulfilled' ? result.value : (result.reason as Error)));

/**
 * The rollups kept in the group commit (rollup-fold.ts): after every kind of batch, each rollup table
 * holds what `rebuildStatements()` sums again from the orders on a copy of the file.
 */
describe('SQLite rollups folded into the group commit', () => {
  let folder: ReturnType<typeof temporaryFolder>;
  let db: SqliteDatabase;
  let storage: Storage;

  const expectRollupsToMatchTheOrders = (): void => {
    const { kept, rebuilt } = rollupsAndRebuild(folder.path, folder.dir);
    expect(kept).to.deep.equal(rebuilt);
  };
  /** report_totals' day rows of the dashboard: [currency, pending, paid, refused, refunded, chargedback, gross_cents]. */
  const dayTotals = (dashboardId = 'dsh_a'): unknown[][] =>
    db
      .prepare(
        `SELECT currency, pending, paid, refused, refunded, chargedback, gross_cents FROM report_totals
         WHERE dashboard_id = ? AND grain = 'd' ORDER BY start, currency`,
      )
      .raw()
      .all(dashboardId) as unknown[][];

  let close: () => Promise<void>;

  // Without the time bound on a transaction: the tests say which writes share a group.
  beforeEach(() => ({ folder, db, storage, close } = temporarySqliteDatabase({ maxTransactionMs: Number.POSITIVE_INFINITY })));
  afterEach(() => close());

  it('adds nothing for the writes of a group that fail in their savepoint, and everything for the others', async () => {
    const first = anOrder().withExternalId('first').build();
    const stored = anOrder().withExternalId('stored').build();
    expect(E.isRight(await storage.orders.insert(stored, [anEvent('evt_taken', stored)]))).to.equal(true);
    const before = db.groupCommitStats();
    const paid: Order = { ...stored, status: 'paid', version: 2 };
    const outcomes = await settled([
      storage.orders.insert(first, []),
      // The order's row goes in, then its event breaks the unique event id: the write is rolled back whole.
      storage.orders.insert(
        anOrder()
          .withExternalId('broken')
          .with({ amounts: { ...first.amounts, grossCents: 7 } })
          .build(),
        [anEvent('evt_taken', first)],
      ),
      storage.orders.replace(paid, [anEvent('evt_taken', paid)]),
      db.write(() => {
        db.rollups.add(orderToRow(anOrder().withExternalId('ghost').build()));
        throw new TypeError('a bug after the rollups were told');
      }),
      storage.orders.insert(anOrder().withExternalId('last').paid().build(), []),
    ]);
    expect(db.groupCommitStats().commits).to.equal(before.commits + 1);
    expect(outcomes[0]).to.satisfy(E.isRight);
    expect((outcomes[1] as { code?: string }).code).to.equal('SQLITE_CONSTRAINT_UNIQUE');
    expect((outcomes[2] as { code?: string }).code).to.equal('SQLITE_CONSTRAINT_UNIQUE');
    expect(outcomes[3]).to.be.instanceOf(TypeError);
    expect(outcomes[4]).to.satisfy(E.isRight);
    expect(dayTotals()).to.deep.equal([['BRL', 2, 1, 0, 0, 0, 30_000]]);
    expect((await storage.orders.list('dsh_a', { status: 'pending', page: 1, pageSize: 10 })).total).to.equal(2);
    expectRollupsToMatchTheOrders();
  });

  it('adds each write once when the disk fills up mid-group and the writes run again one by one', async () => {
    const huge = anOrderTooBigForTheDisk(db);
    const outcomes = await settled([
      storage.orders.insert(anOrder().withExternalId('small-1').build(), []),
      storage.orders.insert(huge, []),
      storage.orders.insert(anOrder().withExternalId('small-2').paid().build(), []),
    ]);
    expect(outcomes[0]).to.satisfy(E.isRight);
    expect((outcomes[1] as Error).message).to.include('SQLITE_FULL');
    expect(outcomes[2]).to.satisfy(E.isRight);
    expect(dayTotals()).to.deep.equal([['BRL', 1, 1, 0, 0, 0, 20_000]]);
    expectRollupsToMatchTheOrders();
  });

  it('folds several status changes of one order in one group into one move, from its first status to its last', async () => {
    const order = anOrder().withExternalId('busy').build();
    const chain = (['paid', 'refunded', 'chargedback'] as const).map((status, i): Order => ({ ...order, status, version: i + 2 }));
    const before = db.groupCommitStats();
    const outcomes = await Promise.all([
      storage.orders.insert(order, []),
      ...chain.map((changed) => storage.orders.replace(changed, [])),
      storage.orders.replace({ ...order, status: 'paid', version: 3 }, []),
    ]);
    expect(outcomes.slice(1)).to.deep.equal([true, true, true, false]);
    expect(db.groupCommitStats().commits).to.equal(before.commits + 1);
    expect(dayTotals()).to.deep.equal([['BRL', 0, 0, 0, 0, 1, 10_000]]);
    expect((await storage.orders.list('dsh_a', { status: 'chargedback', page: 1, pageSize: 10 })).total).to.equal(1);
    expect((await storage.orders.list('dsh_a', { status: 'pending', page: 1, pageSize: 10 })).total).to.equal(0);

    // A status changed and changed back in one group nets to nothing, and a change of metadata alone moves nothing.
    const back = await Promise.all([
      storage.orders.replace({ ...order, status: 'paid', version: 5 }, []),
      storage.orders.replace({ ...order, status: 'chargedback', version: 6 }, []),
      storage.orders.replace({ ...order, status: 'chargedback', metadata: { note: 'x' }, version: 7 }, []),
    ]);
    expect(back).to.deep.equal([true, true, true]);
    expect(dayTotals()).to.deep.equal([['BRL', 0, 0, 0, 0, 1, 10_000]]);
    expectRollupsToMatchTheOrders();
  });

  it('adds up many orders that share rollup rows in one group, one upsert per row', async () => {
    const orders = Array.from({ length: 300 }, (_, i) =>
      anOrder()
        .withExternalId(`many-${i}`)
        .with({
          status: ORDER_STATUSES[i % ORDER_STATUSES.length],
          createdAt: new Date(Date.UTC(2026, 0, 31, 23, 50) + (i % 3) * 600_000),
          amounts: { ...anOrder().build().amounts, currency: i % 4 === 0 ? 'USD' : 'BRL', grossCents: 100 + i },
          tracking: { utmSource: i % 2 === 0 ? 'google' : 'meta', utmMedium: 'cpc', utmCampaign: 'shared' },
        })
        .build(),
    );
    const before = db.groupCommitStats();
    const inserted = await Promise.all(orders.map((order) => storage.orders.insert(order, [])));
    expect(inserted.every(E.isRight)).to.equal(true);
    expect(db.groupCommitStats()).to.deep.include({ commits: before.commits + 1, writes: before.writes + 300 });
    const count = (status: OrderStatus) => orders.filter((o) => o.status === status).length;
    const months = db
      .prepare(
        "SELECT sum(pending), sum(paid), sum(refused), sum(refunded), sum(chargedback), sum(gross_cents) FROM report_totals WHERE grain = 'm'",
      )
      .raw()
      .get();
    expect(months).to.deep.equal([...ORDER_STATUSES.map(count), orders.reduce((sum, o) => sum + o.amounts.grossCents, 0)]);
    expectRollupsToMatchTheOrders();
  });

  it('keeps every rollup equal to a rebuild from the orders after random groups of creations, PATCHes, duplicates and failures', async () => {
    const next = random(26);
    const pick = <A>(values: readonly A[]): A => values[Math.floor(next() * values.length)];
    // Month and year edges, before 1970 (where SQLite and JS must truncate alike), and the ends of the calendar.
    const instants = [
      Date.UTC(2026, 0, 31, 23, 59, 59, 999),
      Date.UTC(2026, 1, 1),
      Date.UTC(2026, 2, 15, 11, 7, 30, 5),
      Date.UTC(1969, 11, 31, 23, 59, 59, 999),
      Date.UTC(1969, 11, 31, 23, 45, 0, 1),
      Date.parse('0000-01-01T00:00:00.000Z'),
      Date.parse('9999-12-31T23:59:59.999Z'),
    ];
    const current = new Map<string, Order>();
    let serial = 0;
    for (let round = 0; round < 12; round++) {
      const writes: Promise<unknown>[] = [];
      const pending = new Map<string, Order>();
      for (let w = 0; w < 60; w++) {
        const roll = next();
        const known = [...current.keys()];
        if (roll < 0.45 || known.length === 0) {
          serial += 1;
          const order = anOrder()
            .inDashboard(pick(['dsh_a', 'dsh_b']))
            .withExternalId(`rnd-${serial}`)
            .with({
              status: pick(ORDER_STATUSES),
              isTest: next() < 0.2,
              createdAt: new Date(next() < 0.5 ? pick(instants) : Date.UTC(2026, 0, 1) + Math.floor(next() * 90 * 86_400_000)),
              platform: pick(['shopify', 'woo']),
              paymentMethod: pick(['pix', 'card']),
              amounts: { ...anOrder().build().amounts, currency: pick(['BRL', 'USD']), grossCents: Math.floor(next() * 100_000) },
              tracking: { utmSource: pick(['google', 'meta']), utmMedium: 'cpc', utmCampaign: pick(['a', 'b', 'c']) },
              ...(next() < 0.5 ? { trackingExtras: { firstTouch: { utmSource: pick(['email', 'google']) }, utmTerm: 'shoes' } } : {}),
            })
            .build();
          writes.push(
            storage.orders.insert(order, []).then((result) => {
              if (E.isRight(result)) current.set(order.externalId, order);
            }),
          );
        } else if (roll < 0.8) {
          const externalId = pick(known);
          const base = pending.get(externalId) ?? current.get(externalId)!;
          // A PATCH changes the status or the metadata; a replace may change more, which the rollups must follow too.
          const kind = next();
          const changed: Order = {
            ...base,
            ...(kind < 0.6 ? { status: pick(ORDER_STATUSES) } : kind < 0.8 ? { metadata: { round, w } } : {}),
            ...(kind >= 0.8
              ? {
                  status: pick(ORDER_STATUSES),
                  isTest: !base.isTest,
                  createdAt: new Date(pick(instants)),
                  amounts: { ...base.amounts, currency: pick(['BRL', 'USD']), grossCents: Math.floor(next() * 100_000) },
                  tracking: { ...base.tracking, utmCampaign: pick(['a', 'b', 'c', 'd']) },
                }
              : {}),
            version: base.version + 1,
          };
          pending.set(externalId, changed);
          writes.push(
            storage.orders.replace(changed, []).then((won) => {
              if (won) current.set(externalId, changed);
            }),
          );
        } else if (roll < 0.88) {
          const again = current.get(pick(known))!;
          writes.push(storage.orders.insert({ ...again, status: pick(ORDER_STATUSES) }, []));
        } else if (roll < 0.94) {
          const stale = current.get(pick(known))!;
          writes.push(storage.orders.replace({ ...stale, status: pick(ORDER_STATUSES), version: stale.version }, []));
        } else {
          serial += 1;
          const doomed = anOrder()
            .withExternalId(`doomed-${serial}`)
            .with({ status: pick(ORDER_STATUSES) })
            .build();
          writes.push(storage.orders.insert(doomed, [anEvent('evt_once', doomed), anEvent('evt_once', doomed)]).catch(() => undefined));
        }
      }
      await Promise.all(writes);
      expectRollupsToMatchTheOrders();
    }
    expect(current.size).to.be.greaterThan(200);
  });

  it('sums the rollups again when `reports rebuild` shares a group with other writes, counting none of them twice', async () => {
    await Promise.all([
      storage.orders.insert(anOrder().withExternalId('before').build(), []),
      storage.reports.rebuild(),
      storage.orders.insert(anOrder().withExternalId('after').paid().build(), []),
    ]);
    expect(dayTotals()).to.deep.equal([['BRL', 1, 1, 0, 0, 0, 20_000]]);
    expectRollupsToMatchTheOrders();
  });

  it('holds again what a write settled when that write is rolled back', async () => {
    const outcomes = await settled([
      storage.orders.insert(anOrder().withExternalId('before').build(), []),
      db.write(() => {
        db.rollups.settle();
        throw new TypeError('a write that settled, then failed');
      }),
      storage.orders.insert(anOrder().withExternalId('after').paid().build(), []),
    ]);
    expect(outcomes[1]).to.be.instanceOf(TypeError);
    expect(dayTotals()).to.deep.equal([['BRL', 1, 1, 0, 0, 0, 20_000]]);
    expectRollupsToMatchTheOrders();
  });

  it('refuses a rollup change made outside a write of the group commit', () => {
    expect(() => db.rollups.add(orderToRow(anOrder().build()))).to.throw('rollups changed outside a write of the group commit');
  });
});

describe('SQLite migration to rollups kept in the group commit', () => {
  let folder: ReturnType<typeof temporaryFolder>;
  beforeEach(() => (folder = temporaryFolder()));
  afterEach(() => folder.remove());

  it('drops the triggers of `orders`, keeping the totals they made, and the writes after it keep them', async () => {
    const raw = new BetterSqlite3(folder.path);
    migrate(raw, folder.path, MIGRATIONS.slice(0, MIGRATIONS.indexOf(ROLLUPS_IN_GROUP_COMMIT_MIGRATION)));
    const insert = raw.prepare(`INSERT INTO orders (${WRITE_COLUMNS.join(', ')}) VALUES (${WRITE_COLUMNS.map((c) => `@${c}`).join(', ')})`);
    for (let i = 0; i < 5; i++) insert.run(orderToRow(anOrder().withExternalId(`old-${i}`).withStatus(ORDER_STATUSES[i]).build()));
    const triggers = () => raw.prepare("SELECT name FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = 'orders'").pluck().all();
    expect(triggers()).to.have.length(6);
    raw.close();

    const db = SqliteDatabase.open({ path: folder.path });
    const storage = sqliteStorageOn(db, memoryLogger().logger);
    try {
      expect(E.isRight(await storage.orders.insert(anOrder().withExternalId('new').build(), []))).to.equal(true);
      const old = await storage.orders.findByExternalId('dsh_a', 'old-0');
      if (O.isNone(old)) throw new Error('old-0 is not stored');
      expect(await storage.orders.replace({ ...old.value, status: 'refunded', version: old.value.version + 1 }, [])).to.equal(true);
    } finally {
      await db.close();
    }
    const after = new BetterSqlite3(folder.path, { readonly: true });
    try {
      expect(after.prepare("SELECT name FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = 'orders'").all()).to.deep.equal([]);
    } finally {
      after.close();
    }
    const { kept, rebuilt } = rollupsAndRebuild(folder.path, folder.dir);
    expect(kept).to.deep.equal(rebuilt);
  });
});
