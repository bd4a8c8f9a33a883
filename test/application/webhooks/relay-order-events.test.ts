import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import { orderDetail, orderListItem } from '../../../src/adapters/http/orders/order-presenters';
import { ApiWebhookPayloads } from '../../../src/adapters/http/webhooks/webhook-payloads';
import { inMemoryStorage } from '../../../src/adapters/memory/in-memory-storage';
import { CreateOrder } from '../../../src/application/orders/create-order';
import type { Storage } from '../../../src/application/ports/storage';
import type { WebhookOutbox } from '../../../src/application/ports/webhook-outbox';
import { RelayOrderEvents } from '../../../src/application/webhooks/relay-order-events';
import { CountingNudge } from '../../support/counting-nudge';
import { MutableClock, TEST_EPOCH } from '../../support/mutable-clock';
import { aNewOrder } from '../../support/order-builder';
import { SequenceIds } from '../../support/sequence-ids';
import { anEndpoint } from '../../support/webhook-builders';

describe('RelayOrderEvents', () => {
  let storage: Storage;
  let nudge: CountingNudge;
  let ids: SequenceIds;
  const clock = new MutableClock();
  const relayOn = (outbox: WebhookOutbox): RelayOrderEvents =>
    new RelayOrderEvents(outbox, storage.webhooks, new ApiWebhookPayloads(), nudge, ids, clock, storage.adAccounts, {
      conversionsDue: () => undefined,
    });
  const create = async (externalId: string, status: 'pending' | 'paid' = 'pending', dashboardId = 'dsh_a') => {
    const created = await new CreateOrder(storage.orders, ids, clock, nudge).execute(dashboardId, aNewOrder({ externalId, status }));
    if (E.isLeft(created)) throw new Error('not created');
    return created.right;
  };
  const deliveries = async (endpointId: string) =>
    (await storage.deliveries.list('dsh_a', endpointId, { page: 1, pageSize: 100 })).deliveries;

  beforeEach(async () => {
    storage = inMemoryStorage();
    nudge = new CountingNudge();
    ids = new SequenceIds();
    await storage.webhooks.insert(anEndpoint('whk_all'), 20);
    await storage.webhooks.insert(anEndpoint('whk_paid', { events: ['order.paid'] }), 20);
    await storage.webhooks.insert(anEndpoint('whk_off', { enabled: false }), 20);
    await storage.webhooks.insert(anEndpoint('whk_theirs', { dashboardId: 'dsh_b' }), 20);
  });

  it('makes one delivery per event and subscribed, enabled endpoint of the dashboard, then empties the outbox', async () => {
    await create('o-1', 'paid');
    expect(await relayOn(storage.outbox).execute(100)).to.equal(1);
    expect((await deliveries('whk_all')).map((d) => d.eventType).sort()).to.deep.equal(['order.created', 'order.paid']);
    expect((await deliveries('whk_paid')).map((d) => d.eventType)).to.deep.equal(['order.paid']);
    expect(await deliveries('whk_off')).to.deep.equal([]);
    expect((await storage.deliveries.list('dsh_b', 'whk_theirs', { page: 1, pageSize: 10 })).total).to.equal(0);
    expect(await storage.orders.outboxOf('dsh_a', 'o-1')).to.deep.equal([]);
    expect(nudge.dueDeliveries).to.equal(1);
    expect(await relayOn(storage.outbox).execute(100)).to.equal(0);
  });

  it('gives each delivery the rendered body (the order as GET shows it) and the reduced payload of the log', async () => {
    const order = await create('o-1');
    await relayOn(storage.outbox).execute(100);
    const [delivery] = await deliveries('whk_all');
    const body = JSON.parse(delivery.body);
    expect(body).to.deep.equal({
      id: delivery.eventId,
      type: 'order.created',
      timestamp: TEST_EPOCH,
      data: { order: JSON.parse(JSON.stringify(orderDetail(order))) },
    });
    expect(delivery.payload).to.deep.equal({ ...body, data: { order: orderListItem(order) } });
  });

  it('empties the outbox of a dashboard without endpoints, making no delivery and no nudge', async () => {
    await create('o-1', 'paid', 'dsh_none');
    expect(await relayOn(storage.outbox).execute(100)).to.equal(1);
    expect(await storage.outbox.pending(100)).to.deep.equal([]);
    expect(nudge.dueDeliveries).to.equal(0);
  });

  it('relays the outboxes of dashboards without endpoints in the quick step alone, and the others in the same step', async () => {
    let pendingReads = 0;
    const counting: WebhookOutbox = {
      ...storage.outbox,
      relayUnsubscribed: (limit) => storage.outbox.relayUnsubscribed(limit),
      relay: (entry, made) => storage.outbox.relay(entry, made),
      backlog: () => storage.outbox.backlog(),
      pending: (limit) => {
        pendingReads++;
        return storage.outbox.pending(limit);
      },
    };
    await create('o-1', 'paid', 'dsh_none');
    await create('o-2', 'paid', 'dsh_none');
    expect(await relayOn(counting).execute(100)).to.equal(2);
    expect(pendingReads, 'nothing was left for pending to read').to.equal(0);
    await create('o-3', 'paid', 'dsh_none');
    await create('o-4', 'paid');
    expect(await relayOn(counting).execute(100)).to.equal(2);
    expect(pendingReads).to.equal(1);
    expect((await deliveries('whk_all')).map((d) => d.eventType).sort()).to.deep.equal(['order.created', 'order.paid']);
    expect(await storage.outbox.backlog()).to.equal(0);
    expect(await relayOn(counting).execute(100)).to.equal(0);
  });

  it('makes no delivery twice when it dies after storing the deliveries and before emptying the outbox', async () => {
    await create('o-1', 'paid');
    const dying: WebhookOutbox = {
      pending: (limit) => storage.outbox.pending(limit),
      relayUnsubscribed: (limit) => storage.outbox.relayUnsubscribed(limit),
      backlog: () => storage.outbox.backlog(),
      relay: async (_entry, made) => {
        for (const delivery of made) await storage.deliveries.insert(delivery);
        throw new Error('killed');
      },
    };
    const failure = await relayOn(dying)
      .execute(100)
      .catch((err: unknown) => err);
    expect(failure).to.be.instanceOf(Error);
    expect(await deliveries('whk_all')).to.have.length(2);
    expect(await storage.orders.outboxOf('dsh_a', 'o-1')).to.have.length(2);
    await relayOn(storage.outbox).execute(100);
    expect(await deliveries('whk_all')).to.have.length(2);
    expect(await deliveries('whk_paid')).to.have.length(1);
    expect(await storage.orders.outboxOf('dsh_a', 'o-1')).to.deep.equal([]);
  });

  it('makes each delivery once when two relays run at once (two instances)', async () => {
    for (let i = 0; i < 5; i++) await create(`o-${i}`, 'paid');
    await Promise.all([relayOn(storage.outbox).execute(100), relayOn(storage.outbox).execute(100)]);
    expect(await deliveries('whk_all')).to.have.length(10);
    expect(new Set((await deliveries('whk_all')).map((d) => d.eventId)).size).to.equal(10);
  });

  it('reads subscriptions at relay time: an endpoint deleted since the change gets nothing', async () => {
    await create('o-1');
    await storage.webhooks.delete('dsh_a', 'whk_all');
    await relayOn(storage.outbox).execute(100);
    expect(await deliveries('whk_all')).to.deep.equal([]);
  });
});
