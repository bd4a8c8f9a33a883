import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import { InMemoryOrderRepository } from '../../../src/adapters/memory/orders/in-memory-order-repository';
import { GetOrder } from '../../../src/application/orders/get-order';
import { anOrder } from '../../support/order-builder';

describe('GetOrder', () => {
  let orders: InMemoryOrderRepository;
  let getOrder: GetOrder;

  beforeEach(() => {
    orders = new InMemoryOrderRepository();
    getOrder = new GetOrder(orders);
  });

  it("returns the dashboard's order with this externalId", async () => {
    const order = anOrder().inDashboard('dsh_a').withExternalId('order-1').paid().build();
    await orders.insert(order, []);
    expect(await getOrder.execute('dsh_a', 'order-1')).to.deep.equal(E.right(order));
  });

  it('answers OrderNotFound for an unknown externalId', async () => {
    expect(await getOrder.execute('dsh_a', 'nope')).to.deep.equal(E.left({ _tag: 'OrderNotFound', externalId: 'nope' }));
  });

  it("answers OrderNotFound for another dashboard's order, exactly as for a missing one", async () => {
    await orders.insert(anOrder().inDashboard('dsh_a').withExternalId('order-1').build(), []);
    expect(await getOrder.execute('dsh_b', 'order-1')).to.deep.equal(E.left({ _tag: 'OrderNotFound', externalId: 'order-1' }));
  });
});
