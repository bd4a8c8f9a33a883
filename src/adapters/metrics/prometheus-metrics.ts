import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { AttemptReport } from '../../application/webhooks/deliver-webhooks';
import type { Metrics } from '../../application/ports/metrics';

/** Methods kept as they are in labels; any other (a fuzzer's `FOO`) is `OTHER`, so labels stay few. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Latency buckets in seconds: from a cached read to a request that waited on a busy store. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The Metrics port on prom-client, with a registry of its own per service (several services in one
 * process, as in the tests, never mix their counts), and the process's default metrics.
 */
export class PrometheusMetrics implements Metrics {
  readonly registry = new Registry();
  private readonly requests: Histogram<'route' | 'method' | 'status'>;
  private readonly refusals: Counter;
  private readonly unavailable: Counter;
  private readonly deliveries: Histogram<'outcome'>;
  private readonly unsent: Counter<'outcome'>;

  /**
   * `backlog` counts the events waiting in the outboxes, read at each scrape; `longestWriteMs`, the
   * store's longest write since the last scrape (Storage.longestWriteMs).
   */
  constructor(backlog?: () => Promise<number>, longestWriteMs?: () => number) {
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Histogram({
      name: 'orders_http_request_duration_seconds',
      help: 'HTTP requests by route pattern, method and status, and how long they took',
      labelNames: ['route', 'method', 'status'],
      buckets: LATENCY_BUCKETS,
      registers: [this.registry],
    });
    this.refusals = new Counter({
      name: 'orders_rate_limit_refusals_total',
      help: 'Requests refused with 429 because their token used up its window',
      registers: [this.registry],
    });
    this.unavailable = new Counter({
      name: 'orders_store_unavailable_total',
      help: 'Requests answered 503 because the store could not be reached',
      registers: [this.registry],
    });
    this.deliveries = new Histogram({
      name: 'orders_webhook_attempt_duration_seconds',
      help: 'Webhook attempts by outcome (succeeded, retrying: another attempt is scheduled, failed: the last one or a 410), and how long they took',
      labelNames: ['outcome'],
      buckets: LATENCY_BUCKETS,
      registers: [this.registry],
    });
    this.unsent = new Counter({
      name: 'orders_webhook_deliveries_unsent_total',
      help: 'Deliveries taken up but not sent: dropped (endpoint deleted), skipped (endpoint disabled), aborted (shutdown; taken again later)',
      labelNames: ['outcome'],
      registers: [this.registry],
    });
    if (longestWriteMs !== undefined) {
      new Gauge({
        name: 'orders_store_longest_write_seconds',
        help: 'The longest one write transaction held the event loop since the last scrape (the embedded SQLite store)',
        registers: [this.registry],
        collect() {
          this.set(longestWriteMs() / 1000);
        },
      });
    }
    if (backlog !== undefined) {
      new Gauge({
        name: 'orders_webhook_outbox_backlog',
        help: 'Events waiting in the orders outboxes for the relay to turn them into deliveries',
        registers: [this.registry],
        async collect() {
          this.set(await backlog());
        },
      });
    }
  }

  request(route: string, method: string, status: number, seconds: number): void {
    this.requests.observe({ route, method: KNOWN_METHODS.has(method) ? method : 'OTHER', status: String(status) }, seconds);
  }

  rateLimited(): void {
    this.refusals.inc();
  }

  storeUnavailable(): void {
    this.unavailable.inc();
  }

  webhookAttempt(report: AttemptReport): void {
    if (report.kind !== 'attempted') {
      this.unsent.inc({ outcome: report.kind });
      return;
    }
    const outcome = report.status === 'pending' ? 'retrying' : report.status;
    this.deliveries.observe({ outcome }, report.durationMs / 1000);
  }
}

/**
 * GET /metrics in the Prometheus text format, on a listener of its own (METRICS_PORT), so that it can
 * stay on an internal network while the API is public; anything else is 404.
 */
export const listenForMetrics = async (registry: Registry, host: string, port: number): Promise<{ server: Server; url: string }> => {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return { server, url: `http://${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}/metrics` };
};
