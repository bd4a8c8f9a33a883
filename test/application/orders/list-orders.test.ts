import { expect } from 'chai';
import { InMemoryOrderRepository } from '../../../src/adapters/memory/orders/in-memory-order-repository';
import { ListOrders } from '../../../src/application/orders/list-orders';
import { anOrder } from '../../support/order-builder';

describe('ListOrders', () => {
  let orders: InMemoryOrderRepository;
  let listOrders: ListOrders;

  beforeEach(async () => {
    orders = new InMemoryOrderRepository();
    listOrders = new ListOrders(orders);
    const order = (dashboardId: string, id: string, createdAt: string) =>
      anOrder()
        .inDashboard(dashboardId)
        .with({ id, externalId: `ext-${id}` })
        .createdAt(createdAt);
    await orders.insert(order('dsh_a', 'ord_1', '2026-01-01T00:00:00.000Z').build(), []);
    await orders.insert(order('dsh_a', 'ord_2', '2026-01-03T00:00:00.000Z').paid('2026-01-03T00:01:00.000Z').build(), []);
    await orders.insert(order('dsh_a', 'ord_3', '2026-01-02T00:00:00.000Z').build(), []);
    await orders.insert(order('dsh_b', 'ord_4', '2026-01-04T00:00:00.000Z').build(), []);
  });

  it("lists only the dashboard's orders, newest first, with their total", async () => {
    const page = await listOrders.execute('dsh_a', { page: 1, pageSize: 20 });
    expect(page.orders.map((order) => order.id)).to.deep.equal(['ord_2', 'ord_3', 'ord_1']);
    expect(page.total).to.equal(3);
  });

  it('applies the filters and counts only what matches them', async () => {
    const page = await listOrders.execute('dsh_a', {
      page: 1,
      pageSize: 20,
      status: 'pending',
      from: new Date('2026-01-02T00:00:00.000Z'),
    });
    expect(page.orders.map((order) => order.id)).to.deep.equal(['ord_3']);
    expect(page.total).to.equal(1);
  });

  it('answers an empty page with the real total past the end', async () => {
    expect(await listOrders.execute('dsh_a', { page: 3, pageSize: 2 })).to.deep.equal({ orders: [], total: 3 });
  });

  it('answers an empty list for a dashboard without orders', async () => {
    expect(await listOrders.execute('dsh_c', { page: 1, pageSize: 20 })).to.deep.equal({ orders: [], total: 0 });
  });
});
