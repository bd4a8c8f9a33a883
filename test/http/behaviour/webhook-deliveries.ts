import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { createOrder, orderPath, readListItem, readOrder, useApi, type Harness, type StorageFactory } from '../harness';
import { expectProblem } from '../problem-assertions';
import { anOrderPayload } from '../../support/order-builder';
import { eventually, WebhookReceiver, type ReceivedRequest } from '../../support/webhook-receiver';
import { createWebhook, deliveriesOf, readWebhook, WEBHOOKS } from './webhook-support';

/** Every field of an order, the personal and free-form ones included. */
const aFullPayload = (externalId: string, changes: Record<string, unknown> = {}) =>
  anOrderPayload({
    externalId,
    customer: { name: 'Zoë', email: 'zoe@example.com' },
    fees: { gateway: 199 },
    metadata: { note: 'gift' },
    trackingExtras: { gclid: 'abc' },
    ...changes,
  });

const eventsOf = (receiver: WebhookReceiver, secret: string, requests: readonly ReceivedRequest[] = receiver.received): any[] =>
  receiver.verified(secret, requests);

/** The deliveries of the endpoint once none is pending any more. */
const settledDeliveries = (h: Harness, webhookId: string, count: number): Promise<any[]> =>
  eventually(`${count} settled deliveries`, async () => {
    const log = await deliveriesOf(h, webhookId, '?pageSize=100');
    return log.total === count && log.deliveries.every((d: { status: string }) => d.status !== 'pending') ? log.deliveries : undefined;
  });

/** Webhook deliveries to real receivers on loopback (decision 0012), verified as a receiver would. */
export const webhookDeliveriesBehaviour = (storageFactory: StorageFactory): void => {
  describe('webhook deliveries', () => {
    const h = useApi(storageFactory, { config: { transitions: { pending: ['paid', 'refused'], paid: ['refunded', 'chargedback'] } } });
    const receivers: WebhookReceiver[] = [];
    const receiver = async (...args: Parameters<typeof WebhookReceiver.start>): Promise<WebhookReceiver> => {
      const started = await WebhookReceiver.start(...args);
      receivers.push(started);
      return started;
    };
    afterEach(async () => {
      await Promise.all(receivers.splice(0).map((r) => r.stop()));
    });
    const call = (method: string, path: string, body?: unknown, token = h.token) => h.api.request(method, path, { token, body });

    it('sends each event of a creation, signed (standardwebhooks verifies it), with the order as GET answers it', async () => {
      const hooks = await receiver();
      const endpoint = await createWebhook(h, { url: hooks.url() });
      await createOrder(h, aFullPayload('full-1', { status: 'paid' }));
      const requests = await hooks.waitFor(2);
      const events = eventsOf(hooks, endpoint.secret, requests).sort((a, b) => a.type.localeCompare(b.type));
      expect(events.map((event) => event.type)).to.deep.equal(['order.created', 'order.paid']);
      const order = await readOrder(h, 'full-1');
      for (const event of events) {
        expect(Object.keys(event)).to.deep.equal(['id', 'type', 'timestamp', 'data']);
        expect(event.id).to.match(/^evt_[A-Za-z0-9]{22}$/);
        expect(event.data).to.deep.equal({ order });
        expect(event.data.order.version).to.equal(1);
        expect(new Date(event.timestamp).toISOString()).to.equal(event.timestamp);
      }
      for (const request of requests) expect(request.headers['webhook-id']).to.equal(JSON.parse(request.body).id);
      expect(new Set(events.map((event) => event.id)).size).to.equal(2);
    });

    it('sends order.updated and the status entered, with previousStatus and the next version, for a PATCH', async () => {
      const hooks = await receiver();
      const endpoint = await createWebhook(h, { url: hooks.url() });
      await createOrder(h, { externalId: 'p-1' });
      await hooks.waitFor(1);
      expect((await call('PATCH', orderPath('p-1'), { status: 'paid' })).status).to.equal(200);
      const events = eventsOf(hooks, endpoint.secret, (await hooks.waitFor(3)).slice(1)).sort((a, b) => a.type.localeCompare(b.type));
      expect(
        events.map((event) => [event.type, event.data.previousStatus, event.data.order.version, event.data.order.status]),
      ).to.deep.equal([
        ['order.paid', 'pending', 2, 'paid'],
        ['order.updated', 'pending', 2, 'paid'],
      ]);
      expect(events[0].data.order).to.deep.equal(await readOrder(h, 'p-1'));
      expect((await call('PATCH', orderPath('p-1'), { metadata: { n: 1 } })).status).to.equal(200);
      const [updated] = eventsOf(hooks, endpoint.secret, (await hooks.waitFor(4)).slice(3));
      expect(updated.type).to.equal('order.updated');
      expect(updated.data).not.to.have.property('previousStatus');
      expect(updated.data.order.version).to.equal(3);
    });

    it("sends each endpoint the types it subscribes to, and nothing to another dashboard's endpoints", async () => {
      const [all, payments, theirs] = [await receiver(), await receiver(), await receiver()];
      const allEndpoint = await createWebhook(h, { url: all.url() });
      const paymentsEndpoint = await createWebhook(h, { url: payments.url(), events: ['order.paid', 'order.refunded'] });
      const other = await h.api.newDashboard('Other shop');
      const theirEndpoint = await createWebhook(h, { url: theirs.url() }, other.token);
      await createOrder(h, { externalId: 'mine', status: 'paid' });
      await createOrder(h, { externalId: 'theirs' }, other.token);
      await all.waitFor(2);
      await payments.waitFor(1);
      await theirs.waitFor(1);
      await settledDeliveries(h, allEndpoint.id, 2);
      expect(eventsOf(payments, paymentsEndpoint.secret).map((event) => [event.type, event.data.order.externalId])).to.deep.equal([
        ['order.paid', 'mine'],
      ]);
      expect(eventsOf(theirs, theirEndpoint.secret).map((event) => [event.type, event.data.order.externalId])).to.deep.equal([
        ['order.created', 'theirs'],
      ]);
      expect(eventsOf(all, allEndpoint.secret).map((event) => event.data.order.externalId)).to.deep.equal(['mine', 'mine']);
      expect((await deliveriesOf(h, theirEndpoint.id, '', other.token)).total).to.equal(1);
    });

    it("keeps a log of each delivery with the reduced payload (a list item), its attempts and the start of the receiver's reply; by page and status", async () => {
      const reply = '<script>alert("the receiver")</script> {"error":"try later"} ção';
      const hooks = await receiver((_request, index) => ({ status: index === 0 ? 500 : 200, ...(index === 0 ? { body: reply } : {}) }));
      const endpoint = await createWebhook(h, { url: hooks.url() });
      await createOrder(h, aFullPayload('logged', { status: 'paid' }));
      const deliveries = await settledDeliveries(h, endpoint.id, 2);
      const item = await readListItem(h, 'logged');
      for (const delivery of deliveries) {
        expect(Object.keys(delivery)).to.have.members(['id', 'eventId', 'eventType', 'status', 'attempts', 'createdAt', 'payload']);
        expect(delivery.id).to.match(/^dlv_/);
        expect(delivery.status).to.equal('succeeded');
        expect(delivery.payload).to.deep.equal({
          id: delivery.eventId,
          type: delivery.eventType,
          timestamp: delivery.payload.timestamp,
          data: { order: item },
        });
      }
      expect(deliveries.map((d: { attempts: unknown[] }) => d.attempts.length).sort()).to.deep.equal([1, 2]);
      // The first request got the 500 and its body; every other answer had none.
      const attempts = deliveries.flatMap((d: { attempts: { responseStatus: number }[] }) => d.attempts);
      const [failed, ...others] = [...attempts].sort((a, b) => b.responseStatus - a.responseStatus);
      expect(Object.keys(failed)).to.have.members(['at', 'durationMs', 'responseStatus', 'responseBody', 'responseBodyTruncated']);
      expect(failed).to.include({ responseStatus: 500, responseBody: reply, responseBodyTruncated: false });
      // The reply is the receiver's text: the log says what came of the attempt, never what the receiver wrote.
      expect(h.logs.some((line) => line.includes('"webhook attempt"') && line.includes('"responseStatus":500'))).to.equal(true);
      expect(h.logs.join('\n')).not.to.include('the receiver');
      for (const attempt of others) expect(Object.keys(attempt)).to.have.members(['at', 'durationMs', 'responseStatus']);
      const text = JSON.stringify(await deliveriesOf(h, endpoint.id));
      for (const hidden of ['Zoë', 'zoe@example.com', 'gateway', 'gift', 'gclid', 'T-shirt']) expect(text).not.to.include(hidden);
      const page = await deliveriesOf(h, endpoint.id, '?pageSize=1&page=2&status=succeeded');
      expect(page).to.deep.include({ page: 2, pageSize: 1, total: 2 });
      expect(page.deliveries.map((d: { id: string }) => d.id)).to.deep.equal([deliveries[1].id]);
      expect((await deliveriesOf(h, endpoint.id, '?status=failed')).total).to.equal(0);
    });

    it('retries after a 500, with the same webhook-id and body, until it succeeds', async () => {
      const hooks = await receiver((_request, index) => ({ status: index < 2 ? 500 : 204 }));
      const endpoint = await createWebhook(h, { url: hooks.url() });
      await createOrder(h, { externalId: 'r-1' });
      const requests = await hooks.waitFor(3);
      expect(new Set(requests.map((r) => r.headers['webhook-id'])).size).to.equal(1);
      expect(new Set(requests.map((r) => r.body)).size).to.equal(1);
      expect(eventsOf(hooks, endpoint.secret)).to.have.length(3);
      const [delivery] = await settledDeliveries(h, endpoint.id, 1);
      expect(delivery.status).to.equal('succeeded');
      expect(delivery.attempts.map((a: { responseStatus: number }) => a.responseStatus)).to.deep.equal([500, 500, 204]);
    });

    it('fails a delivery after the last attempt of the schedule', async () => {
      const hooks = await receiver(() => ({ status: 503 }));
      const endpoint = await createWebhook(h, { url: hooks.url() });
      await createOrder(h, { externalId: 'f-1' });
      const [delivery] = await settledDeliveries(h, endpoint.id, 1);
      expect(delivery.status).to.equal('failed');
      expect(delivery.attempts).to.have.length(3);
      expect(delivery).not.to.have.property('nextAttemptAt');
      expect(hooks.received).to.have.length(3);
    });

    it('sends the test event to the endpoint whatever it subscribes to: 202 with the pending delivery', async () => {
      const hooks = await receiver();
      const endpoint = await createWebhook(h, { url: hooks.url(), events: ['order.paid'] });
      const res = await call('POST', `${WEBHOOKS}/${endpoint.id}/test`);
      expect(res.status, res.text).to.equal(202);
      expect(res.body.delivery).to.deep.include({ eventType: 'webhook.test', status: 'pending', attempts: [] });
      const [event] = eventsOf(hooks, endpoint.secret, await hooks.waitFor(1));
      expect(event).to.deep.equal({
        id: res.body.delivery.eventId,
        type: 'webhook.test',
        timestamp: event.timestamp,
        data: { webhook: { id: endpoint.id } },
      });
      expect(res.body.delivery.payload).to.deep.equal(event);
    });

    it('sends a delivery again on a manual retry, with the same webhook-id and body: one attempt more', async () => {
      const hooks = await receiver((_request, index) => ({ status: index === 1 ? 500 : 200 }));
      const endpoint = await createWebhook(h, { url: hooks.url() });
      await createOrder(h, { externalId: 'm-1' });
      const [delivery] = await settledDeliveries(h, endpoint.id, 1);
      const retried = await call('POST', `${WEBHOOKS}/${endpoint.id}/deliveries/${delivery.id}/retry`);
      expect(retried.status, retried.text).to.equal(202);
      expect(retried.body.delivery).to.deep.include({ id: delivery.id, status: 'pending' });
      const requests = await hooks.waitFor(2);
      expect(requests[1].headers['webhook-id']).to.equal(requests[0].headers['webhook-id']);
      expect(requests[1].body).to.equal(requests[0].body);
      expect(eventsOf(hooks, endpoint.secret)).to.have.length(2);
      const [after] = await settledDeliveries(h, endpoint.id, 1);
      expect(after.attempts.map((a: { responseStatus: number }) => a.responseStatus)).to.deep.equal([200, 500]);
      expect(after.status, 'a manual retry of a finished delivery is one attempt').to.equal('failed');
      expect(hooks.received).to.have.length(2);
    });

    it('disables the endpoint on a 410 Gone, with a reason; sends it nothing more until it is enabled again', async () => {
      const hooks = await receiver((_request, index) => ({ status: index === 0 ? 410 : 204 }));
      const endpoint = await createWebhook(h, { url: hooks.url() });
      await createOrder(h, { externalId: 'g-1' });
      await hooks.waitFor(1);
      const disabled = await eventually('the endpoint disabled', async () => {
        const read = await readWebhook(h, endpoint.id);
        return read.enabled ? undefined : read;
      });
      expect(disabled.disabledReason).to.match(/^The receiver answered 410 Gone on \d{4}-\d\d-\d\dT/);
      const [gone] = await settledDeliveries(h, endpoint.id, 1);
      expect(gone.status).to.equal('failed');
      expect(gone.attempts.map((a: { responseStatus: number }) => a.responseStatus)).to.deep.equal([410]);
      expectProblem(await call('POST', `${WEBHOOKS}/${endpoint.id}/deliveries/${gone.id}/retry`), 409, 'WEBHOOK_DISABLED');
      await createOrder(h, { externalId: 'g-2' });
      const sentinel = await receiver();
      await createWebhook(h, { url: sentinel.url() });
      await createOrder(h, { externalId: 'g-3' });
      // g-3 relayed (the sentinel may get g-2 first, when it is relayed after the sentinel exists).
      await eventually('g-3 relayed to the sentinel', async () =>
        sentinel.received.some((request) => JSON.parse(request.body).data.order.externalId === 'g-3'),
      );
      expect((await deliveriesOf(h, endpoint.id)).total, 'no delivery for a disabled endpoint').to.equal(1);
      const enabled = await call('PATCH', `${WEBHOOKS}/${endpoint.id}`, { enabled: true });
      expect(enabled.body.webhook).to.deep.include({ enabled: true, disabledReason: null });
      await createOrder(h, { externalId: 'g-4' });
      const [, again] = await hooks.waitFor(2);
      expect(JSON.parse(again.body).data.order.externalId).to.equal('g-4');
    });

    it('signs with both secrets for a day after a rotation: each verifies', async () => {
      const hooks = await receiver();
      const endpoint = await createWebhook(h, { url: hooks.url() });
      const rotated = (await call('POST', `${WEBHOOKS}/${endpoint.id}/rotate-secret`)).body.webhook;
      await createOrder(h, { externalId: 'rot-1' });
      const [request] = await hooks.waitFor(1);
      expect(String(request.headers['webhook-signature']).split(' ')).to.have.length(2);
      for (const secret of [rotated.secret, endpoint.secret])
        expect(new Webhook(secret).verify(request.body, request.headers as Record<string, string>)).to.have.property(
          'type',
          'order.created',
        );
    });

    it("retries a delivery to another dashboard's delivery id as not found", async () => {
      const hooks = await receiver();
      const endpoint = await createWebhook(h, { url: hooks.url() });
      const other = await h.api.newDashboard('Other shop');
      const theirs = await createWebhook(h, { url: hooks.url('/theirs') }, other.token);
      const tested = (await call('POST', `${WEBHOOKS}/${theirs.id}/test`, undefined, other.token)).body.delivery;
      expectProblem(await call('POST', `${WEBHOOKS}/${endpoint.id}/deliveries/${tested.id}/retry`), 404, 'NOT_FOUND');
      expectProblem(await call('POST', `${WEBHOOKS}/${theirs.id}/deliveries/${tested.id}/retry`), 404, 'NOT_FOUND');
    });
  });

  describe('webhook deliveries with a retry after 1 s', () => {
    const h = useApi(storageFactory, {
      config: {
        webhooks: { timeoutMs: 5_000, retrySchedule: [1, 1, 1, 1, 1], allowPrivateUrls: true, concurrency: 8, pollIntervalMs: 100 },
      },
    });

    it('retries a refused connection until the receiver is up', async () => {
      const probe = await WebhookReceiver.start();
      const port = probe.port;
      await probe.stop();
      const endpoint = await createWebhook(h, { url: `http://127.0.0.1:${port}/hook` });
      await createOrder(h, { externalId: 'down-1' });
      await eventually('a refused attempt', async () => {
        const [delivery] = (await deliveriesOf(h, endpoint.id)).deliveries;
        return delivery?.attempts.some((a: { error?: string }) => a.error === 'connection refused');
      });
      const up = await WebhookReceiver.start(undefined, port);
      try {
        const [request] = await up.waitFor(1);
        expect(up.verified(endpoint.secret, [request])[0].data.order.externalId).to.equal('down-1');
        const [delivery] = await settledDeliveries(h, endpoint.id, 1);
        expect(delivery.status).to.equal('succeeded');
        expect(delivery.attempts[0]).to.include({ error: 'connection refused' }).and.not.have.property('responseStatus');
      } finally {
        await up.stop();
      }
    });
  });

  describe('webhook deliveries with a retry after 1 s, to a deleted endpoint', () => {
    const h = useApi(storageFactory, {
      config: { webhooks: { timeoutMs: 5_000, retrySchedule: [1, 1, 1], allowPrivateUrls: true, concurrency: 8, pollIntervalMs: 100 } },
    });

    it('sends nothing more to a deleted endpoint, its pending retries included', async () => {
      const doomedReceiver = await WebhookReceiver.start(() => ({ status: 500 }));
      const sentinelReceiver = await WebhookReceiver.start((_request, index) => ({ status: index === 0 ? 500 : 204 }));
      try {
        const doomed = await createWebhook(h, { url: doomedReceiver.url() });
        await createOrder(h, { externalId: 'd-1' });
        await doomedReceiver.waitFor(1);
        await eventually('the retry scheduled', async () => (await deliveriesOf(h, doomed.id)).deliveries[0]?.nextAttemptAt);
        expect((await h.api.request('DELETE', `${WEBHOOKS}/${doomed.id}`, { token: h.token })).status).to.equal(204);
        // The sentinel's retry falls due after the deleted endpoint's would have: once it arrives, that one was not sent.
        const sentinel = await createWebhook(h, { url: sentinelReceiver.url() });
        expect((await h.api.request('POST', `${WEBHOOKS}/${sentinel.id}/test`, { token: h.token })).status).to.equal(202);
        await sentinelReceiver.waitFor(2);
        expect(doomedReceiver.received).to.have.length(1);
        expectProblem(await h.api.request('GET', `${WEBHOOKS}/${doomed.id}/deliveries`, { token: h.token }), 404, 'NOT_FOUND');
      } finally {
        await doomedReceiver.stop();
        await sentinelReceiver.stop();
      }
    });
  });

  describe('webhook deliveries with four attempts in flight (two per dashboard, one per endpoint)', () => {
    const h = useApi(storageFactory, {
      config: { webhooks: { timeoutMs: 30_000, retrySchedule: [0], allowPrivateUrls: true, concurrency: 4, pollIntervalMs: 100 } },
    });

    it('keep serving other endpoints while one endpoint does not answer', async () => {
      const slow = await WebhookReceiver.start(() => 'hang');
      const fast = await WebhookReceiver.start();
      try {
        await createWebhook(h, { url: slow.url() });
        await createWebhook(h, { url: fast.url(), events: ['order.paid'] });
        for (let i = 0; i < 4; i++) await createOrder(h, { externalId: `slow-${i}` });
        await slow.waitFor(1);
        await createOrder(h, { externalId: 'paid-1', status: 'paid' });
        const [request] = await fast.waitFor(1, 10_000);
        expect(JSON.parse(request.body).data.order.externalId).to.equal('paid-1');
        expect(slow.received, 'one attempt at a time for the slow endpoint').to.have.length(1);
      } finally {
        await slow.stop();
        await fast.stop();
      }
    });

    it("start another dashboard's delivery while one dashboard's endpoints all hang, holding half of the slots", async () => {
      const hanging = await WebhookReceiver.start(() => 'hang');
      const answering = await WebhookReceiver.start();
      try {
        // Four endpoints that never answer, three deliveries due for each: enough to take every slot.
        for (let i = 0; i < 4; i++) await createWebhook(h, { url: hanging.url(`/hook-${i}`) });
        for (let i = 0; i < 3; i++) await createOrder(h, { externalId: `hung-${i}` });
        await hanging.waitFor(2);
        const other = await h.api.newDashboard('Another shop');
        const endpoint = await createWebhook(h, { url: answering.url() }, other.token);
        await createOrder(h, { externalId: 'other-1' }, other.token);
        const [request] = await answering.waitFor(1, 10_000);
        expect(eventsOf(answering, endpoint.secret, [request])[0].data.order.externalId).to.equal('other-1');
        expect(hanging.received, "the hanging dashboard's share: half of the 4 slots").to.have.length(2);
      } finally {
        await hanging.stop();
        await answering.stop();
      }
    });
  });
};
