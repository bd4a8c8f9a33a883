import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ConsoleClient, type ConsoleResponse } from '../test/support/console-client';
import { anOrderPayload } from '../test/support/order-builder';
import { BENCH_ADMIN_TOKEN, benchTenant, startBenchService } from './bench-service';

/**
 * What password work costs everyone else: an order POST, timed from the client, alone and
 * while 40 wrong password changes (one signed-in user) or 50 sign-ins with a wrong password (another
 * user) are in flight, each request from its own address through X-Forwarded-For. The service runs as its own
 * process on a fresh SQLite file (a write waits for its sync on libuv's pool, where scrypt runs),
 * with scrypt at OWASP's cost. Prints, asserts nothing: `npm run bench:passwords`.
 */

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const PUBLIC = 'http://orders.bench';
const CLI_JS = resolve(__dirname, '../src/bootstrap/cli.js');
const OWNER = { email: 'owner@bench.example', password: 'bench owner password' };
const OTHER = { email: 'other@bench.example', password: 'bench other password' };

const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

const runCli = (args: string[], env: Record<string, string>): Promise<void> =>
  new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI_JS, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: 'ignore' });
    child.once('close', (code) => (code === 0 ? done() : fail(new Error(`cli ${args.join(' ')} exited ${code}`))));
  });

const statuses = (answers: readonly ConsoleResponse[]): string => {
  const counts = new Map<number, number>();
  for (const { status } of answers) counts.set(status, (counts.get(status) ?? 0) + 1);
  return [...counts].map(([status, n]) => `${n}×${status}`).join(' ');
};

const main = async (): Promise<void> => {
  const dir = mkdtempSync(join(tmpdir(), 'passwords-'));
  const env = {
    SQLITE_PATH: join(dir, 'orders.db'),
    ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
    RATE_LIMIT_MAX: '1000000000',
    PUBLIC_BASE_URL: PUBLIC,
    TRUST_PROXY: 'on',
  };
  const { service, base } = await startBenchService(env);
  try {
    const { dashboard, token } = await benchTenant(base, 'bench');
    for (const user of [OWNER, OTHER])
      await runCli(['users', 'create-owner', '--email', user.email, '--dashboard', dashboard], { ...env, ORDERS_PASSWORD: user.password });
    let n = 0;
    const timedOrder = async (): Promise<number> => {
      const started = performance.now();
      const res = await fetch(`${base}/api/v1/orders`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(anOrderPayload({ externalId: `bench-${n++}` })),
      });
      await res.arrayBuffer();
      if (res.status !== 201) throw new Error(`an order answered ${res.status}`);
      return performance.now() - started;
    };

    const alone: number[] = [];
    for (let i = 0; i < 30; i++) alone.push(await timedOrder());
    alone.sort((a, b) => a - b);
    const baseline = percentile(alone, 0.5);
    console.log(`An order POST alone (30, one at a time): p50 ${baseline.toFixed(1)} ms, max ${alone[alone.length - 1].toFixed(1)} ms`);

    const signedIn = new ConsoleClient(base, PUBLIC);
    const opened = await signedIn.signIn(OWNER.email, OWNER.password, { 'x-forwarded-for': '192.0.2.1' });
    if (opened.status !== 303) throw new Error(`sign-in answered ${opened.status}`);
    await signedIn.get('/console/password');

    const underLoad = async (name: string, load: (round: number) => Promise<ConsoleResponse>[]): Promise<void> => {
      for (let round = 0; round < ROUNDS; round++) {
        const started = performance.now();
        const answers = load(round);
        // The order is sent once the load is on its way, as another dashboard's checkout would.
        await new Promise((done) => setTimeout(done, 50));
        const order = await timedOrder();
        const settled = await Promise.all(answers);
        const all = performance.now() - started;
        console.log(
          `  ${name}, round ${round + 1}: the order ${order.toFixed(1)} ms (${(order / baseline).toFixed(1)}x alone); ` +
            `the load ${all.toFixed(0)} ms, answered ${statuses(settled)}`,
        );
      }
    };
    console.log(`\nAn order POST sent 50 ms after the load, ${ROUNDS} rounds:`);
    await underLoad('40 wrong password changes', (round) =>
      Array.from({ length: 40 }, (_, i) =>
        signedIn.post(
          '/console/password',
          { current: 'not the password!', next: 'a new password 12' },
          { 'x-forwarded-for': `10.${round}.${i}.1` },
        ),
      ),
    );
    await underLoad('50 wrong sign-ins', (round) =>
      Array.from({ length: 50 }, (_, i) =>
        new ConsoleClient(base, PUBLIC).signIn(OTHER.email, 'not the password!', { 'x-forwarded-for': `10.${100 + round}.${i}.1` }),
      ),
    );
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
