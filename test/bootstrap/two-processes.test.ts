import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import type { Document } from 'mongodb';
import { describeWithMongo } from '../support/mongo-server';
import { anOrderPayload } from '../support/order-builder';
import { RunningMain } from './running-main';

const MAX = 60;
const BURST = 150;

/** `r` (remaining) and `t` (seconds to reset) of a RateLimit header. */
const rateLimitOf = (headers: Headers): { remaining: number; resetSeconds: number } => {
  const match = /;r=(\d+);t=(\d+)/.exec(headers.get('ratelimit') ?? '');
  if (match === null) throw new Error(`no RateLimit header: ${headers.get('ratelimit')}`);
  return { remaining: Number(match[1]), resetSeconds: Number(match[2]) };
};

/**
 * Two `node main.js` processes on one MongoDB database, as two replicas behind a load balancer, each
 * request of a burst to the other process in turn (decisions 0007, 0009).
 */
describeWithMongo('two service processes on one MongoDB database', (mongo) => {
  let processes: RunningMain[] = [];
  const orders = () => mongo.client.db(mongo.dbName).collection<Document>('orders');
  const deliveries = () => mongo.client.db(mongo.dbName).collection<Document>('webhook_deliveries');

  /**
   * The events stored for an order, wherever they are now: the relay takes them out of the order's
   * outbox into one delivery per subscribed endpoint. Waits for the outbox to empty.
   */
  const eventsOf = async (externalId: string, endpointId: string): Promise<string[]> => {
    for (let waited = 0; waited < 10_000; waited += 50) {
      const stored = await orders().findOne({ externalId });
      if (((stored?.['outbox'] as Document[] | undefined) ?? []).length === 0) break;
      await sleep(50);
    }
    const made = await deliveries().find({ endpointId, 'payload.data.order.externalId': externalId }).toArray();
    return made.map((delivery) => delivery['eventType'] as string);
  };

  before(async function () {
    this.timeout(60_000);
    const env = {
      MONGODB_URI: mongo.uri,
      MONGODB_DB: mongo.dbName,
      RATE_LIMIT_MAX: String(MAX),
      RATE_LIMIT_WINDOW_SECONDS: '86400',
      // The events of the orders go to an endpoint on a closed loopback port: they are counted as its deliveries.
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    };
    processes = [await RunningMain.start(env), await RunningMain.start(env)];
  });
  after(() => Promise.all(processes.map((running) => running.proc.dispose())));

  const alternating = <A>(count: number, call: (running: RunningMain, i: number) => Promise<A>): Promise<A[]> =>
    Promise.all(Array.from({ length: count }, (_, i) => call(processes[i % 2], i)));

  // Relies on an atomic $inc of one counter document: with an increment that reads and writes
  // apart, more requests than the limit pass and some share a remaining count.
  it(`share one exact rate limit: of ${BURST} parallel requests, exactly the remaining ones pass, each with its own count (atomic $inc)`, async function () {
    this.timeout(60_000);
    const { token } = await processes[0].newDashboard('Limited shop');
    const probe = rateLimitOf((await processes[1].call('GET', '/api/v1/orders', token)).headers);
    let { remaining } = probe;
    if (probe.resetSeconds < 10) {
      // The daily window is about to end: start the burst in the next one rather than across both.
      await sleep((probe.resetSeconds + 1) * 1000);
      remaining = MAX;
    }
    const burst = await alternating(BURST, (running) => running.call('GET', '/api/v1/orders', token));
    const allowed = burst.filter((res) => res.status === 200);
    expect(allowed).to.have.length(remaining);
    expect(allowed.map((res) => rateLimitOf(res.headers).remaining).sort((a, b) => a - b)).to.deep.equal(
      Array.from({ length: remaining }, (_, i) => i),
    );
    for (const refused of burst.filter((res) => res.status !== 200)) {
      expect(refused.status).to.equal(429);
      expect(refused.body.code).to.equal('RATE_LIMIT_EXCEEDED');
    }
  });

  // Relies on a unique key for the claim and an atomic conditional update for its completion.
  it('execute one Idempotency-Key once: one order and one event per key, every other answer a replay or 409 (unique key)', async function () {
    this.timeout(60_000);
    const { token, dashboardId } = await processes[0].newDashboard('Keyed shop');
    const endpoint = await processes[0].call('POST', '/api/v1/webhooks', token, { url: 'http://127.0.0.1:9/closed' });
    expect(endpoint.status).to.equal(201);
    for (let round = 0; round < 3; round++) {
      const externalId = `keyed-${round}`;
      const headers = { 'idempotency-key': `key-${round}` };
      const answers = await alternating(10, (running) =>
        running.call('POST', '/api/v1/orders', token, anOrderPayload({ externalId }), headers),
      );
      const created = answers.filter((res) => res.status === 201);
      for (const res of answers) if (res.status !== 201) expect(res.body.code, `round ${round}`).to.equal('IDEMPOTENCY_KEY_IN_PROGRESS');
      expect(
        created.filter((res) => res.headers.get('idempotent-replayed') === null),
        `round ${round}`,
      ).to.have.length(1);
      for (const res of created) expect(res.body).to.deep.equal(created[0].body);
      const stored = await orders().find({ dashboardId, externalId }).toArray();
      expect(stored, `round ${round}`).to.have.length(1);
      expect(await eventsOf(externalId, endpoint.body.webhook.id as string), `round ${round}`).to.deep.equal(['order.created']);
      for (const running of processes) {
        const replay = await running.call('POST', '/api/v1/orders', token, anOrderPayload({ externalId }), headers);
        expect(replay.status).to.equal(201);
        expect(replay.headers.get('idempotent-replayed')).to.equal('true');
        expect(replay.body).to.deep.equal(created[0].body);
      }
    }

    const patchKey = { 'idempotency-key': 'patch-key' };
    const patched = await alternating(10, (running) =>
      running.call('PATCH', '/api/v1/orders/keyed-0', token, { metadata: { once: true } }, patchKey),
    );
    for (const res of patched) if (res.status !== 200) expect(res.body.code).to.equal('IDEMPOTENCY_KEY_IN_PROGRESS');
    expect(patched.filter((res) => res.status === 200 && res.headers.get('idempotent-replayed') === null)).to.have.length(1);
    expect((await processes[1].call('GET', '/api/v1/orders/keyed-0', token)).body.order.version).to.equal(2);
  });
});
