import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../test/bootstrap/service-process';
import { anOrderPayload } from '../test/support/order-builder';
import { benchDashboard, startedService } from './bench-service';

/**
 * What hostile bodies cost the service against an ordinary order of the same size (issue 17): each
 * body is sent alone, one at a time, and timed from the client (its whole round trip over loopback);
 * then `/healthz` is timed from another connection while 4 connections keep sending the worst body.
 * The service runs as its own process on a fresh SQLite file, with a rate limit too high to matter.
 * Prints, asserts nothing: `npm run bench:hostile`.
 */

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 40);
const FLOOD_MS = Number(process.env['BENCH_FLOOD_MS'] ?? 5_000);

/** A valid order near the 256 KiB limit: 500 products with long names, free-form text at its limits. */
const ordinaryOrder = (): string => {
  const products = Array.from({ length: 500 }, (_, i) => ({ name: `Product ${i} `.padEnd(255, 'x'), quantity: 1, unitPriceCents: 100 }));
  const text = (n: number) => Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v'.repeat(n)]));
  const body = anOrderPayload({ externalId: 'ordinary', products, metadata: text(1000), customer: text(900) });
  return JSON.stringify(body);
};

/** 1,800 nested objects over an array of 124,000 numbers: the body of the issue, 260 KB. */
const nestedOverArray = (): string => {
  const numbers = '[' + Array.from({ length: 124_000 }, (_, i) => String(i % 10)).join(',') + ']';
  return JSON.stringify(anOrderPayload({ metadata: 'x' })).replace('"x"', '{"a":'.repeat(1_800) + numbers + '}'.repeat(1_800));
};

/** 124,000 numbers one level down in metadata: wide, not deep. */
const wideArray = (): string =>
  JSON.stringify(anOrderPayload({ metadata: 'x' })).replace('"x"', '{"a":[' + Array.from({ length: 124_000 }, () => '7').join(',') + ']}');

/** Arrays nested 100,000 deep. */
const deepArrays = (): string => '['.repeat(100_000) + ']'.repeat(100_000);

const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

const time = async (fn: () => Promise<unknown>): Promise<number> => {
  const started = performance.now();
  await fn();
  return performance.now() - started;
};

const main = async (): Promise<void> => {
  const dir = mkdtempSync(join(tmpdir(), 'hostile-'));
  const port = await freePort();
  const admin = 'bench-admin-token-0123456789';
  const { service, base } = await startedService({
    PORT: String(port),
    SQLITE_PATH: join(dir, 'orders.db'),
    ADMIN_TOKEN: admin,
    RATE_LIMIT_MAX: '1000000000',
    LOG_LEVEL: 'warn',
  });
  try {
    const { token } = await benchDashboard(base, admin);
    const post = async (body: string): Promise<number> => {
      const res = await fetch(`${base}/api/v1/orders`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body,
      });
      await res.arrayBuffer();
      return res.status;
    };

    const ordinary = ordinaryOrder();
    let n = 0;
    const bodies: [string, () => string][] = [
      ['ordinary order (valid, 201)', () => ordinary.replace('"ordinary"', `"ordinary-${n++}"`)],
      ['1,800 objects over 124,000 numbers', nestedOverArray],
      ['124,000 numbers, one level down', wideArray],
      ['arrays 100,000 deep', deepArrays],
    ];
    const rows: { name: string; bytes: number; status: number; p50: number; p99: number }[] = [];
    for (const [name, make] of bodies) {
      const samples: number[] = [];
      let status = 0;
      for (let round = 0; round < ROUNDS + 5; round++) {
        const body = make();
        const ms = await time(async () => (status = await post(body)));
        if (round >= 5) samples.push(ms);
      }
      samples.sort((a, b) => a - b);
      rows.push({ name, bytes: Buffer.byteLength(make()), status, p50: percentile(samples, 0.5), p99: percentile(samples, 0.99) });
    }
    const baseline = rows[0].p50;
    console.log(`One request at a time, ${ROUNDS} rounds each, round trip over loopback (the body's upload included):`);
    console.log('body                                      bytes    status  p50 ms   p99 ms   p50 vs ordinary');
    for (const row of rows) {
      console.log(
        `${row.name.padEnd(40)} ${String(row.bytes).padStart(8)}  ${String(row.status).padStart(6)}  ${row.p50.toFixed(2).padStart(7)}  ${row.p99.toFixed(2).padStart(7)}  ${(row.p50 / baseline).toFixed(2)}x`,
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
    const quiet = await healthz();
    const worst = nestedOverArray();
    let stop = false;
    let sent = 0;
    const flood = Array.from({ length: 4 }, async () => {
      while (!stop) {
        await post(worst);
        sent++;
      }
    });
    const loaded = await healthz();
    stop = true;
    await Promise.all(flood);
    console.log(
      `\n/healthz every 10 ms for ${FLOOD_MS / 1000} s, alone and while 4 connections send the 260 KB nested body (${sent} sent):`,
    );
    console.log(`  quiet:  p50 ${percentile(quiet, 0.5).toFixed(2)} ms, p99 ${percentile(quiet, 0.99).toFixed(2)} ms`);
    console.log(`  loaded: p50 ${percentile(loaded, 0.5).toFixed(2)} ms, p99 ${percentile(loaded, 0.99).toFixed(2)} ms`);
  } finally {
    service.kill('SIGTERM');
    await service.exited;
    rmSync(dir, { recursive: true, force: true });
  }
};

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
