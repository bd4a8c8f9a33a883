import { rmSync } from 'node:fs';
import { freePort, ServiceProcess } from '../test/bootstrap/service-process';

export const BENCH_ADMIN_TOKEN = 'bench-admin-token-0123456789';

/** The service as a process of its own on loopback, answering `/healthz`, with its metrics listener. */
export interface BenchService {
  readonly service: ServiceProcess;
  readonly base: string;
  readonly metricsPort: number;
}

/**
 * Starts `node main.js` with `env` (PORT and METRICS_PORT chosen here), through `launcher` when given,
 * and waits until `/healthz` answers.
 */
export const startBenchService = async (
  env: Record<string, string>,
  waits = 200,
  launcher: readonly string[] = [],
): Promise<BenchService> => {
  const [port, metricsPort] = [await freePort(), await freePort()];
  const service = new ServiceProcess(
    { PORT: String(port), METRICS_PORT: String(metricsPort), LOG_LEVEL: 'warn', ...env },
    undefined,
    launcher,
  );
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if ((await fetch(`${base}/healthz`).catch(() => undefined))?.ok === true) break;
    if (i > waits) throw new Error(`the service did not start: ${service.stderr.join('\n')}`);
    await new Promise((done) => setTimeout(done, 50));
  }
  return { service, base, metricsPort };
};

/** Stops the service (SIGTERM, as an operator would) and removes the folder of its file. */
export const stopBenchService = async ({ service }: BenchService, dir: string): Promise<void> => {
  service.kill('SIGTERM');
  await service.exited;
  rmSync(dir, { recursive: true, force: true });
};

/** A new dashboard and a token for it, through the admin API (the service runs with BENCH_ADMIN_TOKEN). */
export const benchTenant = async (base: string, name: string): Promise<{ dashboard: string; token: string }> => {
  const call = async (path: string, body: unknown) =>
    (await (
      await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    ).json()) as Record<string, Record<string, string>>;
  const dashboard = (await call('/admin/v1/dashboards', { name })).dashboard.id;
  return { dashboard, token: (await call(`/admin/v1/dashboards/${dashboard}/tokens`, {})).token.token };
};

/**
 * The timer that samples the event loop's delay fires every 10 ms (prom-client's default precision),
 * and each sample is the time between two of its turns: an idle loop reads 10 ms, and a loop held
 * 30 ms by one callback reads about 40.
 */
const SAMPLING_MS = 10;

/**
 * The event loop's delay p99 and max in ms since the last scrape, as the service's metrics say it
 * (prom-client's defaults: a histogram reset at each scrape), `held`, the longest the loop was held
 * at a time (the max less the sampling timer's period: a GC pause, a write, or the process waiting for
 * a core), `longestWrite`, the longest write transaction of the SQLite store since the last scrape,
 * and `cpuMs`, the CPU time the service's process has used since it started (user and system).
 */
export const eventLoopDelay = async (
  metricsPort: number,
): Promise<{ p99: number; max: number; held: number; longestWrite: number; cpuMs: number }> => {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const read = (name: string) => Number(new RegExp(`^${name} ([0-9.e+-]+)`, 'm').exec(text)?.[1] ?? NaN) * 1000;
  const max = read('nodejs_eventloop_lag_max_seconds');
  return {
    p99: read('nodejs_eventloop_lag_p99_seconds'),
    max,
    held: Math.max(0, max - SAMPLING_MS),
    longestWrite: read('orders_store_longest_write_seconds'),
    cpuMs: read('process_cpu_seconds_total'),
  };
};
