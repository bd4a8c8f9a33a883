import { execSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { MongoClient } from 'mongodb';
import { anOrderPayload } from '../../test/support/order-builder';
import { FIXTURE_FILES } from './baseline-fixtures';
import { MILLION, millionFile, removePartialSeed } from './million';
import { ServerProcess, stopAll } from './processes';
import { SEEDED_COUNT, SEEDED_PREFIX, startMillion, startSqlite, startWithAdminApi, type ServiceTarget } from './services';
import { runWrk, stopWrk, wrkVersion, type WrkResult } from './wrk';

/**
 * The field benchmark: the load comes from wrk, a process of its own, against servers that are each a
 * process of their own on a loopback port: node:http and bare Koa (the baselines), and the service on
 * each store. Prints one table per workload and a line per goal; asserts nothing; stops by itself.
 * See docs/performance.md.
 */

const positiveInt = (name: string, fallback: number): number => {
  const raw = process.env[name]?.replace(/s$/, '');
  if (raw === undefined || raw === '') return fallback;
  if (!/^[1-9][0-9]*$/.test(raw)) {
    console.error(`${name} must be a positive integer (got ${JSON.stringify(process.env[name])})`);
    process.exit(2);
  }
  return Number(raw);
};

const DURATION = positiveInt('BENCH_DURATION', 8);
const WARMUP = positiveInt('BENCH_WARMUP', 2);
const CONNECTIONS = positiveInt('BENCH_CONNECTIONS', 32);
const THREADS = positiveInt('BENCH_THREADS', 1);
/** Longer than wrk's default (2 s), so that the slow stores' latencies are measured rather than dropped as timeouts. */
const TIMEOUT = positiveInt('BENCH_TIMEOUT', 10);
const ROUNDS = positiveInt('BENCH_ROUNDS', 1);
const WITH_MILLION = process.env['BENCH_1M'] === '1';

/** A comma-separated choice among `known` (all of them when unset), or exit 2 naming the unknown ones. */
const chosen = <T extends string>(name: string, known: readonly T[]): ReadonlySet<T> => {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return new Set(known);
  const picked = raw.split(',').map((s) => s.trim());
  const unknown = picked.filter((s) => !(known as readonly string[]).includes(s));
  if (unknown.length > 0) {
    console.error(`${name}: unknown ${unknown.join(', ')} (known: ${known.join(', ')})`);
    process.exit(2);
  }
  return new Set(picked as T[]);
};

const TARGET_IDS = ['http', 'koa', 'sqlite', 'memory', 'mongodb'] as const;
const WORKLOAD_IDS = ['post', 'post-key', 'list-empty', 'list-1k', 'list-1m', 'get-one', 'patch', 'redirect', 'tracker'] as const;
const TARGETS = chosen('BENCH_TARGETS', TARGET_IDS);
/** Another build's `dist` folder (of main, say), whose service runs on SQLite beside this one's. */
const OTHER_BUILD = process.env['BENCH_OTHER_BUILD'] || undefined;
const OTHER = 'sqlite, other build';
const WORKLOADS = chosen('BENCH_WORKLOADS', WORKLOAD_IDS);
const MONGODB_URI = process.env['MONGODB_URI'] || undefined;

const LUA_DIR = resolve(__dirname, '../../../bench/field');
const BASELINE_HTTP_JS = resolve(__dirname, 'baseline-http.js');
const BASELINE_KOA_JS = resolve(__dirname, 'baseline-koa.js');
/** A token of the right shape, sent to the baselines (which ignore it) so that the requests weigh the same. */
const BASELINE_TOKEN = `ok_live_${'A'.repeat(43)}`;
const KOA = 'bare Koa';

interface Target {
  readonly name: string;
  readonly server: ServerProcess;
  /** Absent for the two baselines. */
  readonly service?: ServiceTarget;
}

interface Plan {
  readonly path: string;
  readonly args: (nonce: string) => string[];
}

interface Workload {
  /** What BENCH_WORKLOADS names it. */
  readonly id: (typeof WORKLOAD_IDS)[number];
  readonly title: string;
  readonly script: 'get.lua' | 'post.lua' | 'patch.lua';
  /** What the target is sent, or undefined when it takes no part. */
  readonly plan: (target: Target) => Plan | undefined;
  /** Why the workload is skipped altogether, when it is. */
  readonly skipped?: string;
}

interface Cell {
  readonly result: WrkResult;
  readonly warmupErrors: number;
  /** Requests answered with 2xx or 3xx, warm-up included (for the POSTs: orders created). */
  readonly succeeded: number;
  readonly rssMb: number;
  readonly peakMb: number;
  /** The server's CPU time (user + system) per request of the measured run, in µs: what other work on the machine changes least. */
  readonly cpuUsPerRequest: number;
}

const fixed = (n: number, digits: number): string => (Number.isFinite(n) ? n.toFixed(digits) : '-');

const table = (header: readonly string[], rows: readonly (readonly string[])[]): string[] => {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  return [line(header), `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`, ...rows.map(line)];
};

const commit = (): string => {
  try {
    const hash = execSync('git rev-parse --short HEAD', { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
    const dirty =
      execSync('git status --porcelain --untracked-files=no', { stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim() !== '';
    return dirty ? `${hash} (with uncommitted changes)` : hash;
  } catch {
    return 'unknown';
  }
};

const loads = (): string =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
const progress = (line: string): void => void process.stderr.write(`${line}\n`);
const nonce = (): string => randomBytes(6).toString('base64url').replace(/[-_]/g, 'x');

// ---------------------------------------------------------------------------------------------------

const scratch = mkdtempSync(join(tmpdir(), 'orders-field-bench-'));
const mongoDb = `orders_field_bench_${nonce()}`;
let mongoUsed = false;
let cleaned = false;

const cleanup = async (): Promise<void> => {
  if (cleaned) return;
  cleaned = true;
  stopWrk();
  await stopAll();
  removePartialSeed();
  rmSync(scratch, { recursive: true, force: true });
  if (MONGODB_URI !== undefined && mongoUsed) {
    const client = new MongoClient(MONGODB_URI, { serverSelectionTimeoutMS: 5_000 });
    try {
      await client.connect();
      await client.db(mongoDb).dropDatabase();
    } catch (err) {
      console.error(`could not drop the MongoDB database ${mongoDb}: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      await client.close().catch(() => undefined);
    }
  }
};

// A closed stdout (`| head`) would otherwise end the process without the cleanup.
process.stdout.on('error', () => void cleanup().finally(() => process.exit(1)));

// `on`, not `once`: a Ctrl-C reaches the whole process group, and a signal sent to the group after
// one sent to this process would otherwise kill it halfway through the cleanup.
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\n${signal}: stopping every server and wrk`);
    void cleanup().finally(() => process.exit(130));
  });
}

const workloadsFor = (targets: readonly Target[], linkTargets: number, trackerTargets: number): Workload[] => {
  const ORDERS = '/api/v1/orders';
  const token = (t: Target, pick: (s: ServiceTarget) => string | undefined): string | undefined =>
    t.service === undefined ? BASELINE_TOKEN : pick(t.service);
  const get =
    (path: string, pick: (s: ServiceTarget) => string | undefined) =>
    (t: Target): Plan | undefined => {
      const tok = token(t, pick);
      return tok === undefined ? undefined : { path, args: () => [tok] };
    };
  const template = join(scratch, 'order-template.json');
  writeFileSync(template, JSON.stringify(anOrderPayload({ externalId: '__EXTERNAL_ID__' })));
  const post =
    (key: boolean) =>
    (t: Target): Plan | undefined => {
      const tok = token(t, (s) => s.tokens.writes);
      return tok === undefined ? undefined : { path: ORDERS, args: (n) => [tok, n, template, ...(key ? ['key'] : [])] };
    };
  const onMillion = targets.some((t) => t.service?.tokens.million !== undefined);
  return [
    { id: 'post', title: 'POST /api/v1/orders, no Idempotency-Key', script: 'post.lua', plan: post(false) },
    { id: 'post-key', title: 'POST /api/v1/orders, a new Idempotency-Key each', script: 'post.lua', plan: post(true) },
    { id: 'list-empty', title: 'GET /api/v1/orders, empty dashboard', script: 'get.lua', plan: get(ORDERS, (s) => s.tokens.empty) },
    { id: 'list-1k', title: 'GET /api/v1/orders, 1,000 orders', script: 'get.lua', plan: get(ORDERS, (s) => s.tokens.thousand) },
    {
      id: 'list-1m',
      title: 'GET /api/v1/orders, 1,000,000 orders',
      script: 'get.lua',
      plan: get(ORDERS, (s) => s.tokens.million),
      ...(onMillion ? {} : { skipped: 'not run (BENCH_1M=1 runs it, on SQLite)' }),
    },
    {
      id: 'get-one',
      title: `GET /api/v1/orders/${SEEDED_PREFIX}500 (one order)`,
      script: 'get.lua',
      plan: (t) =>
        t.service?.tokens.million !== undefined ? undefined : get(`${ORDERS}/${SEEDED_PREFIX}500`, (s) => s.tokens.thousand)(t),
    },
    {
      id: 'patch',
      title: `PATCH /api/v1/orders/{id} (metadata, ${SEEDED_COUNT.toLocaleString('en')} orders round-robin)`,
      script: 'patch.lua',
      plan: (t) => {
        const tok = t.service?.tokens.million !== undefined ? undefined : token(t, (s) => s.tokens.thousand);
        return tok === undefined
          ? undefined
          : { path: `${ORDERS}/${SEEDED_PREFIX}0`, args: (n) => [tok, n, `${ORDERS}/${SEEDED_PREFIX}`, String(SEEDED_COUNT)] };
      },
    },
    {
      id: 'redirect',
      title: 'GET /l/{slug} (short-link redirect)',
      script: 'get.lua',
      plan: (t) => {
        if (t.service === undefined) return { path: '/l/field-bench', args: () => ['-'] };
        return t.service.link.available ? { path: t.service.link.path!, args: () => ['-'] } : undefined;
      },
      ...(linkTargets > 0 ? {} : { skipped: 'not available on this build (POST /api/v1/links or GET /l/{slug} answered 404)' }),
    },
    {
      id: 'tracker',
      title: 'GET /tracker.js',
      script: 'get.lua',
      plan: (t) => (t.service === undefined || t.service.tracker.available ? { path: '/tracker.js', args: () => ['-'] } : undefined),
      ...(trackerTargets > 0 ? {} : { skipped: 'not available on this build (GET /tracker.js answered 404)' }),
    },
  ];
};

const runCell = async (target: Target, workload: Workload, plan: Plan): Promise<Cell> => {
  const env = {
    PATH: process.env['PATH'] ?? '',
    BENCH_LUA_DIR: LUA_DIR,
    ...(process.env['BENCH_STATUSES'] === '1' ? { BENCH_STATUSES: '1' } : {}),
  };
  const common = {
    url: target.server.url + plan.path,
    script: join(LUA_DIR, workload.script),
    connections: CONNECTIONS,
    threads: THREADS,
    timeoutSeconds: TIMEOUT,
    env,
  };
  const warm = await runWrk({ ...common, seconds: WARMUP, args: plan.args(nonce()) });
  const cpuBefore = target.server.cpuMs();
  const result = await runWrk({ ...common, seconds: DURATION, args: plan.args(nonce()) });
  const cpuUsPerRequest = ((target.server.cpuMs() - cpuBefore) * 1000) / result.requests;
  const memory = target.server.memory();
  return {
    result,
    warmupErrors: warm.non2xx3xx + warm.socketErrors,
    succeeded: warm.requests - warm.non2xx3xx + result.requests - result.non2xx3xx,
    rssMb: memory.rssMb,
    peakMb: memory.peakMb,
    cpuUsPerRequest,
  };
};

const errorsText = (cells: readonly Cell[]): string => {
  const non = cells.reduce((sum, c) => sum + c.result.non2xx3xx, 0);
  const socket = cells.reduce((sum, c) => sum + c.result.socketErrors, 0);
  if (non === 0 && socket === 0) return '0';
  return [non > 0 ? `${non} non-2xx/3xx` : '', socket > 0 ? `${socket} socket` : ''].filter((s) => s !== '').join(', ');
};

/** The round with the median rate (the lower of the two middle ones for an even count). */
const median = (cells: readonly Cell[]): Cell =>
  [...cells].sort((a, b) => a.result.perSecond - b.result.perSecond)[Math.floor((cells.length - 1) / 2)];

interface Measured {
  readonly workload: Workload;
  readonly rows: { readonly target: Target; readonly cell: Cell; readonly all: readonly Cell[] }[];
  /** About how many orders each store held when the workload started (listings on some stores cost more with more). */
  readonly storeOrders: ReadonlyMap<string, number>;
}

const ratioTo = (measured: Measured, name: string): number => {
  const base = measured.rows.find((r) => r.target.name === KOA)?.cell.result.perSecond ?? NaN;
  return (measured.rows.find((r) => r.target.name === name)?.cell.result.perSecond ?? NaN) / base;
};

const printWorkload = (m: Measured): string[] => {
  const koa = m.rows.find((r) => r.target.name === KOA)?.cell;
  const lines = table(
    ['target', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'RSS MB', 'peak MB', 'req/s vs Koa', 'p50 vs Koa', 'CPU µs/req', 'Koa / CPU'],
    m.rows.map(({ target, cell, all }) => [
      target.name,
      fixed(cell.result.perSecond, 0),
      fixed(cell.result.p50Ms, 2),
      fixed(cell.result.p99Ms, 2),
      errorsText(all),
      fixed(all[all.length - 1].rssMb, 0),
      fixed(Math.max(...all.map((c) => c.peakMb)), 0),
      fixed(cell.result.perSecond / (koa?.result.perSecond ?? NaN), 2),
      fixed(cell.result.p50Ms / (koa?.result.p50Ms ?? NaN), 2),
      fixed(cell.cpuUsPerRequest, 0),
      fixed((koa?.cpuUsPerRequest ?? NaN) / cell.cpuUsPerRequest, 2),
    ]),
  );
  for (const { target, all } of m.rows) {
    for (const cell of all) {
      if (cell.result.socketErrors > 0) lines.push(`  ${target.name}: socket errors ${cell.result.socketDetail}`);
      if (Object.keys(cell.result.statuses).length > 0) {
        lines.push(
          `  ${target.name}: statuses ${Object.entries(cell.result.statuses)
            .map(([s, n]) => `${s}×${n}`)
            .join(', ')}`,
        );
      }
    }
    const warm = all.reduce((sum, c) => sum + c.warmupErrors, 0);
    if (warm > 0) lines.push(`  ${target.name}: ${warm} errors during the warm-up`);
  }
  if (m.workload.title.startsWith('GET /api/v1/orders,')) {
    const held = m.rows
      .filter((r) => m.storeOrders.has(r.target.name))
      .map((r) => `${r.target.name} ${m.storeOrders.get(r.target.name)!.toLocaleString('en')}`);
    if (held.length > 0) lines.push(`  orders in each store (all dashboards) at the start, about: ${held.join(', ')}`);
  }
  if (m.rows.some(({ all }) => all.some((c) => c.result.non2xx3xx > 0)) && process.env['BENCH_STATUSES'] !== '1') {
    lines.push('  (BENCH_STATUSES=1 counts the answers by status)');
  }
  return lines;
};

const main = async (): Promise<void> => {
  const wrk = wrkVersion();
  if (wrk === undefined) {
    console.error('wrk is not installed (or BENCH_WRK does not name it). On Debian or Ubuntu: apt-get install -y wrk');
    process.exitCode = 1;
    return;
  }
  const started = new Date();
  const loadAtStart = loads();
  const header = [
    `orders-service field benchmark, ${started.toISOString()}, commit ${commit()}, Node ${process.version}, ${wrk}`,
    `${cpus().length} CPUs (${cpus()[0]?.model.trim() ?? '?'}), load average at start ${loadAtStart} (1, 5, 15 min)`,
    `wrk -t${THREADS} -c${CONNECTIONS} -d${DURATION}s --latency --timeout ${TIMEOUT}s after a ${WARMUP} s warm-up, per target and workload, ${ROUNDS} round(s)` +
      (ROUNDS > 1 ? ' (the median round by req/s is shown; RSS after the last round, peak over all)' : ''),
    'Noise: wrk, the servers (and the MongoDB server) share these cores, and other work on the machine',
    "adds to it; absolute rates are the machine's, the ratios to bare Koa in the same workload are the point.",
    'Each workload runs all its targets in turn, in an order rotated from one workload to the next.',
    ...(OTHER_BUILD === undefined ? [] : [`"${OTHER}" is the service built in ${OTHER_BUILD}`]),
  ];
  console.log(`${header.join('\n')}\n`);

  const services: ServiceTarget[] = [];
  const note = (line: string) => console.log(line);

  let million: Awaited<ReturnType<typeof millionFile>> | undefined;
  if (WITH_MILLION) {
    million = await millionFile(progress);
    note(`1M file: ${million.origin}, ${fixed(million.sizeMb, 0)} MB`);
  }

  if (TARGETS.has('sqlite')) {
    progress('starting the service on SQLite (fresh file) and seeding 1,000 orders over HTTP');
    services.push(await startSqlite(join(scratch, 'orders.db')));
  }
  if (OTHER_BUILD !== undefined) {
    progress(`starting the service of ${OTHER_BUILD} on SQLite (fresh file) and seeding 1,000 orders over HTTP`);
    services.push(await startSqlite(join(scratch, 'other.db'), OTHER, OTHER_BUILD));
  }
  if (TARGETS.has('memory')) {
    progress('starting the service on the in-memory store');
    services.push(await startWithAdminApi('memory', { STORE: 'memory' }));
  }
  if (!TARGETS.has('mongodb')) {
    note('MongoDB: not measured (BENCH_TARGETS leaves it out)');
  } else if (MONGODB_URI !== undefined) {
    progress(`starting the service on MongoDB (${mongoDb}, dropped at the end)`);
    mongoUsed = true;
    try {
      services.push(await startWithAdminApi('mongodb', { MONGODB_URI, MONGODB_DB: mongoDb }));
    } catch (err) {
      note(`MongoDB: not measured: ${err instanceof Error ? err.message : String(err)}`);
    }
  } else {
    note('MongoDB: not measured (set MONGODB_URI)');
  }
  if (million !== undefined) {
    services.push(await startMillion(million.path, { million: million.million.token, thousand: million.thousand.token }));
  }
  for (const s of services.filter((s) => s.tokens.million === undefined)) note(`${s.name}: ${s.link.note}; ${s.tracker.note}`);

  // What the baselines answer: the service's own bytes.
  const sqlite = services[0];
  if (sqlite === undefined) throw new Error('BENCH_TARGETS names no service (sqlite, memory or mongodb): the baselines answer its bytes');
  const fixtures = join(scratch, 'fixtures');
  mkdirSync(fixtures);
  const fetchText = async (path: string, token?: string) => {
    const res = await fetch(sqlite.server.url + path, {
      headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) throw new Error(`GET ${path} answered ${res.status}`);
    return res.text();
  };
  const page = await fetchText('/api/v1/orders', sqlite.tokens.thousand);
  const order = await fetchText(`/api/v1/orders/${SEEDED_PREFIX}500`, sqlite.tokens.thousand);
  const trackerFrom = services.find((s) => s.tracker.available);
  const tracker =
    trackerFrom === undefined
      ? '/* placeholder: no service has /tracker.js */\n'
      : await (await fetch(`${trackerFrom.server.url}/tracker.js`)).text();
  writeFileSync(join(fixtures, FIXTURE_FILES.page), page);
  writeFileSync(join(fixtures, FIXTURE_FILES.order), order);
  writeFileSync(join(fixtures, FIXTURE_FILES.tracker), tracker);
  writeFileSync(
    join(fixtures, FIXTURE_FILES.redirectTo),
    services.find((s) => s.link.available)?.link.destination ?? 'https://shop.example.com/',
  );
  note(`baselines answer the service's bytes: a page of 20 orders ${Buffer.byteLength(page)} B, one order ${Buffer.byteLength(order)} B`);

  const targets: Target[] = [
    ...(TARGETS.has('http')
      ? [{ name: 'node:http', server: await ServerProcess.start('node:http', BASELINE_HTTP_JS, { BENCH_FIXTURES: fixtures }) }]
      : []),
    ...(TARGETS.has('koa') ? [{ name: KOA, server: await ServerProcess.start(KOA, BASELINE_KOA_JS, { BENCH_FIXTURES: fixtures }) }] : []),
    ...services.map((service) => ({ name: service.name, server: service.server, service })),
  ];
  const workloads = workloadsFor(
    targets,
    services.filter((s) => s.link.available).length,
    services.filter((s) => s.tracker.available).length,
  ).filter((w) => WORKLOADS.has(w.id));

  const measured: Measured[] = [];
  let rotation = 0;
  /** Orders each service's store holds: the seeded ones, then the POSTs that succeeded. */
  const storeOrders = new Map<string, number>(
    services.map((s) => [s.name, s.tokens.million !== undefined ? MILLION + SEEDED_COUNT : SEEDED_COUNT]),
  );
  for (const workload of workloads) {
    console.log(`\n## ${workload.title}\n`);
    if (workload.skipped !== undefined) {
      console.log(`skipped: ${workload.skipped}`);
      continue;
    }
    const taking = targets.filter((t) => workload.plan(t) !== undefined);
    const cells = new Map<Target, Cell[]>(taking.map((t) => [t, []]));
    for (let round = 0; round < ROUNDS; round++) {
      const shift = rotation++ % taking.length;
      for (const target of [...taking.slice(shift), ...taking.slice(0, shift)]) {
        if (!target.server.alive) {
          progress(`  ${target.name}: the process has exited; skipped`);
          continue;
        }
        const cell = await runCell(target, workload, workload.plan(target)!);
        progress(
          `  ${workload.title} / ${target.name}: ${fixed(cell.result.perSecond, 0)} req/s, ${fixed(cell.cpuUsPerRequest, 0)} CPU µs/req, ${errorsText([cell])} errors (load ${loads()})`,
        );
        cells.get(target)!.push(cell);
      }
    }
    const m: Measured = {
      workload,
      rows: taking
        .filter((t) => cells.get(t)!.length > 0)
        .map((target) => ({ target, cell: median(cells.get(target)!), all: cells.get(target)! })),
      storeOrders: new Map(storeOrders),
    };
    if (workload.script === 'post.lua') {
      for (const [target, all] of cells) {
        if (storeOrders.has(target.name))
          storeOrders.set(target.name, storeOrders.get(target.name)! + all.reduce((sum, c) => sum + c.succeeded, 0));
      }
    }
    measured.push(m);
    for (const line of printWorkload(m)) console.log(line);
  }

  // Goals, on the default durable store.
  const find = (title: string) => measured.find((m) => m.workload.title.startsWith(title));
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const goal = (label: string, m: Measured | undefined, target: string, min: number): string => {
    if (m === undefined || !m.rows.some((r) => r.target.name === target)) return `- ${label}: not measured`;
    const r = ratioTo(m, target);
    const rate = (name: string) => fixed(m.rows.find((row) => row.target.name === name)?.cell.result.perSecond ?? NaN, 0);
    return `- ${label} ≥ ${min} of bare Koa: ${fixed(r, 2)} (${rate(target)} / ${rate(KOA)} req/s): ${verdict(r >= min)}`;
  };
  const goals = [
    goal('POST, no key (sqlite)', find('POST /api/v1/orders, no'), 'sqlite', 0.6),
    goal('POST, with a key (sqlite)', find('POST /api/v1/orders, a new'), 'sqlite', 0.6),
    goal('GET list, empty dashboard (sqlite)', find('GET /api/v1/orders, empty'), 'sqlite', 0.6),
    goal('GET list, 1,000 orders (sqlite)', find('GET /api/v1/orders, 1,000 orders'), 'sqlite', 0.6),
  ];
  const large = find('GET /api/v1/orders, 1,000,000');
  const small = find('GET /api/v1/orders, 1,000 orders');
  const onMillion = 'sqlite, 1M file';
  if (million === undefined || large === undefined) {
    goals.push(
      '- GET list, 1,000,000 orders ≥ 0.6 of bare Koa: not measured (BENCH_1M=1)',
      '- a page at 1M orders ≤ 2× its cost at 1k: not measured (BENCH_1M=1)',
      '- RSS ≤ 200 MB at 1M orders: not measured (BENCH_1M=1)',
    );
  } else {
    goals.push(goal('GET list, 1,000 orders (sqlite, 1M file)', small, onMillion, 0.6));
    goals.push(goal('GET list, 1,000,000 orders (sqlite, 1M file)', large, onMillion, 0.6));
    const at = (m: Measured | undefined) => m?.rows.find((r) => r.target.name === onMillion)?.cell.result;
    const k = at(small);
    const M = at(large);
    if (k === undefined || M === undefined) goals.push('- a page at 1M orders ≤ 2× its cost at 1k: not measured');
    else {
      const byRate = k.perSecond / M.perSecond;
      const byP50 = M.p50Ms / k.p50Ms;
      goals.push(
        `- a page at 1M orders ≤ 2× its cost at 1k (one file, one process): by 1/req/s ${fixed(byRate, 2)}× ` +
          `(${fixed(M.perSecond, 0)} vs ${fixed(k.perSecond, 0)} req/s), by p50 ${fixed(byP50, 2)}× (${fixed(M.p50Ms, 2)} vs ${fixed(k.p50Ms, 2)} ms): ` +
          verdict(byRate <= 2 && byP50 <= 2),
      );
    }
    const cells1M = [small, large].flatMap((m) => m?.rows.find((r) => r.target.name === onMillion)?.all ?? []);
    const peak = Math.max(...cells1M.map((c) => c.peakMb));
    const after = large.rows.find((r) => r.target.name === onMillion)?.all.at(-1)?.rssMb ?? NaN;
    const others = measured
      .flatMap((m) => m.rows)
      .filter((r) => r.target.name !== onMillion)
      .reduce(
        (map, r) => map.set(r.target.name, Math.max(map.get(r.target.name) ?? 0, ...r.all.map((c) => c.peakMb))),
        new Map<string, number>(),
      );
    goals.push(
      `- RSS ≤ 200 MB at 1M orders: peak ${fixed(peak, 0)} MB (VmHWM of the service on the ${MILLION.toLocaleString('en')}-order file over its ` +
        `listings, ${CONNECTIONS} connections; VmRSS ${fixed(after, 0)} MB after the last): ${verdict(peak <= 200)}. ` +
        `Peaks of the others over the run: ${[...others].map(([name, mb]) => `${name} ${fixed(mb, 0)} MB`).join(', ')}`,
    );
  }
  console.log(`\n## Goals, on the default durable store (SQLite)\n\n${goals.join('\n')}`);
  console.log(`\nload average at the end ${loads()}; ${((Date.now() - started.getTime()) / 1000).toFixed(0)} s in all`);
};

main()
  .catch((err: unknown) => {
    if (interrupted) return;
    console.error('field bench failed:', err instanceof Error ? err.message : err);
    process.exitCode = 1;
  })
  .finally(() => cleanup());
