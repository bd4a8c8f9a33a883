import { expect } from 'chai';
import { InMemoryOrderRepository } from '../../../src/adapters/memory/orders/in-memory-order-repository';
import type { OrderQuery } from '../../../src/application/ports/order-repository';
import type { Storage } from '../../../src/application/ports/storage';
import { ORDER_STATUSES } from '../../../src/domain/order-status';
import { anOrder } from '../../support/order-builder';
import { temporarySqliteStorage } from '../../support/sqlite-files';

/**
 * Dated totals and deep pages come from the report totals on SQLite (dated-counts.ts): every page and
 * total must be what the plain listing (the in-memory store, which filters and sorts every order) gives,
 * at any depth, with and without dates and status, with orders on the boundaries of months, days and
 * quarter hours, and after status changes.
 */
describe('SQLite listing from the counts: deep pages and dated totals', function () {
  this.timeout(60_000);
  let storage: Storage;
  const reference = new InMemoryOrderRepository();

  before(async () => {
    storage = temporarySqliteStorage();
    const base = Date.UTC(2026, 0, 30, 23, 0);
    for (let i = 0; i < 3_000; i++) {
      // Several orders per instant (ties broken by id), and instants on period boundaries.
      const at = base + Math.floor(i / 3) * 37 * 60_000 + (i % 7 === 0 ? 0 : 1);
      const order = anOrder()
        .inDashboard('dsh_a')
        .with({ id: `ord_${String(i).padStart(5, '0')}`, externalId: `e-${i}`, createdAt: new Date(at), status: ORDER_STATUSES[i % 5] })
        .build();
      await storage.orders.insert(order, []);
      await reference.insert(order, []);
    }
    for (let i = 0; i < 3_000; i += 11) {
      const found = await reference.findByExternalId('dsh_a', `e-${i}`);
      if (found._tag === 'None') continue;
      const changed = { ...found.value, status: 'paid' as const, version: found.value.version + 1 };
      expect(await storage.orders.replace(changed, [])).to.equal(true);
      await reference.replace(changed, []);
    }
  });

  after(async () => {
    await storage.health.close();
  });

  const queries: OrderQuery[] = [
    { page: 1, pageSize: 100 },
    { page: 25, pageSize: 100 },
    { page: 30, pageSize: 100 },
    { page: 31, pageSize: 100 },
    { page: 40, pageSize: 77, status: 'paid' },
    { page: 3, pageSize: 50, status: 'pending', from: new Date(Date.UTC(2026, 1, 1)), to: new Date(Date.UTC(2026, 1, 20, 12, 7, 30)) },
    { page: 1, pageSize: 100, from: new Date(Date.UTC(2026, 1, 2, 3, 4, 5, 6)) },
    { page: 12, pageSize: 100, from: new Date(Date.UTC(2026, 0, 1)), to: new Date(Date.UTC(2026, 2, 1)) },
    { page: 2, pageSize: 10, to: new Date(Date.UTC(2026, 0, 31, 0, 15)) },
    { page: 1, pageSize: 10, from: new Date(Date.UTC(2027, 0, 1)) },
  ];

  for (const query of queries) {
    it(`answers ${JSON.stringify(query)} as the plain listing does`, async () => {
      const got = await storage.orders.list('dsh_a', query);
      const want = await reference.list('dsh_a', query);
      expect(got.total).to.equal(want.total);
      expect(got.orders.map((o) => o.id)).to.deep.equal(want.orders.map((o) => o.id));
    });
  }
});
