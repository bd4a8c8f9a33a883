import 'reflect-metadata';
import { fork, type ChildProcess } from 'node:child_process';
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import { MongoClient } from 'mongodb';
import { ApiWebhookPayloads } from '../src/adapters/http/webhooks/webhook-payloads';
import { sinkDestination } from '../src/adapters/logging/log-destinations';
import { PinoLogger } from '../src/adapters/logging/pino-logger';
import { inMemoryStorage } from '../src/adapters/memory/in-memory-storage';
import { connectMongoStorage } from '../src/adapters/mongodb/mongo-storage';
import type { Storage } from '../src/application/ports/storage';
import { startService, type RunningService } from '../src/bootstrap/service';
import { newDelivery } from '../src/domain/delivery';
import { anOrder } from '../test/support/order-builder';
import { temporarySqliteStorage } from '../test/support/sqlite-files';
import { benchConfig, call, newToken, orderBody } from './bench-api';
import { fixed } from './http-workloads';
import { noSamples, runLoad, summarize, type Samples } from './load';

/**
 * What webhooks cost (docs/webhooks.md, docs/performance.md): how much one subscribed endpoint adds to a
 * POST /api/v1/orders (its relay, its delivery and the receiver's answer, on the same process), and how
 * many deliveries per second the workers make to a fast receiver on loopback. Reports, asserts nothing.
 */

const POSTS = Number(process.env['BENCH_REQUESTS'] ?? 1_500);
const CONCURRENCY = 16;
const ROUNDS = 3;
const DELIVERIES = Number(process.env['BENCH_DELIVERIES'] ?? 3_000);

interface Stats {
  readonly count: number;
  readonly first: number;
  readonly last: number;
}

/** The receiver in a child process, asked for its counts over IPC. */
class Receiver {
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
  ) {}

  static start(): Promise<Receiver> {
    const child = fork(resolve(__dirname, 'webhook-receiver-process.js'));
    return new Promise((done) => child.once('message', (message: { port: number }) => done(new Receiver(child, message.port))));
  }

  ask(message: 'stats' | 'reset'): Promise<Stats> {
    return new Promise((done) => {
      this.child.once('message', (stats: Stats) => done(stats));
      this.child.send(message);
    });
  }

  async waitFor(count: number, maxMs = 120_000): Promise<Stats> {
    const deadline = Date.now() + maxMs;
    for (;;) {
      const stats = await this.ask('stats');
      if (stats.count >= count) return stats;
      if (Date.now() > deadline) throw new Error(`the receiver got ${stats.count} of ${count} requests`);
      await new Promise((done) => setTimeout(done, 10));
    }
  }

  stop(): void {
    this.child.disconnect();
  }
}

const waitUntil = async (check: () => Promise<boolean>): Promise<void> => {
  while (!(await check())) await new Promise((done) => setTimeout(done, 5));
};

interface CostRow {
  readonly posts: number;
  readonly loadPerSecond: number;
  /** Creations per second counting until their events are relayed (and, with an endpoint, delivered). */
  readonly settledPerSecond: number;
  readonly p50Ms: number;
}

/** POSTs in the dashboard of `token`, then the wait for the background work they made. */
const postRound = async (
  service: RunningService,
  token: string,
  label: string,
  round: number,
  settled: () => Promise<void>,
  into: Samples,
): Promise<number> => {
  let i = 0;
  const started = performance.now();
  await runLoad(
    { baseUrl: service.url, requests: POSTS, concurrency: CONCURRENCY, maxMs: 60_000, expectedStatus: 201 },
    () => ({
      method: 'POST',
      path: '/api/v1/orders',
      headers: { authorization: `Bearer ${token}` },
      body: orderBody(`${label}-${round}-${i++}`),
    }),
    into,
  );
  await settled();
  return performance.now() - started;
};

const postCosts = async (
  service: RunningService,
  storage: Storage,
  receiver: Receiver,
): Promise<{ without: CostRow; withEndpoint: CostRow }> => {
  const plain = await newToken(service.url, 'no endpoint');
  const hooked = await newToken(service.url, 'one endpoint');
  const endpoint = await call(service.url, 'POST', '/api/v1/webhooks', hooked.token, { url: `http://127.0.0.1:${receiver.port}/hook` });
  if (endpoint.status !== 201) throw new Error(`endpoint creation answered ${endpoint.status}`);
  const outboxEmpty = async () => waitUntil(async () => (await storage.outbox.pending(1)).length === 0);
  const samples = { without: noSamples(), withEndpoint: noSamples() };
  const elapsed = { without: 0, withEndpoint: 0 };
  let delivered = 0;
  for (let round = -1; round < ROUNDS; round++) {
    const into = round < 0 ? { without: noSamples(), withEndpoint: noSamples() } : samples;
    const withoutMs = await postRound(service, plain.token, 'plain', round, outboxEmpty, into.without);
    delivered += POSTS;
    const withMs = await postRound(
      service,
      hooked.token,
      'hooked',
      round,
      async () => {
        await outboxEmpty();
        await receiver.waitFor(delivered);
      },
      into.withEndpoint,
    );
    if (round >= 0) {
      elapsed.without += withoutMs;
      elapsed.withEndpoint += withMs;
    }
  }
  const row = (s: Samples, ms: number): CostRow => {
    const summary = summarize(s);
    return {
      posts: summary.completed,
      loadPerSecond: summary.perSecond,
      settledPerSecond: (summary.completed / ms) * 1000,
      p50Ms: summary.p50Ms,
    };
  };
  return { without: row(samples.without, elapsed.without), withEndpoint: row(samples.withEndpoint, elapsed.withEndpoint) };
};

/** DELIVERIES deliveries stored at once, due in a second; the rate from the first request received to the last. */
const deliveryRate = async (service: RunningService, storage: Storage, receiver: Receiver): Promise<number> => {
  const { token } = await newToken(service.url, 'delivery rate');
  const endpoint = await call(service.url, 'POST', '/api/v1/webhooks', token, { url: `http://127.0.0.1:${receiver.port}/rate` });
  const order = anOrder().build();
  const payloads = new ApiWebhookPayloads();
  const due = new Date(Date.now() + 1_000);
  const owner = (await storage.webhooks.listByDashboard(await dashboardOf(storage, endpoint.body.webhook.id as string)))[0];
  for (let start = 0; start < DELIVERIES; start += 500) {
    await Promise.all(
      Array.from({ length: Math.min(500, DELIVERIES - start) }, (_, k) => {
        const i = start + k;
        const rendered = payloads.orderEvent({ id: `evt_rate_${i}`, type: 'order.created', occurredAt: due, order });
        return storage.deliveries.insert(
          newDelivery(
            {
              id: `dlv_rate_${i}`,
              dashboardId: owner.dashboardId,
              endpointId: owner.id,
              eventId: `evt_rate_${i}`,
              eventType: 'order.created',
              ...rendered,
            },
            due,
          ),
        );
      }),
    );
  }
  await receiver.ask('reset');
  const stats = await receiver.waitFor(DELIVERIES);
  return ((stats.count - 1) / (stats.last - stats.first)) * 1000;
};

/** The dashboard of an endpoint, found through the dashboards the store knows. */
const dashboardOf = async (storage: Storage, endpointId: string): Promise<string> => {
  for (const dashboard of await storage.dashboards.list()) {
    if ((await storage.webhooks.find(dashboard.id, endpointId))._tag === 'Some') return dashboard.id;
  }
  throw new Error(`no dashboard has ${endpointId}`);
};

const uri = process.env['MONGODB_URI'] === '' ? undefined : process.env['MONGODB_URI'];
const dbName = `orders_bench_webhooks_${Date.now().toString(36)}_${process.pid}`;

const main = async (): Promise<void> => {
  const logger = new PinoLogger(
    'silent',
    sinkDestination(() => undefined),
  );
  const stores: { name: string; open: () => Promise<Storage> }[] = [
    { name: 'SQLite (a temporary file)', open: async () => temporarySqliteStorage() },
    { name: 'in-memory', open: async () => inMemoryStorage() },
    ...(uri === undefined ? [] : [{ name: 'MongoDB', open: () => connectMongoStorage(uri, dbName, logger) }]),
  ];
  console.log(`orders-service webhooks bench, ${new Date().toISOString()}, Node ${process.version}, ${cpus().length} CPUs`);
  console.log(
    `POST /api/v1/orders without Idempotency-Key, ${POSTS} per pass, ${ROUNDS} passes after one warm-up, ${CONCURRENCY} in flight, alternating a dashboard ` +
      `without endpoint and one with an endpoint subscribed to every event; the receiver answers 204 from a process of its own; ` +
      `then ${DELIVERIES} deliveries due at once. WEBHOOK_CONCURRENCY 16, client and service in one process.\n`,
  );
  const header =
    '| store | POST req/s, no endpoint | POST req/s, one endpoint | ratio (cost of a POST, with / without) | settled orders/s, no endpoint | settled orders/s, one endpoint | ratio | deliveries/s |';
  const lines = [header, '|---|---:|---:|---:|---:|---:|---:|---:|'];
  for (const { name, open } of stores) {
    const storage = await open();
    const receiver = await Receiver.start();
    const service = await startService(
      {
        ...benchConfig,
        webhooks: { timeoutMs: 15_000, retrySchedule: [5, 300], allowPrivateUrls: true, concurrency: 16, pollIntervalMs: 50 },
      },
      { storage, logger },
    );
    try {
      const { without, withEndpoint } = await postCosts(service, storage, receiver);
      const rate = await deliveryRate(service, storage, receiver);
      lines.push(
        `| ${name} | ${fixed(without.loadPerSecond, 0)} | ${fixed(withEndpoint.loadPerSecond, 0)} | ${fixed(without.loadPerSecond / withEndpoint.loadPerSecond, 2)} | ` +
          `${fixed(without.settledPerSecond, 0)} | ${fixed(withEndpoint.settledPerSecond, 0)} | ${fixed(without.settledPerSecond / withEndpoint.settledPerSecond, 2)} | ${fixed(rate, 0)} |`,
      );
      console.log(lines.at(-1));
    } finally {
      await service.stop();
      receiver.stop();
    }
  }
  console.log(`\n${lines.join('\n')}`);
  if (uri !== undefined) {
    const client = new MongoClient(uri);
    await client
      .db(dbName)
      .dropDatabase()
      .finally(() => client.close());
  }
};

main().catch((err: unknown) => {
  console.error('bench failed:', err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
