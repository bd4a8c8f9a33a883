import BetterSqlite3 from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { Agent, createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { runCli } from '../src/bootstrap/cli';
import { BENCH_ADMIN_TOKEN, benchTenant, eventLoopDelay, startBenchService, stopBenchService } from './bench-service';
import { anOrderPayload } from '../test/support/order-builder';
import { send as sendRequest } from './load';

/**
 * One tenant against another. The service runs as its own process on a fresh SQLite file, with two
 * dashboards. A victim sends one request after another, each `POST /api/v1/orders` followed by `GET
 * /healthz`, first alone, then while the other tenant runs each case from a process of its own (at
 * the same CPU priority under the default layout, see LAYOUT): the victim's
 * p50 and p99 of both as ratios to the alone baseline of the same run, the event loop's delay p99 and
 * max as the service's own metrics say it (prom-client's histogram, reset at each scrape), and how long
 * after its POST's answer each of the victim's orders reached the victim's webhook receiver (on
 * loopback, answering at once). `attacks` counts the attacker's requests answered, `refused` those
 * answered 429 or 503, or cut off. Between two cases the bench waits for the re-pricing jobs a case
 * left to end. Prints, asserts nothing: `npm run bench:neighbour`.
 *
 * The cases: password forms (16 loops of wrong passwords), hostile and full batches, wide reports,
 * bad CSVs, well-formed 2 MiB costs and spend CSVs (4 loops each, their rows stored in slices), 40
 * concurrent sign-ins with the right password from one address and from 40, source deliveries with a
 * bad signature, and 20 webhook endpoints that never answer while the attacker records orders.
 * Goals: every ratio under 5x; an upload never holds the event loop past 20 ms at a time.
 */

const PHASE_MS = Number(process.env['BENCH_PHASE_MS'] ?? 8_000);
const KEYS = Number(process.env['BENCH_KEYS'] ?? 30_000);
const ATTACK_LOOPS = Number(process.env['BENCH_ATTACK_LOOPS'] ?? 16);
/** BENCH_CASES=upload,sign-in: only the cases whose names hold one of these words (the alone baseline always runs). */
const CASES = (process.env['BENCH_CASES'] ?? '').split(',').filter((word) => word !== '');
const BATCH_LIMIT = 4 * 1024 * 1024;
/** The batch limit the service runs with: 500 orders of 200 lines each (4.5 MB) fit under it. */
const SERVICE_BATCH_LIMIT = 5 * 1024 * 1024;
const CSV_BYTES = 2 * 1024 * 1024;
/** The console's public address: forms come from its origin. */
const PUBLIC = 'http://orders.bench';
const WEBHOOK_TIMEOUT_MS = 2_000;
/**
 * Where each process runs. `shared` (the default): every process on every core at one priority, where
 * the attacker's client (encoding and sending 4 MiB bodies at full speed) takes cores the service
 * needs, and the ratios measure the client as well as the service. `split`: the service alone on core
 * 0, as a server is on machines of its own, and both clients on core 1, the attacker's at the lowest
 * priority (nice 19), so that it takes what the victim's client leaves of that core and never delays
 * the victim's own sending. The service then has one core for its event loop and its threads (the
 * WAL's checkpoints and syncs, password hashing, reports, garbage collection), in the alone baseline
 * too; on a 2-core machine that measured worse than sharing both.
 */
const LAYOUT = process.env['BENCH_LAYOUT'] ?? 'shared';
const ATTACKER_NICE = 19;
/** `taskset -c <core>` under the split layout, nothing under the shared one. */
const onCore = (core: number): string[] => (LAYOUT === 'split' ? ['taskset', '-c', String(core)] : []);
const ATTACKER_ARGUMENT = '--attacker';
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

/** 2 MiB of product costs, one product a line (about 84,000), the sold product p-1 last at `cents`. */
const costsCsv = (cents: number): Buffer => {
  const head = 'product,currency,unit_cost,from\n';
  const last = `p-1,BRL,${(cents / 100).toFixed(2)},2025-01-01\n`;
  const lines: string[] = [];
  let bytes = head.length + last.length;
  for (let i = 0; ; i++) {
    const line = `P${String(i).padStart(6, '0')},BRL,1.5,2025-01-01\n`;
    if (bytes + line.length > CSV_BYTES) break;
    lines.push(line);
    bytes += line.length;
  }
  return Buffer.from(head + lines.join('') + last);
};

/** 2 MiB of spend, separated by `;` with decimal commas: a campaign a line (about 40,000). */
const spendCsv = (): Buffer => {
  const head = 'date;utm_source;utm_medium;utm_campaign;utm_content;currency;amount\n';
  const lines: string[] = [];
  let bytes = head.length;
  for (let i = 0; ; i++) {
    const line = `2026-03-${String(1 + (i % 28)).padStart(2, '0')};google;cpc;c-${i};ad-1;BRL;1234,50\n`;
    if (bytes + line.length > CSV_BYTES) break;
    lines.push(line);
    bytes += line.length;
  }
  return Buffer.from(head + lines.join(''));
};

/**
 * 500 orders of 200 lines each, the largest batch of orders that the API takes, whose ids start with
 * a prefix of 8 characters: the body is encoded once, and each batch copies it with a prefix of its own.
 */
const batchesAtTheLimit = (): ((prefix: string) => Buffer) => {
  const product = { name: 'p', quantity: 1, unitPriceCents: 1 };
  const marker = '@@PREFIX';
  const orders = Array.from({ length: 500 }, (_, i) =>
    anOrderPayload({ externalId: `${marker}-${i}`, products: Array<typeof product>(200).fill(product) }),
  );
  const parts = JSON.stringify({ orders })
    .split(marker)
    .map((part) => Buffer.from(part));
  return (prefix) => {
    if (prefix.length !== marker.length) throw new Error(`a batch's prefix has ${marker.length} characters: ${prefix}`);
    const id = Buffer.from(prefix);
    return Buffer.concat(parts.flatMap((part, i) => (i === 0 ? [part] : [id, part])));
  };
};

/**
 * The attacker's large requests go through node:http with bodies encoded once: fetch copies the body
 * it is given at every request, and 16 loops re-encoding 4 MiB took a whole core of this 2-core
 * machine from the service, a cost a real attacker pays on its own machines. Resolves to the status,
 * 0 when the connection was cut.
 */
const attackAgent = new Agent({ keepAlive: true });
const send = (url: string, method: string, headers: Readonly<Record<string, string>>, body?: Buffer): Promise<number> => {
  const { origin, pathname } = new URL(url);
  return sendRequest(attackAgent, new URL(origin), { method, path: pathname, headers, body }).then(
    (answer) => answer.status,
    () => 0,
  );
};

/** A multipart/form-data body of one CSV file (`file`) and the form's other fields, encoded once. */
const multipartOf = (fields: Readonly<Record<string, string>>, file: Buffer): { readonly body: Buffer; readonly type: string } => {
  const boundary = `----bench${randomBytes(12).toString('hex')}`;
  const head = Object.entries(fields)
    .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
    .join('');
  return {
    body: Buffer.concat([
      Buffer.from(
        `${head}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="file.csv"\r\nContent-Type: text/csv\r\n\r\n`,
      ),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    type: `multipart/form-data; boundary=${boundary}`,
  };
};

interface Phase {
  readonly name: string;
  /** The attack's loops, each running until `stop()` says so; each counts the requests it made, and their statuses. */
  readonly loops: readonly ((stop: () => boolean, done: (status: number) => void) => Promise<void>)[];
}

/** The console's sign-in form, as the attacker's owner; from `address` when given (the service trusts X-Forwarded-For). */
const signInAs = (base: string, password: string, address?: string) =>
  fetch(`${base}/console/sign-in`, {
    method: 'POST',
    headers: {
      origin: PUBLIC,
      'content-type': 'application/x-www-form-urlencoded',
      ...(address === undefined ? {} : { 'x-forwarded-for': address }),
    },
    body: new URLSearchParams({ email: OWNER.email, password }).toString(),
    redirect: 'manual',
  });

/** What the attacker's loops need, handed to the process that runs them. */
interface AttackSetting {
  readonly base: string;
  readonly token: string;
  readonly cookie: string;
  readonly csrf: string;
  readonly sourceId: string;
  readonly wide: string;
  readonly widePage: string;
  /** The attacker's password, for sign-ins that hash to the end. */
  readonly password: string;
}

const repeat =
  (request: () => Promise<Response | number>) =>
  async (stop: () => boolean, done: (status: number) => void): Promise<void> => {
    while (!stop()) {
      // A refusal may close the connection before the body is sent whole: fetch then rejects.
      const status = await request()
        .then(async (res) => (typeof res === 'number' ? res : (await res.arrayBuffer(), res.status)))
        .catch(() => 0);
      done(status);
    }
  };

/** ATTACK_LOOPS loops, the first half sending `first`, the second `second`. */
const halves = (first: () => Promise<Response | number>, second: () => Promise<Response | number>) =>
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
    return fetch(`${base}${path}`, { method: 'POST', headers: { cookie, origin: PUBLIC }, body, redirect: 'manual' });
  };
  const bearer = { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' };
  const numbers = Buffer.from(numbersBatch());
  const deep = Buffer.from(deepBatch());
  const batchOf = (body: Buffer) => () => send(`${base}/api/v1/orders/batch`, 'POST', bearer, body);
  const uploadOf = (bytes: Buffer, path = '/console/spend') => {
    const { body, type } = multipartOf({ csrf }, bytes);
    return () => send(`${base}${path}`, 'POST', { cookie, origin: PUBLIC, 'content-type': type }, body);
  };
  // Costs that change at every upload (each re-prices the sold product), cycling through 8 files.
  const costUploads = Array.from({ length: 8 }, (_, i) => uploadOf(costsCsv(100 + i * 7), '/console/costs'));
  let costRound = 0;
  const batchAtTheLimit = batchesAtTheLimit();
  let batches = 0;
  // Deliveries of BODY_LIMIT_BYTES whose signature is wrong: no token, read whole, then refused.
  const delivery = Buffer.alloc(256 * 1024 - 64, 'x');
  const deliver = (sourceId: string) => () =>
    send(
      `${base}/in/v1/${sourceId}`,
      'POST',
      { 'content-type': 'application/json', 'x-shopify-hmac-sha256': 'bm90IHRoZSBzaWduYXR1cmU=', 'x-shopify-topic': 'orders/create' },
      delivery,
    );
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
      loops: halves(batchOf(numbers), batchOf(deep)),
    },
    {
      name: `wide reports (3 dims, a year, ${KEYS} keys)`,
      loops: [repeat(() => call('GET', s.wide)), repeat(() => fetch(`${base}${s.widePage}`, { headers: { cookie } }))],
    },
    {
      name: `bad CSVs (2 MiB bad lines, not UTF-8; ${ATTACK_LOOPS})`,
      loops: halves(uploadOf(badLinesCsv()), uploadOf(notUtf8Csv())),
    },
    {
      name: `source webhooks (256 KiB, bad signature; ${ATTACK_LOOPS})`,
      loops: halves(deliver(s.sourceId), deliver('src_unknownsource0000000000')),
    },
    {
      name: 'costs CSV upload (2 MiB, 84k rows; 4)',
      loops: Array.from({ length: 4 }, () => repeat(() => costUploads[costRound++ % costUploads.length]())),
    },
    { name: 'spend CSV upload (2 MiB, 40k rows; 4)', loops: Array.from({ length: 4 }, () => repeat(uploadOf(spendCsv()))) },
    {
      name: 'batch at the limit (500 x 200 lines; 4)',
      loops: Array.from({ length: 4 }, () => repeat(() => batchOf(batchAtTheLimit(`b${String(batches++).padStart(7, '0')}`))())),
    },
    {
      name: 'sign-in flood (40 concurrent, 1 address)',
      loops: Array.from({ length: 40 }, () => repeat(() => signInAs(base, s.password, '203.0.113.7'))),
    },
    {
      name: 'sign-in flood (40 concurrent, 40 addresses)',
      loops: Array.from({ length: 40 }, (_, i) => repeat(() => signInAs(base, s.password, `198.51.100.${i + 1}`))),
    },
    { name: 'alone, again', loops: [] },
    {
      name: 'hanging webhook endpoints (20; orders, 4)',
      loops: Array.from({ length: 4 }, (_, loop) => {
        let n = 0;
        return repeat(() => call('POST', '/api/v1/orders', JSON.stringify(anOrderPayload({ externalId: `hang-${loop}-${n++}` }))));
      }),
    },
  ];
};

/**
 * In a process of its own, so that the attacker's own work (building and sending 16 bodies of 4 MiB)
 * does not delay the victim's requests in this one: phase `index`'s loops until told to stop, then
 * how many attacks went and how many were refused.
 */
const attack = async ({ setting, index }: { setting: AttackSetting; index: number }): Promise<void> => {
  let stopped = false;
  let attacks = 0;
  let refused = 0;
  const told = new Promise<void>((resolve) =>
    process.once('message', () => {
      stopped = true;
      resolve();
    }),
  );
  const loops = attackPhases(setting)[index].loops.map((loop) =>
    loop(
      () => stopped,
      (status) => {
        attacks++;
        if (status === 429 || status === 503 || status === 0) refused++;
      },
    ),
  );
  process.send?.('started');
  // A phase without loops ("alone, again") waits to be told as well.
  await Promise.all([...loops, told]);
  process.send?.({ attacks, refused });
  process.disconnect();
  attackAgent.destroy();
};

/** The attacker's process (on core 1 at nice 19 under the split layout), running phase `index` until sent a message; resolves once it has started. */
const startAttacker = async (
  setting: AttackSetting,
  index: number,
): Promise<{ readonly child: ChildProcess; readonly counted: Promise<{ attacks: number; refused: number }> }> => {
  const [command, ...args] = [...onCore(1), process.execPath, __filename, ATTACKER_ARGUMENT, JSON.stringify({ setting, index })];
  const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  if (LAYOUT === 'split' && child.pid !== undefined) setPriority(child.pid, ATTACKER_NICE);
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`the attacker's process ended (${String(code)}) before it counted`))),
  );
  const counted = Promise.race([
    new Promise<{ attacks: number; refused: number }>((resolve) =>
      child.on('message', (message: unknown) => typeof message === 'object' && resolve(message as { attacks: number; refused: number })),
    ),
    exited,
  ]);
  await Promise.race([
    new Promise<void>((resolve) => child.on('message', (message: unknown) => message === 'started' && resolve())),
    exited,
  ]);
  return { child, counted };
};

const main = async (): Promise<void> => {
  // The victim's process (every thread of it) on core 1, the attacker's core, away from the service.
  if (LAYOUT === 'split') execFileSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
  console.log(
    `Layout: ${LAYOUT === 'split' ? 'the service alone on core 0; the victim on core 1, and the attacker there at nice 19' : 'every process on every core'}.`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'neighbour-'));
  const sqlitePath = join(dir, 'orders.db');
  const running = await startBenchService(
    {
      SQLITE_PATH: sqlitePath,
      ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
      RATE_LIMIT_MAX: '1000000000',
      BATCH_BODY_LIMIT_BYTES: String(SERVICE_BATCH_LIMIT),
      // The sign-in floods come from addresses of their own; the victim's API calls carry a token.
      TRUST_PROXY: 'on',
      PUBLIC_BASE_URL: PUBLIC,
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_TIMEOUT_MS: String(WEBHOOK_TIMEOUT_MS),
      // BENCH_SERVICE_NODE_OPTIONS=--cpu-prof: the service's CPU profile, to see what held its loop.
      ...(process.env['BENCH_SERVICE_NODE_OPTIONS'] === undefined ? {} : { NODE_OPTIONS: process.env['BENCH_SERVICE_NODE_OPTIONS'] }),
    },
    undefined,
    onCore(0),
  );
  const { base, metricsPort } = running;
  const receiver = await victimReceiver();
  const hanging = await hangingServer();
  const jobs = new BetterSqlite3(sqlitePath, { readonly: true });
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
    // The victim's endpoint, on every order it makes: how soon its deliveries start, whatever the attacker does.
    const subscribed = await api(
      victim.token,
      'POST',
      '/api/v1/webhooks',
      JSON.stringify({ url: `http://127.0.0.1:${receiver.port}/hook`, events: ['order.created'] }),
    );
    if (subscribed.status !== 201) throw new Error(`the victim's endpoint answered ${subscribed.status}`);
    const yearAgo = new Date(now - 365 * 86_400_000);
    const setting: AttackSetting = {
      base,
      token: attacker.token,
      cookie,
      csrf,
      sourceId: source.source.id,
      wide: `/api/v1/reports/breakdown?from=${encodeURIComponent(yearAgo.toISOString())}&to=${encodeURIComponent(new Date(now).toISOString())}&by=utmSource,utmMedium,utmCampaign&limit=1000`,
      widePage: `/console/reports?period=custom&from=${yearAgo.toISOString().slice(0, 10)}&to=${new Date(now).toISOString().slice(0, 10)}&by1=utmSource&by2=utmMedium&by3=utmCampaign`,
      password: OWNER.password,
    };
    /** Before the webhook case: the attacker's 20 endpoints, each on a server that takes the request and never answers. */
    const hangEndpoints = async (): Promise<void> => {
      for (let i = 0; i < 20; i++) {
        const res = await api(
          attacker.token,
          'POST',
          '/api/v1/webhooks',
          JSON.stringify({ url: `http://127.0.0.1:${hanging.port}/hang-${i}`, events: ['order.created'] }),
        );
        if (res.status !== 201) throw new Error(`a hanging endpoint answered ${res.status}`);
      }
    };
    /**
     * Until the re-pricing jobs a case left have ended and the outboxes are empty (a minute at most; the
     * seeding leaves 30,000 orders to relay), so that the next case, the alone baseline first, starts from quiet.
     */
    const settle = async (): Promise<void> => {
      const until = Date.now() + 60_000;
      const busy = jobs.prepare('SELECT (SELECT count(*) FROM reprice_jobs) + (SELECT count(*) FROM order_events)').pluck();
      while ((busy.get() as number) > 0 && Date.now() < until) await new Promise((done) => setTimeout(done, 200));
      // A second more for what the last of them left (a checkpoint, a collection of garbage).
      await new Promise((done) => setTimeout(done, 1_000));
    };
    const metric = () => eventLoopDelay(metricsPort);

    let order = 0;
    const run = async (name: string, index: number) => {
      if (name.startsWith('hanging webhook')) await hangEndpoints();
      else await settle();
      const answeredAt = new Map<string, number>();
      const attacker = index > 0 ? await startAttacker(setting, index) : undefined;
      const before = await metric();
      const posts: number[] = [];
      const probes: number[] = [];
      const until = Date.now() + PHASE_MS;
      while (Date.now() < until) {
        posts.push(
          await time(async () => {
            const externalId = `v-${order++}`;
            const res = await api(victim.token, 'POST', '/api/v1/orders', JSON.stringify(anOrderPayload({ externalId })));
            await res.arrayBuffer();
            if (res.status !== 201) throw new Error(`the victim's order answered ${res.status}`);
            answeredAt.set(externalId, performance.now());
          }),
        );
        probes.push(await time(async () => (await fetch(`${base}/healthz`)).arrayBuffer()));
      }
      const loop = await metric();
      // The victim's deliveries of the case: each at most 15 s after the case, or counted as late.
      const deliveredBy = Date.now() + 15_000;
      while ([...answeredAt.keys()].some((id) => !receiver.arrivals.has(id)) && Date.now() < deliveredBy)
        await new Promise((done) => setTimeout(done, 50));
      attacker?.child.send('stop');
      const { attacks, refused } = (await attacker?.counted) ?? { attacks: 0, refused: 0 };
      posts.sort((a, b) => a - b);
      probes.sort((a, b) => a - b);
      const delivered = [...answeredAt].flatMap(([id, at]) => {
        const arrived = receiver.arrivals.get(id);
        return arrived === undefined ? [] : [Math.max(0, arrived - at)];
      });
      delivered.sort((a, b) => a - b);
      return {
        name,
        attacks,
        refused,
        posts,
        probes,
        loop,
        // The service's CPU time during the victim's requests: less that of the alone phase, over the attacks, what an attack cost.
        cpuMs: loop.cpuMs - before.cpuMs,
        delivered,
        late: answeredAt.size - delivered.length,
      };
    };
    const names = attackPhases(setting).map((phase) => phase.name);
    const results = [];
    for (const [index, name] of names.entries())
      if (index === 0 || CASES.length === 0 || CASES.some((word) => name.includes(word))) results.push(await run(name, index));
    const [alone] = results;
    const ratio = (x: number, y: number) => `${(x / y).toFixed(2)}x`;
    console.log(
      `\nThe victim's requests, ${PHASE_MS / 1000} s per phase (ms; ratios to alone); event-loop delay from the service's metrics, the longest it was held at a time (max less the 10 ms sampling period), the longest write transaction, the service's CPU (% of one core) and what each attack added to it:`,
    );
    console.log(
      'phase                                        attacks  refused  POST p50  p99      ratio p50/p99   healthz p50  p99      ratio p50/p99   loop p99  max     held  write  delivery p50  p99  late  cpu     ms/attack',
    );
    for (const r of results) {
      const [p50, p99, h50, h99] = [
        percentile(r.posts, 0.5),
        percentile(r.posts, 0.99),
        percentile(r.probes, 0.5),
        percentile(r.probes, 0.99),
      ];
      console.log(
        `${r.name.padEnd(44)} ${String(r.attacks).padStart(7)}  ${String(r.refused).padStart(7)}  ${p50.toFixed(1).padStart(8)}  ${p99.toFixed(1).padStart(7)}  ${ratio(p50, percentile(alone.posts, 0.5)).padStart(6)}/${ratio(p99, percentile(alone.posts, 0.99)).padEnd(7)}  ${h50.toFixed(1).padStart(11)}  ${h99.toFixed(1).padStart(7)}  ${ratio(h50, percentile(alone.probes, 0.5)).padStart(6)}/${ratio(h99, percentile(alone.probes, 0.99)).padEnd(7)}  ${r.loop.p99.toFixed(1).padStart(8)}  ${r.loop.max.toFixed(1).padStart(6)}  ${r.loop.held.toFixed(1).padStart(5)}  ${r.loop.longestWrite.toFixed(1).padStart(5)}  ${percentile(r.delivered, 0.5).toFixed(0).padStart(12)}  ${percentile(r.delivered, 0.99).toFixed(0).padStart(5)}  ${String(r.late).padStart(4)}  ${(r.cpuMs / (PHASE_MS / 1000) / 10).toFixed(0).padStart(5)}%  ${r.attacks === 0 ? '' : ((r.cpuMs - alone.cpuMs) / r.attacks).toFixed(2)}`,
      );
    }
    console.log('\nThe cases against their goals (POST ratios to alone under 5x; an upload holding the event loop under 20 ms at a time):');
    for (const r of results.slice(1)) {
      const [p50, p99] = [
        percentile(r.posts, 0.5) / percentile(alone.posts, 0.5),
        percentile(r.posts, 0.99) / percentile(alone.posts, 0.99),
      ];
      const upload = r.name.includes('CSV upload');
      const met = p50 < 5 && p99 < 5 && (!upload || r.loop.held < 20);
      console.log(
        `  ${r.name.padEnd(44)} POST p50 ${p50.toFixed(2)}x, p99 ${p99.toFixed(2)}x; the loop held at most ${r.loop.held.toFixed(1)} ms: ${met ? 'met' : 'NOT met'}`,
      );
    }
  } finally {
    jobs.close();
    receiver.close();
    hanging.close();
    await stopBenchService(running, dir);
  }
};

/** The victim's webhook receiver: answers 204 at once and notes when each order's delivery arrived. */
const victimReceiver = async (): Promise<{ port: number; arrivals: Map<string, number>; close: () => void }> => {
  const arrivals = new Map<string, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const id = /"externalId":"(v-\d+)"/.exec(Buffer.concat(chunks).toString('utf8'))?.[1];
      if (id !== undefined && !arrivals.has(id)) arrivals.set(id, performance.now());
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { port: (server.address() as AddressInfo).port, arrivals, close: () => server.close() };
};

/** A server that takes every connection and request and never answers: an endpoint that hangs until the service gives up. */
const hangingServer = async (): Promise<{ port: number; close: () => void }> => {
  const sockets = new Set<Socket>();
  const server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('data', () => undefined);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
};

(process.argv[2] === ATTACKER_ARGUMENT ? attack(JSON.parse(process.argv[3]) as { setting: AttackSetting; index: number }) : main()).catch(
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
