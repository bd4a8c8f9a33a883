import { expect } from 'chai';
import type { BackgroundWorker } from '../../src/application/ports/background-worker';
import { inMemoryStorage } from '../../src/adapters/memory/in-memory-storage';
import { startService } from '../../src/bootstrap/service';
import { anOrderPayload } from '../support/order-builder';
import { testConfig } from '../support/test-config';
import { TestApi } from '../support/test-api';
import { eventually, WebhookReceiver } from '../support/webhook-receiver';
import { expectProblem } from '../http/problem-assertions';

/** A worker that records what happens to it, with a job in flight until `finish` is called. */
const recordingWorker = (events: string[], name = 'recorder') => {
  let finish!: () => void;
  const inFlight = new Promise<void>((resolve) => (finish = resolve));
  const worker: BackgroundWorker & { finish: () => void; aborted: boolean } = {
    name,
    aborted: false,
    finish,
    start: () => events.push(`${name} started`),
    stop: async (deadline) => {
      events.push(`${name} stopping`);
      deadline.addEventListener('abort', () => {
        worker.aborted = true;
        finish();
      });
      await inFlight;
      events.push(`${name} stopped`);
    },
  };
  return worker;
};

const recordingStorage = (events: string[]) => {
  const storage = inMemoryStorage();
  return {
    ...storage,
    health: {
      ping: () => storage.health.ping(),
      canWrite: () => storage.health.canWrite(),
      close: async () => void events.push('storage closed'),
    },
  };
};

describe('service lifecycle: workers and the shutdown order', () => {
  it('starts the workers once it listens, and stops in order: connections and work, then storage', async () => {
    const events: string[] = [];
    const worker = recordingWorker(events);
    const service = await startService(testConfig(), { storage: recordingStorage(events), workers: [worker] });
    expect(service.server.listening).to.equal(true);
    expect(events).to.deep.equal(['recorder started']);
    const stopping = service.stop();
    await new Promise((done) => setTimeout(done, 50));
    expect(service.server.listening, 'no new connections while work finishes').to.equal(false);
    expect(events).to.deep.equal(['recorder started', 'recorder stopping']);
    worker.finish();
    await stopping;
    expect(events).to.deep.equal(['recorder started', 'recorder stopping', 'recorder stopped', 'storage closed']);
    expect(worker.aborted).to.equal(false);
  });

  it('lets a request in flight finish before storage is closed', async () => {
    const events: string[] = [];
    const storage = recordingStorage(events);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slowStorage = {
      ...storage,
      orders: Object.assign(Object.create(storage.orders) as typeof storage.orders, {
        list: async (...args: Parameters<typeof storage.orders.list>) => {
          events.push('request reached storage');
          await held;
          events.push('request done with storage');
          return storage.orders.list(...args);
        },
      }),
    };
    const api = await TestApi.start({}, { storage: slowStorage });
    const { token } = await api.newDashboard();
    const listing = api.request('GET', '/api/v1/orders', { token });
    while (!events.includes('request reached storage')) await new Promise((done) => setTimeout(done, 5));
    const stopping = api.stop();
    await new Promise((done) => setTimeout(done, 50));
    expect(events).not.to.include('storage closed');
    release();
    expect((await listing).status).to.equal(200);
    await stopping;
    expect(events).to.deep.equal(['request reached storage', 'request done with storage', 'storage closed']);
  });

  it('cuts off work that outlives SHUTDOWN_TIMEOUT_MS, then closes storage', async () => {
    const events: string[] = [];
    const worker = recordingWorker(events, 'stuck');
    const service = await startService(testConfig({ shutdownTimeoutMs: 200 }), { storage: recordingStorage(events), workers: [worker] });
    const started = Date.now();
    await service.stop();
    expect(worker.aborted).to.equal(true);
    expect(Date.now() - started).to.be.at.least(150);
    expect(events).to.deep.equal(['stuck started', 'stuck stopping', 'stuck stopped', 'storage closed']);
  });

  it('does not wait forever for a worker that ignores the deadline', async () => {
    const events: string[] = [];
    const deaf: BackgroundWorker = { name: 'deaf', start: () => undefined, stop: () => new Promise<void>(() => undefined) };
    const service = await startService(testConfig({ shutdownTimeoutMs: 100 }), { storage: recordingStorage(events), workers: [deaf] });
    await service.stop();
    expect(events).to.deep.equal(['storage closed']);
  });

  it('serves requests while workers run', async () => {
    const events: string[] = [];
    const worker = recordingWorker(events);
    const api = await TestApi.start({}, { workers: [worker] });
    const { token } = await api.newDashboard();
    expect((await api.request('POST', '/api/v1/orders', { token, body: anOrderPayload() })).status).to.equal(201);
    worker.finish();
    await api.stop();
    expect(events).to.include('recorder stopped');
  });

  it('reports each component on /readyz: the store and every worker', async () => {
    const events: string[] = [];
    const worker = recordingWorker(events, 'deliveries');
    const api = await TestApi.start({}, { workers: [worker] });
    try {
      const ready = await api.request('GET', '/readyz');
      expect(ready.status).to.equal(200);
      expect(ready.body).to.deep.equal({
        status: 'ready',
        components: {
          store: 'up',
          workers: { webhooks: 'running', 'ad-sync': 'running', 'ad-conversions': 'running', deliveries: 'running' },
        },
      });
    } finally {
      worker.finish();
      await api.stop();
    }
  });

  it('answers 503 on /readyz from SIGTERM on, while it still serves everything else for SHUTDOWN_READINESS_DELAY_MS', async () => {
    // Its own port, whose closing is part of what is checked.
    const api = await TestApi.start({ shutdownReadinessDelayMs: 400 }, {}, { ownPort: true });
    const { token } = await api.newDashboard();
    const stopping = api.stop();
    const draining = await api.request('GET', '/readyz');
    const body = expectProblem(draining, 503, 'SERVICE_UNAVAILABLE', ['components']);
    expect(body.detail).to.equal('The service is shutting down');
    expect(body.components).to.deep.equal({
      store: 'up',
      workers: { webhooks: 'running', 'ad-sync': 'running', 'ad-conversions': 'running' },
    });
    expect(draining.headers.get('retry-after')).to.equal('5');
    expect((await api.request('GET', '/healthz')).status).to.equal(200);
    expect(
      (await api.request('POST', '/api/v1/orders', { token, body: anOrderPayload({ externalId: 'while-draining' }) })).status,
    ).to.equal(201);
    await stopping;
    const refused = await api.request('GET', '/healthz').then(
      () => 'answered',
      () => 'refused',
    );
    expect(refused).to.equal('refused');
  });

  describe('the webhook worker', () => {
    let receiver: WebhookReceiver;
    afterEach(() => receiver.stop());

    /** A service on recording storage with one endpoint on `receiver`, and an order whose delivery is in flight. */
    const withAttemptInFlight = async (shutdownTimeoutMs: number) => {
      const events: string[] = [];
      const storage = recordingStorage(events);
      const api = await TestApi.start({ shutdownTimeoutMs }, { storage });
      const { token } = await api.newDashboard();
      const endpoint = (await api.request('POST', '/api/v1/webhooks', { token, body: { url: receiver.url() } })).body.webhook;
      expect((await api.request('POST', '/api/v1/orders', { token, body: anOrderPayload() })).status).to.equal(201);
      await receiver.waitFor(1);
      return { events, storage, api, endpoint };
    };
    const deliveriesOf = (storage: ReturnType<typeof recordingStorage>, endpoint: { id: string }, dashboardId: string) =>
      storage.deliveries.list(dashboardId, endpoint.id, { page: 1, pageSize: 10 });

    it('takes no new attempt once stopping, and waits for the one in flight before closing storage', async () => {
      let answer!: (status: number) => void;
      receiver = await WebhookReceiver.start(() => new Promise((resolve) => (answer = (status) => resolve({ status }))));
      const { events, storage, api, endpoint } = await withAttemptInFlight(5_000);
      const stopping = api.stop();
      await new Promise((done) => setTimeout(done, 50));
      expect(events, 'storage stays open for the attempt in flight').to.deep.equal([]);
      answer(204);
      await stopping;
      expect(events).to.deep.equal(['storage closed']);
      const [dashboardId] = (await storage.dashboards.list()).map((d) => d.id);
      const { deliveries } = await deliveriesOf(storage, endpoint, dashboardId);
      expect(deliveries.map((d) => [d.status, d.attempts.map((a) => a.responseStatus)])).to.deep.equal([['succeeded', [204]]]);
      expect(receiver.received).to.have.length(1);
    });

    it('cuts off an attempt that outlives SHUTDOWN_TIMEOUT_MS and hands its delivery back, due as it was', async () => {
      receiver = await WebhookReceiver.start(() => 'hang');
      const { events, storage, api, endpoint } = await withAttemptInFlight(200);
      await api.stop();
      expect(events).to.deep.equal(['storage closed']);
      const [dashboardId] = (await storage.dashboards.list()).map((d) => d.id);
      await eventually('the delivery handed back', async () => {
        const [delivery] = (await deliveriesOf(storage, endpoint, dashboardId)).deliveries;
        return delivery?.status === 'pending' && delivery.attempts.length === 0;
      });
      const claimed = await storage.deliveries.claimDue({
        now: new Date(),
        leaseMs: 1_000,
        limit: 10,
        skipEndpoints: [],
        skipDashboards: [],
      });
      expect(claimed.map((c) => c.delivery.endpointId)).to.deep.equal([endpoint.id]);
    });
  });
});
