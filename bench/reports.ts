import 'reflect-metadata';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sinkDestination } from '../src/adapters/logging/log-destinations';
import { PinoLogger } from '../src/adapters/logging/pino-logger';
import { openSqliteStorage } from '../src/adapters/sqlite/sqlite-storage';
import { compose } from '../src/bootstrap/composition';
import { createOrder } from '../src/domain/order';
import type { OrderStatus } from '../src/domain/order-status';
import type { SpendEntry } from '../src/domain/spend';
import { startBenchService } from './bench-service';
import { aNewOrder } from '../test/support/order-builder';

/**
 * Reports and dated listings at 1,000 and 1,000,000 orders: a dashboard of each size on its
 * own SQLite file, orders over 365 days with a realistic skew (20 sources, 1,000 campaigns each of one
 * source, 5,000 contents, Zipf), 1 to 3 lines of 10,000 products (Zipf), each product costed from the
 * first day and a fifth of them again mid-year, a 6% tax, spend for the 200 largest campaigns every
 * day; a PUT of 1,000 costs reaching half a year back (the re-pricing it makes); the service as a process
 * of its own; each workload timed from the client one request at a time, then all of them again
 * while 4 connections create orders, with the service's event-loop delay (p99, from its own
 * /metrics) and resident memory. Ratios are 1M / 1k of the same run. Prints, asserts nothing:
 * `npm run bench:reports` (the 1M file is seeded once, a few minutes, and kept under BENCH_DIR).
 */

const DAY = 86_400_000;
const SEED_VERSION = 2;
/** Products sold (Zipf), each with a cost from the first day, and a new cost mid-year for the first fifth. */
const PRODUCTS = 10_000;
const END = Date.UTC(2026, 10, 1);
const START = END - 365 * DAY;
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 30);
const LOAD_MS = Number(process.env['BENCH_LOAD_MS'] ?? 15_000);
const SIZES = (process.env['BENCH_SIZES'] ?? '1000,1000000').split(',').map(Number);

/** A small deterministic generator, so that two runs seed the same file. */
const random = (() => {
  let seed = 42;
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
})();

/** Draws 0..n-1 with probability proportional to 1 / (k + 1)^s. */
const zipf = (n: number, s = 1.07): (() => number) => {
  const cumulative: number[] = [];
  let sum = 0;
  for (let k = 0; k < n; k++) cumulative.push((sum += 1 / (k + 1) ** s));
  return () => {
    const target = random() * sum;
    let low = 0;
    let high = n - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (cumulative[mid] < target) low = mid + 1;
      else high = mid;
    }
    return low;
  };
};

const campaignOf = zipf(1_000);
const productOf = zipf(PRODUCTS, 0.9);
const linesOf = () =>
  Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
    const product = productOf();
    return {
      externalId: `prod-${product}`,
      name: `Product ${product}`,
      quantity: 1 + Math.floor(random() * 3),
      unitPriceCents: 500 + (product % 200) * 100,
    };
  });
/** A product's seeded unit cost from the first day: about 40% of its price. */
const unitCostOf = (product: number): number => 200 + (product % 200) * 40;
const contentOf = zipf(5);
const STATUSES: readonly [OrderStatus, number][] = [
  ['paid', 0.6],
  ['pending', 0.15],
  ['refused', 0.15],
  ['refunded', 0.07],
  ['chargedback', 0.03],
];
const statusOf = (): OrderStatus => {
  let r = random();
  for (const [status, p] of STATUSES) if ((r -= p) < 0) return status;
  return 'paid';
};
const touch = (campaign: number) => ({
  utmSource: `source-${campaign % 20}`,
  utmMedium: ['cpc', 'social', 'email', 'display'][campaign % 4],
  utmCampaign: `campaign-${campaign}`,
});

interface Seeded {
  readonly path: string;
  readonly token: string;
}

const seeded = async (size: number, log: (line: string) => void): Promise<Seeded> => {
  const dir = process.env['BENCH_DIR'] ?? '/tmp/orders-bench';
  mkdirSync(dir, { recursive: true });
  // Bump SEED_VERSION when the seeded data must change (and the name bench/ingest.ts reads the 1M file by); a
  // newer schema migrates the file when the service opens it.
  const key = `reports-${size}-seed${SEED_VERSION}`;
  const path = join(dir, `${key}.db`);
  const sidecar = join(dir, `${key}.json`);
  if (existsSync(path) && existsSync(sidecar))
    return { path, token: (JSON.parse(readFileSync(sidecar, 'utf8')) as { token: string }).token };
  for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
  const started = performance.now();
  log(`seeding ${size.toLocaleString('en')} orders into ${path}`);
  const logger = new PinoLogger(
    'silent',
    sinkDestination(() => undefined),
  );
  const storage = openSqliteStorage({ path, logger, durability: 'normal' });
  const { useCases, ids } = compose({
    storage,
    transitions: {},
    rateLimit: { max: 1e9, windowSeconds: 60 },
    idempotency: { ttlMs: 86_400_000, leaseMs: 10_000 },
  });
  const dashboard = await useCases.createDashboard.execute('reports bench', 'America/Sao_Paulo');
  await storage.dashboards.update({ ...dashboard, taxRate: 6 });
  // Costs first, so that the orders are priced as they are written (an upload after them re-prices them: measured below).
  const firstDay = new Date(START).toISOString().slice(0, 10);
  const midYear = new Date(START + 182 * DAY).toISOString().slice(0, 10);
  const costs = [
    ...Array.from({ length: PRODUCTS }, (_, k) => ({
      product: `prod-${k}`,
      currency: 'BRL',
      unitCostCents: unitCostOf(k),
      from: firstDay,
    })),
    ...Array.from({ length: PRODUCTS / 5 }, (_, k) => ({
      product: `prod-${k}`,
      currency: 'BRL',
      unitCostCents: unitCostOf(k) + 50,
      from: midYear,
    })),
  ];
  for (let at = 0; at < costs.length; at += 1_000) await storage.productCosts.put(dashboard.id, costs.slice(at, at + 1_000));
  const issued = await useCases.createToken.execute(dashboard.id, 'bench');
  if (issued._tag === 'Left') throw new Error('no dashboard');
  const now = new Date(END);
  for (let from = 0; from < size; from += 5_000) {
    const writes = [];
    for (let i = from; i < Math.min(size, from + 5_000); i++) {
      const campaign = campaignOf();
      const first: Record<string, Record<string, string>> = random() < 0.5
        ? { firstTouch: { ...touch(campaignOf()), utmContent: `content-${campaign}-${contentOf()}` } }
        : {};
      const gross = 1_000 + Math.floor(random() * 50_000);
      const made = createOrder(
        aNewOrder({
          externalId: `r-${i}`,
          status: statusOf(),
          isTest: random() < 0.02,
          createdAt: new Date(START + Math.floor(random() * 365 * DAY)),
          amounts: { currency: random() < 0.9 ? 'BRL' : 'USD', grossCents: gross, netToSellerCents: Math.floor(gross * 0.9) },
          tracking: touch(campaign),
          trackingExtras: { utmContent: `content-${campaign}-${contentOf()}`, ...first },
          products: linesOf(),
        }),
        { id: ids.next('ord'), dashboardId: dashboard.id },
        now,
      );
      writes.push(storage.orders.insert(made.order, []));
    }
    await Promise.all(writes);
    if (from % 100_000 === 0 && from > 0)
      log(`  ${from.toLocaleString('en')} orders, ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  const spend: SpendEntry[] = [];
  for (let day = 0; day < 365; day++) {
    const date = new Date(START + day * DAY).toISOString().slice(0, 10);
    for (let campaign = 0; campaign < 200; campaign++)
      spend.push({
        date,
        ...touch(campaign),
        utmContent: '(not set)',
        currency: 'BRL',
        amountCents: 10_000 + ((day * 7 + campaign * 13) % 50_000),
      });
  }
  for (let at = 0; at < spend.length; at += 1_000) await storage.spend.upsert(dashboard.id, spend.slice(at, at + 1_000));
  await storage.health.close();
  writeFileSync(sidecar, JSON.stringify({ token: issued.right.plain }));
  log(`  seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return { path, token: issued.right.plain };
};

/** `rounds`: fewer for the reports that read hours of orders at their edges (the products report of 30 days and the 30 before). */
const WORKLOADS: readonly { name: string; path: string; rounds?: number }[] = [
  {
    name: 'breakdown by campaign, the year',
    path: `/api/v1/reports/breakdown?from=${new Date(START).toISOString()}&to=${new Date(END - 1).toISOString()}&by=utmCampaign&limit=100`,
  },
  {
    name: 'by source x campaign x content, 30 days',
    path: `/api/v1/reports/breakdown?from=${new Date(END - 30 * DAY + 3_600_000 * 5).toISOString()}&to=${new Date(END - 1).toISOString()}&by=utmSource,utmCampaign,utmContent&limit=100`,
  },
  {
    name: 'daily timeseries, the year (Sao Paulo)',
    path: `/api/v1/reports/timeseries?from=${new Date(START + 3 * 3_600_000).toISOString()}&to=${new Date(END + 3 * 3_600_000 - 1).toISOString()}&interval=day`,
  },
  {
    name: 'daily timeseries, the year, one campaign (Sao Paulo)',
    path: `/api/v1/reports/timeseries?from=${new Date(START + 3 * 3_600_000).toISOString()}&to=${new Date(END + 3 * 3_600_000 - 1).toISOString()}&interval=day&utmCampaign=campaign-0`,
  },
  {
    name: 'breakdown by campaign, the year, vs the previous',
    path: `/api/v1/reports/breakdown?from=${new Date(START).toISOString()}&to=${new Date(END - 1).toISOString()}&by=utmCampaign&limit=100&compare=previous`,
  },
  {
    name: 'breakdown by campaign, 30 days, vs the previous',
    path: `/api/v1/reports/breakdown?from=${new Date(END - 30 * DAY + 3_600_000 * 3).toISOString()}&to=${new Date(END + 3_600_000 * 3 - 1).toISOString()}&by=utmCampaign&limit=100&compare=previous`,
  },
  {
    name: 'products report, the year',
    path: `/api/v1/reports/products?from=${new Date(START).toISOString()}&to=${new Date(END - 1).toISOString()}&limit=100`,
  },
  {
    name: 'products report, 30 days, vs the previous',
    path: `/api/v1/reports/products?from=${new Date(END - 30 * DAY + 3_600_000 * 3).toISOString()}&to=${new Date(END + 3_600_000 * 3 - 1).toISOString()}&limit=100&compare=previous`,
    rounds: 10,
  },
  {
    name: 'dated list page deep in the range, with its total',
    path: `/api/v1/orders?status=paid&from=${new Date(START + 30 * DAY).toISOString()}&to=${new Date(END - 30 * DAY).toISOString()}&page=200&pageSize=50`,
  },
];

const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

const metric = (text: string, name: string): number => {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? NaN : Number(line.split(' ')[1]);
};

interface Figures {
  readonly p50: number[];
  readonly p99: number[];
  readonly loadedP50: number[];
  readonly loopP99Ms: number;
  readonly rssMb: number;
  readonly posts: number;
  /** A PUT of 1,000 product costs from half a year back, every one a change: the paid orders since re-priced in the rollups. */
  readonly costUploadMs: number;
  /** The longest order POST answered while that upload ran. */
  readonly postDuringUploadMs: number;
  /** From the upload's answer until its re-pricing job has ended (0 when it re-priced in its own write). */
  readonly jobMs: number;
  /** The longest order POST answered while the job ran, and how many were. */
  readonly postDuringJobMs: number;
  readonly postsDuringJob: number;
}

const measure = async (file: Seeded, log: (line: string) => void): Promise<Figures> => {
  const { service, base, metricsPort } = await startBenchService({ SQLITE_PATH: file.path, RATE_LIMIT_MAX: '1000000000' }, 600);
  try {
    const get = async (path: string): Promise<number> => {
      const started = performance.now();
      const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${file.token}` } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
      return performance.now() - started;
    };
    const timed = async (path: string, rounds: number): Promise<number[]> => {
      for (let i = 0; i < Math.min(3, rounds); i++) await get(path);
      const samples: number[] = [];
      for (let i = 0; i < rounds; i++) samples.push(await get(path));
      return samples.sort((a, b) => a - b);
    };
    const alone = [];
    for (const workload of WORKLOADS) alone.push(await timed(workload.path, Math.min(ROUNDS, workload.rounds ?? ROUNDS)));
    const bump = 1 + (Date.now() % 97);
    const midYear = new Date(START + 182 * DAY).toISOString().slice(0, 10);
    const entries = Array.from({ length: 1_000 }, (_, k) => ({
      product: `prod-${k}`,
      currency: 'BRL',
      unitCostCents: unitCostOf(k) + bump,
      from: midYear,
    }));
    let uploading = true;
    let postDuringUploadMs = 0;
    let probes = 0;
    const prober = (async () => {
      for (let i = 0; uploading; i++) {
        const started = performance.now();
        const res = await fetch(`${base}/api/v1/orders`, {
          method: 'POST',
          headers: { authorization: `Bearer ${file.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ ...aNewOrder({ externalId: `probe-${Date.now()}-${i}` }), createdAt: new Date(END - DAY).toISOString() }),
        });
        await res.arrayBuffer();
        postDuringUploadMs = Math.max(postDuringUploadMs, performance.now() - started);
        probes += 1;
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const uploadStarted = performance.now();
    const upload = await fetch(`${base}/api/v1/product-costs`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${file.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ entries }),
    });
    await upload.arrayBuffer();
    const costUploadMs = performance.now() - uploadStarted;
    const uploadMax = postDuringUploadMs;
    postDuringUploadMs = 0;
    let posted = probes;
    const jobStarted = performance.now();
    const jobs = new BetterSqlite3(file.path, { readonly: true });
    try {
      while ((jobs.prepare('SELECT count(*) FROM reprice_jobs').pluck().get() as number) > 0)
        await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      jobs.close();
    }
    const jobMs = performance.now() - jobStarted;
    const postDuringJobMs = postDuringUploadMs;
    posted = probes - posted;
    uploading = false;
    await prober;
    if (upload.status !== 200) throw new Error(`the cost upload answered ${upload.status}`);
    const scrape = async () => (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    await scrape();
    let stop = false;
    let posts = 0;
    const writers = Array.from({ length: 4 }, async (_, w) => {
      for (let i = 0; !stop; i++) {
        const body = {
          ...aNewOrder({ externalId: `load-${Date.now()}-${w}-${i}`, createdAt: new Date(END - DAY) }),
          createdAt: new Date(END - DAY).toISOString(),
        };
        const res = await fetch(`${base}/api/v1/orders`, {
          method: 'POST',
          headers: { authorization: `Bearer ${file.token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        await res.arrayBuffer();
        posts++;
      }
    });
    const loaded: number[][] = WORKLOADS.map(() => []);
    const until = Date.now() + LOAD_MS;
    while (Date.now() < until) for (const [i, workload] of WORKLOADS.entries()) loaded[i].push(await get(workload.path));
    const text = await scrape();
    stop = true;
    await Promise.all(writers);
    log(`  ${posts} orders created during the loaded phase`);
    return {
      p50: alone.map((s) => percentile(s, 0.5)),
      p99: alone.map((s) => percentile(s, 0.99)),
      loadedP50: loaded.map((s) =>
        percentile(
          s.sort((a, b) => a - b),
          0.5,
        ),
      ),
      loopP99Ms: metric(text, 'nodejs_eventloop_lag_p99_seconds') * 1000,
      rssMb: metric(text, 'process_resident_memory_bytes') / 1024 / 1024,
      posts,
      costUploadMs,
      postDuringUploadMs: uploadMax,
      jobMs,
      postDuringJobMs,
      postsDuringJob: posted,
    };
  } finally {
    service.kill('SIGTERM');
    await service.exited;
  }
};

const main = async (): Promise<void> => {
  const log = (line: string): void => console.log(line);
  const results = new Map<number, Figures>();
  for (const size of SIZES) {
    const file = await seeded(size, log);
    log(`measuring ${size.toLocaleString('en')} orders`);
    results.set(size, await measure(file, log));
  }
  const [small, large] = [results.get(SIZES[0])!, results.get(SIZES[SIZES.length - 1])!];
  console.log(`\nms, timed from the client one request at a time (${ROUNDS} rounds), then p50 while 4 connections create orders:`);
  console.log(
    `workload                                          ${SIZES.map((s) => `${s.toLocaleString('en')}: p50 / p99 / loaded`.padStart(30)).join('')}  p50 ratio`,
  );
  WORKLOADS.forEach((workload, i) => {
    const cells = SIZES.map((s) => {
      const f = results.get(s)!;
      return `${f.p50[i].toFixed(1)} / ${f.p99[i].toFixed(1)} / ${f.loadedP50[i].toFixed(1)}`.padStart(30);
    });
    console.log(`${workload.name.padEnd(50)}${cells.join('')}  ${(large.p50[i] / small.p50[i]).toFixed(2)}x`);
  });
  for (const size of SIZES) {
    const f = results.get(size)!;
    console.log(
      `${size.toLocaleString('en')} orders: event-loop delay p99 ${f.loopP99Ms.toFixed(1)} ms while loaded (${f.posts} POSTs), RSS ${f.rssMb.toFixed(0)} MB; ` +
        `a PUT of 1,000 costs from half a year back ${f.costUploadMs.toFixed(0)} ms, the slowest order POST meanwhile ${f.postDuringUploadMs.toFixed(0)} ms; ` +
        `its re-pricing job ${f.jobMs.toFixed(0)} ms more, the slowest of ${f.postsDuringJob} order POSTs meanwhile ${f.postDuringJobMs.toFixed(0)} ms`,
    );
  }
};

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
