import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_ADMIN_TOKEN, benchTenant, eventLoopDelay, startBenchService, stopBenchService } from './bench-service';
import { anOrderAtItsLimits, anOrderPayload } from '../test/support/order-builder';

/**
 * What hostile bodies cost the service against an ordinary order of the same size: each
 * body is sent alone, one at a time, and timed from the client (its whole round trip over loopback),
 * with the event loop's delay while they were served (p99 and max, from the service's own metrics,
 * reset at each scrape); the worst legal bodies beside the illegal ones, batches of 4 MiB included.
 * Then `/healthz` is timed from another connection while 4 connections keep sending the worst body.
 * The service runs as its own process on a fresh SQLite file, with a rate limit too high to matter.
 * Prints, asserts nothing: `npm run bench:hostile`.
 */

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 40);
const BATCH_ROUNDS = Number(process.env['BENCH_BATCH_ROUNDS'] ?? 10);
const FLOOD_MS = Number(process.env['BENCH_FLOOD_MS'] ?? 5_000);

/** A valid order near the 256 KiB limit: 500 products with long names, free-form text at its limits. */
const ordinaryOrder = (): string => {
  const products = Array.from({ length: 500 }, (_, i) => ({ name: `Product ${i} `.padEnd(255, 'x'), quantity: 1, unitPriceCents: 100 }));
  const text = (n: number) => Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v'.repeat(n)]));
  const body = anOrderPayload({ externalId: 'ordinary', products, metadata: text(1000), customer: text(900) });
  return JSON.stringify(body);
};

/** 1,800 nested objects over an array of 124,000 numbers: a body seen in an attack, 260 KB. */
const nestedOverArray = (): string => {
  const numbers = '[' + Array.from({ length: 124_000 }, (_, i) => String(i % 10)).join(',') + ']';
  return JSON.stringify(anOrderPayload({ metadata: 'x' })).replace('"x"', '{"a":'.repeat(1_800) + numbers + '}'.repeat(1_800));
};

/** 124,000 numbers one level down in metadata: wide, not deep. */
const wideArray = (): string =>
  JSON.stringify(anOrderPayload({ metadata: 'x' })).replace('"x"', '{"a":[' + Array.from({ length: 124_000 }, () => '7').join(',') + ']}');

/** Arrays nested 100,000 deep. */
const deepArrays = (): string => '['.repeat(100_000) + ']'.repeat(100_000);

const BATCH_LIMIT = 4 * 1024 * 1024;

/** The worst legal batch: 500 orders sharing 4 MiB, each with as many products as fit (about 170: 700 values an order). */
const fullBatch = (round: number): string => {
  const product = { name: 'p', quantity: 1, unitPriceCents: 1 };
  const perOrder = Math.floor((BATCH_LIMIT / 500 - 600) / JSON.stringify(product).length);
  const orders = Array.from({ length: 500 }, (_, i) =>
    anOrderPayload({ externalId: `full-${round}-${i}`, products: Array<typeof product>(perOrder).fill(product) }),
  );
  return JSON.stringify({ orders });
};

/** `{"orders":[0,0,…]}` of 4 MiB: two million numbers. */
const numbersBatch = (): string => `{"orders":[${'0,'.repeat(Math.floor((BATCH_LIMIT - 16) / 2) - 1)}0]}`;

/** One order of a batch holding 4 MiB of numbers in its metadata. */
const numbersInOrder = (): string =>
  `{"orders":[${JSON.stringify(anOrderPayload({ metadata: 'x' })).replace('"x"', `{"a":[${'0,'.repeat(Math.floor((BATCH_LIMIT - 600) / 2) - 1)}0]}`)}]}`;

/** `{"orders":[[[…]]]}` of 4 MiB: arrays two million deep. */
const deepBatch = (): string => {
  const depth = Math.floor((BATCH_LIMIT - 16) / 2);
  return `{"orders":[${'['.repeat(depth)}${']'.repeat(depth)}]}`;
};

/** 20,000 unknown fields in an order: the codecs would list every one. */
const unknownFields = (): string =>
  JSON.stringify({ ...anOrderPayload(), ...Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, 1])) });

const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

const time = async (fn: () => Promise<unknown>): Promise<number> => {
  const started = performance.now();
  await fn();
  return performance.now() - started;
};

const main = async (): Promise<void> => {
  const dir = mkdtempSync(join(tmpdir(), 'hostile-'));
  const running = await startBenchService({
    BATCH_BODY_LIMIT_BYTES: String(BATCH_LIMIT),
    SQLITE_PATH: join(dir, 'orders.db'),
    ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
    RATE_LIMIT_MAX: '1000000000',
  });
  const { base, metricsPort } = running;
  try {
    const { token } = await benchTenant(base, 'bench');
    const post = async (body: string, path = '/api/v1/orders'): Promise<number> => {
      const res = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body,
      });
      await res.arrayBuffer();
      return res.status;
    };

    const loopDelay = () => eventLoopDelay(metricsPort);
    const ordinary = ordinaryOrder();
    let n = 0;
    const [numbers, numbersOne, deep] = [numbersBatch(), numbersInOrder(), deepBatch()];
    const bodies: [string, string, number, (round: number) => string][] = [
      ['ordinary order (valid, 201)', '/api/v1/orders', ROUNDS, () => ordinary.replace('"ordinary"', `"ordinary-${n++}"`)],
      ['order at every limit (valid, 201)', '/api/v1/orders', ROUNDS, (round) => JSON.stringify(anOrderAtItsLimits(`limits-${round}`))],
      ['batch of 500 filling 4 MiB (valid, 200)', '/api/v1/orders/batch', BATCH_ROUNDS, fullBatch],
      ['1,800 objects over 124,000 numbers', '/api/v1/orders', ROUNDS, nestedOverArray],
      ['124,000 numbers, one level down', '/api/v1/orders', ROUNDS, wideArray],
      ['arrays 100,000 deep', '/api/v1/orders', ROUNDS, deepArrays],
      ['20,000 unknown fields', '/api/v1/orders', ROUNDS, unknownFields],
      ['batch: 2M numbers as orders', '/api/v1/orders/batch', BATCH_ROUNDS, () => numbers],
      ['batch: 2M numbers in one order', '/api/v1/orders/batch', BATCH_ROUNDS, () => numbersOne],
      ['batch: arrays 2M deep', '/api/v1/orders/batch', BATCH_ROUNDS, () => deep],
    ];
    const rows: { name: string; bytes: number; status: number; p50: number; p99: number; loop: { p99: number; max: number } }[] = [];
    for (const [name, path, rounds, make] of bodies) {
      const samples: number[] = [];
      let status = 0;
      let bytes = 0;
      for (let round = 0; round < rounds + 5; round++) {
        const body = make(round);
        bytes = Buffer.byteLength(body);
        if (round === 5) await loopDelay();
        const ms = await time(async () => (status = await post(body, path)));
        if (round >= 5) samples.push(ms);
      }
      const loop = await loopDelay();
      samples.sort((a, b) => a - b);
      rows.push({ name, bytes, status, p50: percentile(samples, 0.5), p99: percentile(samples, 0.99), loop });
    }
    const baseline = rows[0].p50;
    console.log(
      `One request at a time, ${ROUNDS} rounds each (${BATCH_ROUNDS} for batches), round trip over loopback (the body's upload included),`,
    );
    console.log("and the service's event-loop delay while they were served:");
    console.log('body                                        bytes    status  p50 ms   p99 ms   p50 vs ordinary  loop p99  loop max');
    for (const row of rows) {
      console.log(
        `${row.name.padEnd(42)} ${String(row.bytes).padStart(8)}  ${String(row.status).padStart(6)}  ${row.p50.toFixed(2).padStart(7)}  ${row.p99.toFixed(2).padStart(7)}  ${`${(row.p50 / baseline).toFixed(2)}x`.padStart(15)}  ${row.loop.p99.toFixed(1).padStart(8)}  ${row.loop.max.toFixed(1).padStart(8)}`,
      );
    }

    const healthz = async (): Promise<number[]> => {
      const samples: number[] = [];
      const until = Date.now() + FLOOD_MS;
      while (Date.now() < until) {
        samples.push(await time(async () => (await fetch(`${base}/healthz`)).arrayBuffer()));
        await new Promise((done) => setTimeout(done, 10));
      }
      return samples.sort((a, b) => a - b);
    };
    await loopDelay();
    const quiet = await healthz();
    const quietLoop = await loopDelay();
    let stop = false;
    let sent = 0;
    const flood = Array.from({ length: 4 }, async (_, i) => {
      while (!stop) {
        await (i % 2 === 0 ? post(nestedOverArray()) : post(numbers, '/api/v1/orders/batch'));
        sent++;
      }
    });
    const loaded = await healthz();
    const loadedLoop = await loopDelay();
    stop = true;
    await Promise.all(flood);
    console.log(
      `\n/healthz every 10 ms for ${FLOOD_MS / 1000} s, alone and while 4 connections send the 260 KB nested body and the 4 MiB batch of numbers (${sent} sent):`,
    );
    const line = (samples: number[], loop: { p99: number; max: number }) =>
      `p50 ${percentile(samples, 0.5).toFixed(2)} ms, p99 ${percentile(samples, 0.99).toFixed(2)} ms; event loop p99 ${loop.p99.toFixed(1)} ms, max ${loop.max.toFixed(1)} ms`;
    console.log(`  quiet:  ${line(quiet, quietLoop)}`);
    console.log(`  loaded: ${line(loaded, loadedLoop)}`);
  } finally {
    await stopBenchService(running, dir);
  }
};

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
