import { expect } from 'chai';
import { inMemoryStorage } from '../../src/adapters/memory/in-memory-storage';
import { createOrder, ORDERS, useApi } from './harness';

describe('GET /api/v1/orders with after and nextCursor (decision 0019)', () => {
  const h = useApi(async () => inMemoryStorage());

  const seed = async (count: number): Promise<void> => {
    for (let i = 0; i < count; i++)
      await createOrder(h, {
        externalId: `c-${i}`,
        status: i % 2 === 0 ? 'pending' : 'paid',
        createdAt: `2026-01-01T00:00:${String(i).padStart(2, '0')}Z`,
      });
  };

  it('walks every order once with nextCursor, page after page, while orders are created', async () => {
    await seed(25);
    const first = await h.api.request('GET', `${ORDERS}?pageSize=10`, { token: h.token });
    expect(first.body).to.include({ page: 1, pageSize: 10, total: 25 });
    const seen: string[] = first.body.orders.map((o: { externalId: string }) => o.externalId);
    let cursor: string | null = first.body.nextCursor;
    while (cursor !== null) {
      await createOrder(h, { externalId: `late-${seen.length}`, createdAt: '2026-02-01T00:00:00Z' });
      const next = await h.api.request('GET', `${ORDERS}?pageSize=10&after=${cursor}`, { token: h.token });
      expect(next.status, next.text).to.equal(200);
      expect(next.body).not.to.have.property('total');
      expect(next.body).not.to.have.property('page');
      seen.push(...next.body.orders.map((o: { externalId: string }) => o.externalId));
      cursor = next.body.nextCursor;
    }
    expect(seen).to.deep.equal(Array.from({ length: 25 }, (_, i) => `c-${24 - i}`));
  });

  it('keeps the filters with the cursor and refuses it under others, with page, or made up, all at once', async () => {
    await seed(6);
    const paid = await h.api.request('GET', `${ORDERS}?status=paid&pageSize=2`, { token: h.token });
    const cursor: string = paid.body.nextCursor;
    const next = await h.api.request('GET', `${ORDERS}?status=paid&pageSize=2&after=${cursor}`, { token: h.token });
    expect(next.body.orders.map((o: { externalId: string }) => o.externalId)).to.deep.equal(['c-1']);
    expect(next.body.nextCursor).to.equal(null);
    const other = await h.api.request('GET', `${ORDERS}?status=pending&after=${cursor}`, { token: h.token });
    expect(other.status).to.equal(400);
    expect(other.body.details).to.deep.equal([
      { path: 'query.after', message: 'belongs to a listing with other filters: send the same status, from and to' },
    ]);
    const both = await h.api.request('GET', `${ORDERS}?status=paid&page=2&after=not-a-cursor`, { token: h.token });
    expect(both.body.details).to.deep.equal([
      { path: 'query.after', message: 'must not be combined with query.page' },
      { path: 'query.after', message: 'must be a nextCursor this service gave' },
    ]);
  });

  it('answers nextCursor null on the last page of the page mode', async () => {
    await seed(3);
    const all = await h.api.request('GET', `${ORDERS}?pageSize=3`, { token: h.token });
    expect(all.body.nextCursor).to.equal(null);
  });
});
