import { randomUUID } from 'node:crypto';
import type { RunningService } from '../src/bootstrap/service';
import { call, newToken, orderBody } from './bench-api';
import { noSamples, runLoad, summarize, type LoadSummary, type RequestSpec, type Samples } from './load';

const positiveInt = (name: string, fallback: number): number => {
  const raw = process.env[name];
  return raw !== undefined && /^[1-9][0-9]*$/.test(raw) ? Number(raw) : fallback;
};

export const REQUESTS = positiveInt('BENCH_REQUESTS', 3_000);
export const CONCURRENCY = positiveInt('BENCH_CONCURRENCY', 16);
/** Measured passes over every workload, in turn, so that drift over the run (JIT, GC, a growing store) falls on all alike. */
export const ROUNDS = 3;
export const WARMUP = 300;
/** Per workload, measured passes together; with the warm-up and the store timings the run stays under a minute. */
const WORKLOAD_MAX_MS = 5_000;
const WARMUP_MAX_MS = 1_000;

interface Workload {
  readonly name: string;
  readonly expectedStatus: number;
  readonly next: () => RequestSpec;
}

export interface Row {
  readonly name: string;
  readonly result: LoadSummary;
}

export const fixed = (n: number, digits: number): string => (Number.isFinite(n) ? n.toFixed(digits) : '-');

export const printTable = (rows: readonly Row[]): void => {
  const base = rows[0].result;
  const header = ['operation', 'requests', 'unexpected', 'req/s', 'p50 ms', 'p99 ms', 'req/s vs base', 'p50 vs base'];
  const lines = rows.map(({ name, result: r }) => [
    name,
    String(r.completed),
    String(r.unexpected),
    fixed(r.perSecond, 0),
    fixed(r.p50Ms, 2),
    fixed(r.p99Ms, 2),
    fixed(r.perSecond / base.perSecond, 2),
    fixed(r.p50Ms / base.p50Ms, 2),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((line) => line[i].length)));
  const format = (cells: readonly string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  console.log(format(header));
  console.log(`|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
  for (const line of lines) console.log(format(line));
};

/** The five workloads: a closure numbers its own requests, so that every created order and key is new. */
const workloads = async (service: RunningService): Promise<Workload[]> => {
  const runId = randomUUID().slice(0, 8);
  const lister = await newToken(service.url, 'bench lister');
  const writer = await newToken(service.url, 'bench writer');
  const auth = (token: string) => ({ authorization: `Bearer ${token}` });
  const numbered = (make: (i: number) => RequestSpec) => {
    let i = 0;
    return () => make(i++);
  };
  const replayKey = { 'idempotency-key': `replay-${runId}` };
  const replayed = orderBody(`replayed-${runId}`);
  const first = await call(service.url, 'POST', '/api/v1/orders', writer.token, replayed, replayKey);
  if (first.status !== 201) throw new Error(`the request to replay answered ${first.status}`);
  return [
    { name: '(a) GET /healthz (baseline)', expectedStatus: 200, next: () => ({ method: 'GET', path: '/healthz' }) },
    {
      name: '(b) GET /api/v1/orders (auth + rate limit)',
      expectedStatus: 200,
      // A dashboard without orders: the page is empty, the cost is the guards and the query.
      next: () => ({ method: 'GET', path: '/api/v1/orders', headers: auth(lister.token) }),
    },
    {
      name: '(c) POST /api/v1/orders, no key',
      expectedStatus: 201,
      next: numbered((i) => ({
        method: 'POST',
        path: '/api/v1/orders',
        headers: auth(writer.token),
        body: orderBody(`plain-${runId}-${i}`),
      })),
    },
    {
      name: '(d) POST /api/v1/orders, fresh key',
      expectedStatus: 201,
      next: numbered((i) => ({
        method: 'POST',
        path: '/api/v1/orders',
        headers: { ...auth(writer.token), 'idempotency-key': `fresh-${runId}-${i}` },
        body: orderBody(`keyed-${runId}-${i}`),
      })),
    },
    {
      name: '(e) POST /api/v1/orders, replay',
      expectedStatus: 201,
      next: () => ({ method: 'POST', path: '/api/v1/orders', headers: { ...auth(writer.token), ...replayKey }, body: replayed }),
    },
  ];
};

/** One unmeasured pass over every workload, then `ROUNDS` measured passes. */
export const httpWorkloads = async (service: RunningService): Promise<Row[]> => {
  const all = await workloads(service);
  const options = (w: Workload, requests: number, maxMs: number) => ({
    baseUrl: service.url,
    requests,
    concurrency: CONCURRENCY,
    maxMs,
    expectedStatus: w.expectedStatus,
  });
  for (const w of all) await runLoad(options(w, WARMUP, WARMUP_MAX_MS), w.next, noSamples());
  const samples: Samples[] = all.map(noSamples);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, w] of all.entries()) {
      await runLoad(options(w, Math.ceil(REQUESTS / ROUNDS), WORKLOAD_MAX_MS / ROUNDS), w.next, samples[i]);
    }
  }
  return all.map((w, i) => ({ name: w.name, result: summarize(samples[i]) }));
};
