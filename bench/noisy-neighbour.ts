import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { runCli } from '../src/bootstrap/cli';
import { BENCH_ADMIN_TOKEN, benchTenant, eventLoopDelay, startBenchService, stopBenchService } from './bench-service';
import { anOrderPayload } from '../test/support/order-builder';

/**
 * One tenant against another (DECISIONS D23, issue 24). The service runs as its own process on a fresh
 * SQLite file, with two dashboards. A victim sends one request after another, each `POST
 * /api/v1/orders` followed by `GET /healthz`, first alone, then while the other tenant runs each
 * attack from 2 loops (the password flood from 16): the victim's p50 and p99 of both, as ratios to
 * the alone baseline of the same run, and the event loop's delay p99 and max as the service's own
 * metrics say it (prom-client's histogram, reset at each scrape). The hostile batches, the bad CSVs
 * and the source webhooks run from BENCH_ATTACK_LOOPS loops (16), half of each kind; `refused` counts
 * the attacks answered 429 or 503, or cut off. Loopback only; prints, asserts nothing: `npm run bench:neighbour`.
 * Goals: every ratio under 5x, event-loop delay p99 under 20 ms.
 */

const PHASE_MS = Number(process.env['BENCH_PHASE_MS'] ?? 8_000);
const KEYS = Number(process.env['BENCH_KEYS'] ?? 30_000);
const ATTACK_LOOPS = Number(process.env['BENCH_ATTACK_LOOPS'] ?? 16);
const BATCH_LIMIT = 4 * 1024 * 1024;
const OWNER = { email: 'attacker@shop.example', password: 'attacker password 1' };

const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

const time = async (fn: () => Promise<unknown>): Promise<number> => {
  const started = performance.now();
  await fn();
  return performance.now() - started;
};

/** `{"orders":[0,0,…]}` of 4 MiB: two million numbers. */
const numbersBatch = (): string => {
  const count = Math.floor((BATCH_LIMIT - 16) / 2);
  return `{"orders":[${'0,'.repeat(count - 1)}0]}`;
};

/** `{"orders":[[[[…]]]]}` of 4 MiB: arrays two million deep. */
const deepBatch = (): string => {
  const depth = Math.floor((BATCH_LIMIT - 16) / 2);
  return `{"orders":[${'['.repeat(depth)}${']'.repeat(depth)}]}`;
};

/** 2 MiB of spend lines on a date that does not exist. */
const badLinesCsv = (): Buffer => {
  const line = '2026-02-30,google,cpc,black-friday,ad-1,BRL,1234.50\n';
  return Buffer.from(
    `date,utm_source,utm_medium,utm_campaign,utm_content,currency,amount\n${line.repeat(Math.floor((2 * 1024 * 1024 - 80) / line.length))}`,
  );
};

/** 2 MiB of spend lines each with a byte that is not UTF-8 (a Latin-1 ç). */
const notUtf8Csv = (): Buffer => {
  const line = Buffer.concat([Buffer.from('2026-03-01,google,cpc,promo'), Buffer.from([0xe7]), Buffer.from('ao,ad-1,BRL,1234.50\n')]);
  const header = Buffer.from('date,utm_source,utm_medium,utm_campaign,utm_content,currency,amount\n');
  return Buffer.concat([header, ...Array<Buffer>(Math.floor((2 * 1024 * 1024 - 80) / line.length)).fill(line)]);
};

interface Phase {
  readonly name: string;
  /** The attack's loops, each running until `stop()` says so; each counts the requests it made, and their statuses. */
  readonly loops: readonly ((stop: () => boolean, done: (status: number) => void) => Promise<void>)[];
}

/** The console's sign-in form, as the attacker's owner. */
const signInAs = (base: string, password: string) =>
  fetch(`${base}/console/sign-in`, {
    method: 'POST',
    headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: OWNER.email, password }).toString(),
    redirect: 'manual',
  });

/** What the attacker's loops need, handed to the worker thread that runs them. */
interface AttackSetting {
  readonly base: string;
  readonly token: string;
  readonly cookie: string;
  readonly csrf: string;
  readonly sourceId: string;
  readonly wide: string;
  readonly widePage: string;
}

const repeat =
  (request: () => Promise<Response>) =>
  async (stop: () => boolean, done: (status: number) => void): Promise<void> => {
    while (!stop()) {
      // A refusal may close the connection before the body is sent whole: fetch then rejects.
      const status = await request()
        .then(async (res) => (await res.arrayBuffer(), res.status))
        .catch(() => 0);
      done(status);
    }
  };

/** ATTACK_LOOPS loops, the first half sending `first`, the second `second`. */
const halves = (first: () => Promise<Response>, second: () => Promise<Response>) =>
  Array.from({ length: ATTACK_LOOPS }, (_, i) => repeat(i < ATTACK_LOOPS / 2 ? first : second));

/** Each phase and its attack, the alone phase first. */
const attackPhases = (s: AttackSetting): Phase[] => {
  const { base, cookie, csrf } = s;
  const call = (method: string, path: string, body?: string) =>
    fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${s.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body }),
    });
  const signIn = (password: string) => signInAs(base, password);
  const consolePost = (path: string, body: URLSearchParams | FormData) => {
    body.set('csrf', csrf);
    return fetch(`${base}${path}`, { method: 'POST', headers: { cookie, origin: base }, body, redirect: 'manual' });
  };
  const numbers = numbersBatch();
  const deep = deepBatch();
  const [badLines, notUtf8] = [badLinesCsv(), notUtf8Csv()];
  const upload = (bytes: Buffer) => {
    const form = new FormData();
    form.set('file', new Blob([bytes], { type: 'text/csv' }), 'spend.csv');
    return consolePost('/console/spend', form);
  };
  // Deliveries of BODY_LIMIT_BYTES whose signature is wrong: no token, read whole, then refused.
  const delivery = Buffer.alloc(256 * 1024 - 64, 'x');
  const deliver = (sourceId: string) => () =>
    fetch(`${base}/in/v1/${sourceId}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-shopify-hmac-sha256': 'bm90IHRoZSBzaWduYXR1cmU=',
        'x-shopify-topic': 'orders/create',
      },
      body: delivery,
    });
  return [
    { name: 'alone', loops: [] },
    {
      name: 'password flood (16 loops)',
      loops: Array.from({ length: 16 }, (_, i) =>
        repeat(() =>
          i % 2 === 0
            ? signIn('a wrong password 123')
            : consolePost('/console/password', new URLSearchParams({ current: 'a wrong password 123', next: 'another password 123' })),
        ),
      ),
    },
    {
      name: `hostile batches (4 MiB numbers, deep; ${ATTACK_LOOPS})`,
      loops: halves(
        () => call('POST', '/api/v1/orders/batch', numbers),
        () => call('POST', '/api/v1/orders/batch', deep),
      ),
    },
    {
      name: `wide reports (3 dims, a year, ${KEYS} keys)`,
      loops: [repeat(() => call('GET', s.wide)), repeat(() => fetch(`${base}${s.widePage}`, { headers: { cookie } }))],
    },
    {
      name: `bad CSVs (2 MiB bad lines, not UTF-8; ${ATTACK_LOOPS})`,
      loops: halves(
        () => upload(badLines),
        () => upload(notUtf8),
      ),
    },
    {
      name: `source webhooks (256 KiB, bad signature; ${ATTACK_LOOPS})`,
      loops: halves(deliver(s.sourceId), deliver('src_unknownsource0000000000')),
    },
  ];
};

/**
 * In a worker thread, so that the attacker's own work (building and sending 16 bodies of 4 MiB) does
 * not delay the victim's requests in this process: phase `index`'s loops until told to stop, then
 * how many attacks went and how many were refused.
 */
const attack = async ({ setting, index }: { setting: AttackSetting; index: number }): Promise<void> => {
  let stopped = false;
  let attacks = 0;
  let refused = 0;
  parentPort?.on('message', () => {
    stopped = true;
  });
  const loops = attackPhases(setting)[index].loops.map((loop) =>
    loop(
      () => stopped,
      (status) => {
        attacks++;
        if (status === 429 || status === 503 || status === 0) refused++;
      },
    ),
  );
  parentPort?.postMessage('started');
  await Promise.all(loops);
  parentPort?.postMessage({ attacks, refused });
};

const main = async (): Promise<void> => {
  const dir = mkdtempSync(join(tmpdir(), 'neighbour-'));
  const sqlitePath = join(dir, 'orders.db');
  const running = await startBenchService({
    SQLITE_PATH: sqlitePath,
    ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
    RATE_LIMIT_MAX: '1000000000',
  });
  const { base, metricsPort } = running;
  try {
    const victim = await benchTenant(base, 'victim');
    const attacker = await benchTenant(base, 'attacker');
    const api = (token: string, method: string, path: string, body?: string) =>
      fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body }),
      });

    // The attacker's wide data: KEYS distinct (source, medium, campaign) keys over the last year.
    const now = Date.now();
    const seeded = performance.now();
    for (let at = 0; at < KEYS; at += 500) {
      const orders = Array.from({ length: Math.min(500, KEYS - at) }, (_, i) => {
        const k = at + i;
        return anOrderPayload({
          externalId: `seed-${k}`,
          status: k % 3 === 0 ? 'paid' : 'pending',
          createdAt: new Date(now - ((k * 7_919) % 360) * 86_400_000 - 60_000).toISOString(),
          tracking: { utmSource: `s${k % 30}`, utmMedium: `m${Math.floor(k / 30) % 10}`, utmCampaign: `c${Math.floor(k / 300)}` },
        });
      });
      const res = await api(attacker.token, 'POST', '/api/v1/orders/batch', JSON.stringify({ orders }));
      if (res.status !== 200) throw new Error(`seeding answered ${res.status}`);
      await res.arrayBuffer();
    }
    console.log(`Seeded ${KEYS} orders with ${KEYS} distinct keys in ${((performance.now() - seeded) / 1000).toFixed(1)} s.`);

    // The attacker's console account, made with the CLI on the same file while the service runs.
    const made = await runCli(
      ['users', 'create-owner', '--email', OWNER.email, '--dashboard', attacker.dashboard],
      { SQLITE_PATH: sqlitePath, ORDERS_PASSWORD: OWNER.password },
      { out: () => undefined, err: (line) => console.error(line) },
    );
    if (made !== 0) throw new Error('the owner could not be made');
    const cookie = /orders_session=[^;]+/.exec((await signInAs(base, OWNER.password)).headers.get('set-cookie') ?? '')?.[0];
    if (cookie === undefined) throw new Error('the attacker could not sign in');
    const csrf =
      /name="csrf" value="([^"]+)"/.exec(await (await fetch(`${base}/console/spend`, { headers: { cookie } })).text())?.[1] ?? '';

    // The attacker's Shopify source, for the deliveries with a bad signature.
    const source = (await (
      await api(
        attacker.token,
        'POST',
        '/api/v1/sources',
        JSON.stringify({ platform: 'shopify', name: 'shop', secret: 'a-shopify-secret-0123456789' }),
      )
    ).json()) as { source: { id: string } };
    const yearAgo = new Date(now - 365 * 86_400_000);
    const setting: AttackSetting = {
      base,
      token: attacker.token,
      cookie,
      csrf,
      sourceId: source.source.id,
      wide: `/api/v1/reports/breakdown?from=${encodeURIComponent(yearAgo.toISOString())}&to=${encodeURIComponent(new Date(now).toISOString())}&by=utmSource,utmMedium,utmCampaign&limit=1000`,
      widePage: `/console/reports?period=custom&from=${yearAgo.toISOString().slice(0, 10)}&to=${new Date(now).toISOString().slice(0, 10)}&by1=utmSource&by2=utmMedium&by3=utmCampaign`,
    };
    const metric = () => eventLoopDelay(metricsPort);

    let order = 0;
    const run = async (name: string, index: number) => {
      let counted = Promise.resolve({ attacks: 0, refused: 0 });
      let worker: Worker | undefined;
      if (index > 0) {
        const started = new Worker(__filename, { workerData: { setting, index } });
        worker = started;
        counted = new Promise((resolve, reject) => {
          started.on('message', (message: unknown) => {
            if (typeof message === 'object') resolve(message as { attacks: number; refused: number });
          });
          started.once('error', reject);
        });
        await new Promise<void>((resolve, reject) => {
          started.on('message', (message: unknown) => message === 'started' && resolve());
          started.once('error', reject);
        });
      }
      await metric();
      const posts: number[] = [];
      const probes: number[] = [];
      const until = Date.now() + PHASE_MS;
      while (Date.now() < until) {
        posts.push(
          await time(async () => {
            const res = await api(victim.token, 'POST', '/api/v1/orders', JSON.stringify(anOrderPayload({ externalId: `v-${order++}` })));
            await res.arrayBuffer();
            if (res.status !== 201) throw new Error(`the victim's order answered ${res.status}`);
          }),
        );
        probes.push(await time(async () => (await fetch(`${base}/healthz`)).arrayBuffer()));
      }
      const loop = await metric();
      worker?.postMessage('stop');
      const { attacks, refused } = await counted;
      await worker?.terminate();
      posts.sort((a, b) => a - b);
      probes.sort((a, b) => a - b);
      return { name, attacks, refused, posts, probes, loop };
    };
    const names = attackPhases(setting).map((phase) => phase.name);
    const results = [];
    for (const [index, name] of names.entries()) results.push(await run(name, index));
    const [alone] = results;
    const ratio = (x: number, y: number) => `${(x / y).toFixed(2)}x`;
    console.log(
      `\nThe victim's requests, ${PHASE_MS / 1000} s per phase (ms; ratios to alone); event-loop delay from the service's metrics:`,
    );
    console.log(
      'phase                                        attacks  refused  POST p50  p99      ratio p50/p99   healthz p50  p99      ratio p50/p99   loop p99  max',
    );
    for (const r of results) {
      const [p50, p99, h50, h99] = [
        percentile(r.posts, 0.5),
        percentile(r.posts, 0.99),
        percentile(r.probes, 0.5),
        percentile(r.probes, 0.99),
      ];
      console.log(
        `${r.name.padEnd(44)} ${String(r.attacks).padStart(7)}  ${String(r.refused).padStart(7)}  ${p50.toFixed(1).padStart(8)}  ${p99.toFixed(1).padStart(7)}  ${ratio(p50, percentile(alone.posts, 0.5)).padStart(6)}/${ratio(p99, percentile(alone.posts, 0.99)).padEnd(7)}  ${h50.toFixed(1).padStart(11)}  ${h99.toFixed(1).padStart(7)}  ${ratio(h50, percentile(alone.probes, 0.5)).padStart(6)}/${ratio(h99, percentile(alone.probes, 0.99)).padEnd(7)}  ${r.loop.p99.toFixed(1).padStart(8)}  ${r.loop.max.toFixed(1).padStart(6)}`,
      );
    }
  } finally {
    await stopBenchService(running, dir);
  }
};

(isMainThread ? main() : attack(workerData as { setting: AttackSetting; index: number })).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
