import { openSync, closeSync, writeSync } from 'node:fs';
import { expect } from 'chai';
import * as O from 'fp-ts/Option';
import { CorruptRowError } from '../../../src/adapters/sqlite/sqlite-codecs';
import { SqliteDatabase } from '../../../src/adapters/sqlite/sqlite-database';
import { sqliteStorageOn } from '../../../src/adapters/sqlite/sqlite-storage';
import { StorageUnavailableError } from '../../../src/application/ports/storage-health';
import type { Storage } from '../../../src/application/ports/storage';
import { ORDERS } from '../../http/harness';
import { expectNoInternals, expectProblem } from '../../http/problem-assertions';
import { memoryLogger } from '../../support/memory-log';
import { anOrder, anOrderPayload } from '../../support/order-builder';
import { temporaryFolder } from '../../support/sqlite-files';
import { TestApi } from '../../support/test-api';
import { rejectionOf } from '../../support/failures';

const SECRET_VALUE = 'corrupt-value-that-must-not-be-logged';

/** What the service does when the file fails it while it runs: 503 for "not now", 500 for a bad row. */
describe('the SQLite store when the file fails it', () => {
  let folder: ReturnType<typeof temporaryFolder>;
  let db: SqliteDatabase;
  let storage: Storage;
  let logs: string[];

  const open = (): void => {
    const log = memoryLogger();
    logs = log.lines;
    db = SqliteDatabase.open({ path: folder.path });
    storage = sqliteStorageOn(db, log.logger);
  };
  const logged = (message: string): Record<string, unknown>[] =>
    logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry['msg'] === message);

  beforeEach(() => {
    folder = temporaryFolder();
    open();
  });
  afterEach(async () => {
    await db.close();
    folder.remove();
  });

  describe('a full disk (PRAGMA max_page_count)', () => {
    let api: TestApi;
    afterEach(() => api.stop());

    it('answers 503 SERVICE_UNAVAILABLE to a write that does not fit, keeps reading, and loses nothing acknowledged', async () => {
      api = await TestApi.start({}, { storage, logger: memoryLogger().logger });
      const { token } = await api.newDashboard();
      const created: string[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await api.request('POST', ORDERS, { token, body: anOrderPayload({ externalId: `before-${i}` }) });
        expect(res.status, res.text).to.equal(201);
        created.push(`before-${i}`);
      }
      const pages = db.prepare('PRAGMA page_count').pluck().get() as number;
      db.prepare(`PRAGMA max_page_count = ${pages}`).get();

      const big = anOrderPayload({ externalId: 'too-big', metadata: { note: 'x'.repeat(1_000) }, customer: { note: 'y'.repeat(1_000) } });
      const refused = await Promise.all(
        Array.from({ length: 20 }, (_, i) => api.request('POST', ORDERS, { token, body: { ...big, externalId: `full-${i}` } })),
      );
      expect(refused.some((res) => res.status === 503)).to.equal(true);
      for (const res of refused) {
        if (res.status === 201) created.push(res.body.order.externalId);
        else {
          expectProblem(res, 503, 'SERVICE_UNAVAILABLE');
          expect(Number(res.headers.get('retry-after'))).to.be.above(0);
          expectNoInternals(res);
        }
      }
      const listed = await api.request('GET', `${ORDERS}?pageSize=100`, { token });
      expect(listed.status, listed.text).to.equal(200);
      expect((await api.request('GET', '/readyz')).status).to.equal(200);

      db.prepare('PRAGMA max_page_count = 4294967294').get();
      expect((await api.request('POST', ORDERS, { token, body: anOrderPayload({ externalId: 'after' }) })).status).to.equal(201);
      created.push('after');
      const all = await api.request('GET', `${ORDERS}?pageSize=100`, { token });
      expect(all.body.orders.map((order: { externalId: string }) => order.externalId)).to.have.members(created);
    });

    it('answers 503 to a batch the disk fills in its middle, and converges when the batch is sent again', async () => {
      api = await TestApi.start({}, { storage, logger: memoryLogger().logger });
      const { token, dashboardId } = await api.newDashboard();
      const orders = Array.from({ length: 300 }, (_, i) =>
        anOrderPayload({
          externalId: `full-batch-${i}`,
          products: Array.from({ length: 20 }, (__, j) => ({ sku: `SKU-${j}`, name: `Item ${j}`, quantity: 1, unitPriceCents: 100 })),
          amounts: { currency: 'BRL', grossCents: 2_000, netToSellerCents: 1_800 },
        }),
      );
      const pages = db.prepare('PRAGMA page_count').pluck().get() as number;
      db.prepare(`PRAGMA max_page_count = ${pages + 60}`).get();
      const failed = await api.request('POST', '/api/v1/orders/batch', { token, body: { orders } });
      expectProblem(failed, 503, 'SERVICE_UNAVAILABLE');
      expectNoInternals(failed);
      const stored = (await storage.orders.list(dashboardId, { page: 1, pageSize: 1 })).total;
      expect(stored, 'part of the batch was stored').to.be.within(1, 299);

      db.prepare('PRAGMA max_page_count = 4294967294').get();
      const again = await api.request('POST', '/api/v1/orders/batch', { token, body: { orders } });
      expect(again.status, again.text).to.equal(200);
      expect(again.body).to.include({ created: 300 - stored, alreadyRecorded: stored, failed: 0 });
      expect((await storage.orders.list(dashboardId, { page: 1, pageSize: 1 })).total).to.equal(300);
    });
  });

  it('answers 503 when pages of the file turn out corrupt, and says so in the log', async () => {
    const before = await TestApi.start({}, { storage, logger: memoryLogger().logger });
    const { token, dashboardId } = await before.newDashboard();
    for (let i = 0; i < 100; i++)
      await storage.orders.insert(
        anOrder()
          .inDashboard(dashboardId)
          .withExternalId(`o-${i}`)
          .with({ metadata: { n: 'z'.repeat(200) } })
          .build(),
        [],
      );
    const leaves = db.prepare("SELECT pageno FROM dbstat WHERE name = 'orders' AND pagetype = 'leaf'").pluck().all() as number[];
    const pageSize = db.prepare('PRAGMA page_size').pluck().get() as number;
    await before.stop();
    const fd = openSync(folder.path, 'r+');
    for (const leaf of leaves) writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (leaf - 1) * pageSize);
    closeSync(fd);
    open();

    const failure = await rejectionOf(storage.orders.list(dashboardId, { page: 1, pageSize: 20 }));
    expect(failure).to.be.instanceOf(StorageUnavailableError);
    expect(failure.message).to.equal('SQLite store unavailable (SQLITE_CORRUPT): the file is corrupt: restore it from a backup');

    const log = memoryLogger();
    const api = await TestApi.start({}, { storage, logger: log.logger });
    try {
      const res = await api.request('GET', ORDERS, { token });
      expectProblem(res, 503, 'SERVICE_UNAVAILABLE');
      expectNoInternals(res);
      expect(log.lines.join('\n')).to.include('SQLITE_CORRUPT');
      expect((await api.request('GET', '/healthz')).status).to.equal(200);
    } finally {
      await api.stop();
    }
  });

  describe('a row that is not what this service writes', () => {
    /**
     * Each way a stored order can go wrong in a value SQLite accepts, the field the log must name, and
     * whether a listing reads that column (the summary's columns) and so must fail on it too.
     */
    const CORRUPTIONS: { field: string; set: string; listed: boolean }[] = [
      { field: 'gross_cents', set: 'gross_cents = -1', listed: true },
      { field: 'net_to_seller_cents', set: 'net_to_seller_cents = 100000000000000', listed: true },
      { field: 'status', set: `status = '${SECRET_VALUE}'`, listed: true },
      { field: 'is_test', set: 'is_test = 2', listed: true },
      { field: 'created_at', set: 'created_at = 9000000000000000', listed: true },
      { field: 'chargedback_at', set: 'chargedback_at = -9000000000000000', listed: true },
      { field: 'products', set: `products = '{${SECRET_VALUE}'`, listed: false },
      { field: 'products.0.quantity', set: `products = '[{"name":"${SECRET_VALUE}","quantity":0,"unitPriceCents":1}]'`, listed: false },
      { field: 'metadata', set: `metadata = '[1, "${SECRET_VALUE}"]'`, listed: false },
      { field: 'version', set: 'version = 0', listed: false },
      { field: 'paid_at', set: 'paid_at = 9000000000000000', listed: true },
    ];

    for (const { field, set, listed } of CORRUPTIONS) {
      it(`rejects an order whose ${field} is corrupt with CorruptRowError, and logs the table, id and field only${listed ? '' : '; a listing, which does not read it, lists the order'}`, async () => {
        await storage.orders.insert(
          anOrder()
            .with({ id: 'ord_corrupt', externalId: 'c-1', metadata: { a: 1 } })
            .paid()
            .build(),
          [],
        );
        db.prepare(`UPDATE orders SET ${set} WHERE id = 'ord_corrupt'`).run();

        const failure = await rejectionOf(storage.orders.findByExternalId('dsh_a', 'c-1'));
        expect(failure).to.be.instanceOf(CorruptRowError);
        expect(failure.message).to.equal(`orders row ord_corrupt is corrupt at ${field}`);
        if (listed) expect(await rejectionOf(storage.orders.list('dsh_a', { page: 1, pageSize: 20 }))).to.be.instanceOf(CorruptRowError);
        else
          expect((await storage.orders.list('dsh_a', { page: 1, pageSize: 20 })).orders.map((order) => order.id)).to.deep.equal([
            'ord_corrupt',
          ]);
        expect(logged('corrupt row in SQLite')).to.have.lengthOf(listed ? 2 : 1);
        expect(logged('corrupt row in SQLite')[0]).to.include({ level: 'error', table: 'orders', rowId: 'ord_corrupt', field });
        expect(logs.join('\n')).not.to.include(SECRET_VALUE);
      });
    }

    it('rejects an outbox whose event is corrupt, naming the event and the field, and still reads the order', async () => {
      const order = anOrder().with({ id: 'ord_e', externalId: 'e-1' }).build();
      await storage.orders.insert(order, [{ id: 'evt_1', type: 'order.created', occurredAt: order.updatedAt, order }]);
      db.prepare(
        `UPDATE order_events SET order_row = json_set(order_row, '$.currency', 7, '$.platform', '${SECRET_VALUE}') WHERE id = 'evt_1'`,
      ).run();
      const failure = await rejectionOf(storage.orders.outboxOf('dsh_a', 'e-1'));
      expect(failure.message).to.equal('order_events row evt_1 is corrupt at order_row.currency');
      expect(logs.join('\n')).not.to.include(SECRET_VALUE);
      expect(await storage.orders.findByExternalId('dsh_a', 'e-1')).to.deep.equal(O.some(order));
    });

    it('answers 500 INTERNAL_ERROR over HTTP, without the content', async () => {
      const log = memoryLogger();
      const api = await TestApi.start({}, { storage, logger: log.logger });
      try {
        const { token, dashboardId } = await api.newDashboard();
        await storage.orders.insert(anOrder().inDashboard(dashboardId).with({ id: 'ord_http', externalId: 'h-1' }).build(), []);
        db.prepare(`UPDATE orders SET status = '${SECRET_VALUE}' WHERE id = 'ord_http'`).run();
        const res = await api.request('GET', `${ORDERS}/h-1`, { token });
        expectProblem(res, 500, 'INTERNAL_ERROR');
        expect(res.text).not.to.include(SECRET_VALUE);
        expect(logs.join('\n')).to.include('"field":"status"');
      } finally {
        await api.stop();
      }
    });
  });
});
