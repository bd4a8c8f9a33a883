import { expect } from 'chai';
import { inMemoryStorage } from '../../../src/adapters/memory/in-memory-storage';
import { StorageUnavailableError } from '../../../src/application/ports/storage-health';
import { anOrderPayload } from '../../support/order-builder';
import { TestApi } from '../../support/test-api';
import { WebhookReceiver } from '../../support/webhook-receiver';

const scrape = async (url: string): Promise<{ status: number; type: string | null; text: string }> => {
  const res = await fetch(url);
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
};

/** The value of one sample line of the Prometheus text, or undefined when there is no such line. */
const sample = (text: string, name: string, labels = ''): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels === '' ? '' : `{${labels}}`} `));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
};

describe('metrics on METRICS_PORT', () => {
  it('counts requests by route pattern, method and status, with their latency, in the Prometheus format', async () => {
    const api = await TestApi.start({ metricsPort: 0 });
    try {
      const { token } = await api.newDashboard();
      await api.request('POST', '/api/v1/orders', { token, body: anOrderPayload({ externalId: 'm-1' }) });
      await api.request('POST', '/api/v1/orders', { token, body: anOrderPayload({ externalId: 'm-2' }) });
      await api.request('GET', '/api/v1/orders/m-1', { token });
      await api.request('GET', '/api/v1/orders/missing-order-id', { token });
      await api.request('GET', '/nowhere/at/all');
      await api.request('PROPFIND', '/api/v1/orders');
      const { status, type, text } = await scrape(api.service.metricsUrl!);
      expect(status).to.equal(200);
      expect(type).to.match(/^text\/plain; version=0\.0\.4/);
      const count = (labels: string) => sample(text, 'orders_http_request_duration_seconds_count', labels);
      expect(count('route="/api/v1/orders",method="POST",status="201"')).to.equal(2);
      expect(count('route="/api/v1/orders/:externalId",method="GET",status="200"')).to.equal(1);
      expect(count('route="/api/v1/orders/:externalId",method="GET",status="404"')).to.equal(1);
      expect(count('route="(unmatched)",method="GET",status="404"')).to.equal(1);
      expect(text, 'no raw path or id in a label').not.to.match(/m-1|missing-order-id|nowhere/);
      expect(text, 'an unknown method is OTHER').to.match(/method="OTHER"/);
      expect(text).not.to.include('PROPFIND');
      expect(
        sample(text, 'orders_http_request_duration_seconds_bucket', 'le="+Inf",route="/api/v1/orders",method="POST",status="201"'),
      ).to.equal(2);
      expect(sample(text, 'process_cpu_user_seconds_total')).to.be.a('number');
      expect(sample(text, 'nodejs_eventloop_lag_seconds')).to.be.a('number');
      expect((await api.request('GET', '/metrics')).status, 'not on the API port').to.equal(404);
      expect((await fetch(api.service.metricsUrl!.replace('/metrics', '/other'))).status).to.equal(404);
    } finally {
      await api.stop();
    }
  });

  it('counts rate-limit refusals and requests the store could not serve', async () => {
    const storage = inMemoryStorage();
    let down = false;
    const flaky = {
      ...storage,
      orders: Object.assign(Object.create(storage.orders) as typeof storage.orders, {
        list: (...args: Parameters<typeof storage.orders.list>) =>
          down ? Promise.reject(new StorageUnavailableError('down')) : storage.orders.list(...args),
      }),
    };
    const api = await TestApi.start({ metricsPort: 0, rateLimitMax: 2 }, { storage: flaky });
    try {
      const { token } = await api.newDashboard();
      down = true;
      expect((await api.request('GET', '/api/v1/orders', { token })).status).to.equal(503);
      down = false;
      await api.request('GET', '/api/v1/orders', { token });
      expect((await api.request('GET', '/api/v1/orders', { token })).status).to.equal(429);
      expect((await api.request('GET', '/api/v1/orders', { token })).status).to.equal(429);
      const { text } = await scrape(api.service.metricsUrl!);
      expect(sample(text, 'orders_rate_limit_refusals_total')).to.equal(2);
      expect(sample(text, 'orders_store_unavailable_total')).to.equal(1);
    } finally {
      await api.stop();
    }
  });

  it('has no listener when METRICS_PORT is unset', async () => {
    const api = await TestApi.start();
    try {
      expect(api.service.metricsUrl).to.equal(undefined);
    } finally {
      await api.stop();
    }
  });

  it('counts webhook attempts by outcome with their latency, and the events waiting in the outboxes', async () => {
    const ok = await WebhookReceiver.start(() => ({ status: 204 }));
    const failing = await WebhookReceiver.start(() => ({ status: 500 }));
    const attempts: string[] = [];
    const api = await TestApi.start({ metricsPort: 0 }, { onWebhookAttempt: (report) => attempts.push(report.kind) });
    try {
      const { token } = await api.newDashboard();
      for (const url of [ok.url(), failing.url()]) {
        expect((await api.request('POST', '/api/v1/webhooks', { token, body: { url, events: ['order.created'] } })).status).to.equal(201);
      }
      expect((await api.request('POST', '/api/v1/orders', { token, body: anOrderPayload({ externalId: 'hooked' }) })).status).to.equal(201);
      await ok.waitFor(1);
      // The failing endpoint: two attempts under the test schedule (0, 0 s), then a third, the last.
      await failing.waitFor(3);
      while (attempts.length < 4) await new Promise((done) => setTimeout(done, 20));
      const { text } = await scrape(api.service.metricsUrl!);
      expect(sample(text, 'orders_webhook_attempt_duration_seconds_count', 'outcome="succeeded"')).to.equal(1);
      expect(sample(text, 'orders_webhook_attempt_duration_seconds_count', 'outcome="retrying"')).to.equal(2);
      expect(sample(text, 'orders_webhook_attempt_duration_seconds_count', 'outcome="failed"')).to.equal(1);
      expect(sample(text, 'orders_webhook_outbox_backlog')).to.equal(0);
    } finally {
      await api.stop();
      await ok.stop();
      await failing.stop();
    }
  });

  it('reads the outbox backlog at each scrape', async () => {
    const storage = inMemoryStorage();
    const api = await TestApi.start(
      { metricsPort: 0 },
      {
        storage: {
          ...storage,
          outbox: {
            ...storage.outbox,
            pending: storage.outbox.pending.bind(storage.outbox),
            relay: storage.outbox.relay.bind(storage.outbox),
            backlog: async () => 7,
          },
        },
      },
    );
    try {
      expect(sample((await scrape(api.service.metricsUrl!)).text, 'orders_webhook_outbox_backlog')).to.equal(7);
    } finally {
      await api.stop();
    }
  });

  it("says the store's longest write since the last scrape, in seconds, for a store that times its writes", async () => {
    const taken = [37.5, 0];
    const api = await TestApi.start({ metricsPort: 0 }, { storage: { ...inMemoryStorage(), longestWriteMs: () => taken.shift() ?? 0 } });
    try {
      expect(sample((await scrape(api.service.metricsUrl!)).text, 'orders_store_longest_write_seconds')).to.equal(0.0375);
      expect(sample((await scrape(api.service.metricsUrl!)).text, 'orders_store_longest_write_seconds')).to.equal(0);
    } finally {
      await api.stop();
    }
  });

  it('has no longest write for a store that does not time its writes', async () => {
    const api = await TestApi.start({ metricsPort: 0 }, { storage: inMemoryStorage() });
    try {
      expect((await scrape(api.service.metricsUrl!)).text).to.not.include('orders_store_longest_write_seconds');
    } finally {
      await api.stop();
    }
  });
});
