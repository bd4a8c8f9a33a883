import { expect } from 'chai';
import { createOrder, listOrders, useApi, type StorageFactory } from '../harness';

const at = (day: number, hour = 12): string => `2026-01-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00.000Z`;

/** GET /api/v1/orders: shape, order, filters and pages (specification; decision 0005). */
export const listingBehaviour = (storageFactory: StorageFactory): void => {
  describe('GET /api/v1/orders', () => {
    const h = useApi(storageFactory);

    it('answers an empty dashboard with { orders: [], page: 1, pageSize: 20, total: 0, nextCursor: null }', async () => {
      expect(await listOrders(h)).to.deep.equal({ orders: [], page: 1, pageSize: 20, total: 0, nextCursor: null });
    });

    it('lists items of the specification, dates in UTC with milliseconds, paidAt on paid orders', async () => {
      const created = await createOrder(h, { externalId: 'paid-a', status: 'paid', isTest: true, createdAt: '2026-01-02T00:04:05-03:00' });
      const body = await listOrders(h);
      expect(Object.keys(body)).to.have.members(['orders', 'page', 'pageSize', 'total', 'nextCursor']);
      expect(body.orders).to.deep.equal([
        {
          id: created.id,
          externalId: 'paid-a',
          status: 'paid',
          isTest: true,
          platform: 'shopify',
          paymentMethod: 'credit_card',
          createdAt: '2026-01-02T03:04:05.000Z',
          paidAt: '2026-01-02T03:04:05.000Z',
          amounts: { currency: 'BRL', grossCents: 10_000, netToSellerCents: 9_000 },
          tracking: { utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'black-friday' },
        },
      ]);
    });

    it('sorts by createdAt descending whatever the order of creation', async () => {
      for (const [externalId, day] of [
        ['b', 2],
        ['d', 4],
        ['a', 1],
        ['c', 3],
      ] as const) {
        await createOrder(h, { externalId, createdAt: at(day) });
      }
      const body = await listOrders(h);
      expect(body.orders.map((o: { externalId: string }) => o.externalId)).to.deep.equal(['d', 'c', 'b', 'a']);
    });

    it('breaks createdAt ties by id descending, the same on every page', async () => {
      for (let i = 0; i < 7; i++) await createOrder(h, { externalId: `tie-${i}`, createdAt: at(5) });
      const all = (await listOrders(h)).orders.map((o: { id: string }) => o.id);
      expect(all).to.deep.equal([...all].sort().reverse());
      const paged: string[] = [];
      for (let page = 1; page <= 4; page++) {
        paged.push(...(await listOrders(h, `?pageSize=2&page=${page}`)).orders.map((o: { id: string }) => o.id));
      }
      expect(paged).to.deep.equal(all);
    });

    it('filters by status and counts only the matching orders', async () => {
      await createOrder(h, { externalId: 'p1', status: 'pending' });
      await createOrder(h, { externalId: 'paid1', status: 'paid' });
      await createOrder(h, { externalId: 'p2', status: 'pending' });
      await createOrder(h, { externalId: 'r1', status: 'refused' });
      const body = await listOrders(h, '?status=pending');
      expect(body.total).to.equal(2);
      expect(body.orders.map((o: { externalId: string }) => o.externalId)).to.have.members(['p1', 'p2']);
      expect((await listOrders(h, '?status=chargedback')).total).to.equal(0);
    });

    it('keeps orders with createdAt between from and to, both inclusive', async () => {
      for (let day = 1; day <= 5; day++) await createOrder(h, { externalId: `day-${day}`, createdAt: at(day) });
      const body = await listOrders(h, `?from=${at(2)}&to=${at(4)}`);
      expect(body.orders.map((o: { externalId: string }) => o.externalId)).to.deep.equal(['day-4', 'day-3', 'day-2']);
      expect(body.total).to.equal(3);
      expect((await listOrders(h, `?from=${at(4)}`)).total).to.equal(2);
      expect((await listOrders(h, `?to=${at(1)}`)).total).to.equal(1);
      expect((await listOrders(h, `?from=${at(3)}&to=${at(3)}`)).orders[0].externalId).to.equal('day-3');
    });

    it('compares from and to as instants whatever their offset', async () => {
      await createOrder(h, { externalId: 'noon', createdAt: '2026-01-03T12:00:00Z' });
      const query = new URLSearchParams({ from: '2026-01-03T09:00:00-03:00', to: '2026-01-03T13:00:00+01:00' });
      expect((await listOrders(h, `?${query.toString()}`)).total).to.equal(1);
      expect((await listOrders(h, '?from=2026-01-03T13:00:00+01:00')).total, 'an unencoded + read as a space').to.equal(1);
      const past = new URLSearchParams({ from: '2026-01-03T12:00:00.001Z' });
      expect((await listOrders(h, `?${past.toString()}`)).total).to.equal(0);
    });

    it('combines status and dates', async () => {
      await createOrder(h, { externalId: 'old-paid', status: 'paid', createdAt: at(1) });
      await createOrder(h, { externalId: 'new-paid', status: 'paid', createdAt: at(5) });
      await createOrder(h, { externalId: 'new-pending', status: 'pending', createdAt: at(5, 13) });
      const body = await listOrders(h, `?status=paid&from=${at(3)}`);
      expect(body.orders.map((o: { externalId: string }) => o.externalId)).to.deep.equal(['new-paid']);
    });

    it('pages 20 at a time by default and reports the real total', async () => {
      for (let i = 0; i < 25; i++) await createOrder(h, { externalId: `o-${i}`, createdAt: at(1 + (i % 28)) });
      const first = await listOrders(h);
      expect(first).to.include({ page: 1, pageSize: 20, total: 25 });
      expect(first.orders).to.have.length(20);
      const second = await listOrders(h, '?page=2');
      expect(second).to.include({ page: 2, pageSize: 20, total: 25 });
      expect(second.orders).to.have.length(5);
      const ids = new Set([...first.orders, ...second.orders].map((o: { id: string }) => o.id));
      expect(ids.size).to.equal(25);
    });

    it('honours pageSize from 1 to 100', async () => {
      for (let i = 0; i < 3; i++) await createOrder(h, { externalId: `s-${i}` });
      expect(await listOrders(h, '?pageSize=1')).to.deep.include({ page: 1, pageSize: 1, total: 3 });
      expect((await listOrders(h, '?pageSize=1')).orders).to.have.length(1);
      expect((await listOrders(h, '?pageSize=100')).orders).to.have.length(3);
      expect((await listOrders(h, '?pageSize=100')).pageSize).to.equal(100);
    });

    it('answers a page past the end with orders [] and the real total', async () => {
      for (let i = 0; i < 3; i++) await createOrder(h, { externalId: `e-${i}` });
      expect(await listOrders(h, '?page=2&pageSize=3')).to.deep.equal({ orders: [], page: 2, pageSize: 3, total: 3, nextCursor: null });
      expect(await listOrders(h, '?page=500')).to.deep.equal({ orders: [], page: 500, pageSize: 20, total: 3, nextCursor: null });
    });

    it('answers a page far past the end with orders [] too: a large page is an integer >= 1, not an error', async () => {
      await createOrder(h, { externalId: 'only' });
      expect(await listOrders(h, '?page=2000000')).to.deep.equal({ orders: [], page: 2_000_000, pageSize: 20, total: 1, nextCursor: null });
    });
  });
};
