import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sinkDestination } from '../src/adapters/logging/log-destinations';
import { PinoLogger } from '../src/adapters/logging/pino-logger';
import { openSqliteStorage } from '../src/adapters/sqlite/sqlite-storage';
import { freePort, ServiceProcess } from '../test/bootstrap/service-process';
import { anOrderPayload } from '../test/support/order-builder';

/**
 * Ingest figures (prints, asserts nothing): orders per second created through POST
 * /api/v1/orders/batch (500 a request) against single POSTs (8 connections), with the service as a
 * process of its own on SQLite (and on MongoDB when MONGODB_URI is set); and the cost of a cursor page
 * deep in 1,000,000 orders against the first page, on the reports bench's file (`npm run bench:reports`
 * seeds it) when it is there. `npm run bench:ingest`.
 */

const ORDERS = Number(process.env['BENCH_ORDERS'] ?? 10_000);
const ADMIN = 'bench-admin-token-0123456789';

const start = async (env: Record<string, string>) => {
  const port = await freePort();
  const service = new ServiceProcess({ PORT: String(port), ADMIN_TOKEN: ADMIN, RATE_LIMIT_MAX: '1000000000', LOG_LEVEL: 'warn', ...env });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if ((await fetch(`${base}/healthz`).catch(() => undefined))?.ok === true) break;
    if (i > 400) throw new Error('the service did not start');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const call = async (method: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(base + path, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  const dashboard = (await call('POST', '/admin/v1/dashboards', ADMIN, { name: 'ingest' })).body.dashboard.id as string;
  const token = (await call('POST', `/admin/v1/dashboards/${dashboard}/tokens`, ADMIN, {})).body.token.token as string;
  return { service, call, token };
};

const rate = async (label: string, env: Record<string, string>): Promise<{ single: number; batch: number }> => {
  const { service, call, token } = await start(env);
  try {
    const singles = Math.min(ORDERS, 4_000);
    let next = 0;
    let started = performance.now();
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < singles) {
          const i = next++;
          const res = await call('POST', '/api/v1/orders', token, anOrderPayload({ externalId: `s-${i}` }));
          if (res.status !== 201) throw new Error(`single POST answered ${res.status}`);
        }
      }),
    );
    const single = singles / ((performance.now() - started) / 1000);
    started = performance.now();
    for (let at = 0; at < ORDERS; at += 500) {
      const orders = Array.from({ length: Math.min(500, ORDERS - at) }, (_, i) => anOrderPayload({ externalId: `b-${at + i}` }));
      const res = await call('POST', '/api/v1/orders/batch', token, { orders });
      if (res.status !== 200 || res.body['created'] !== orders.length) throw new Error(`batch answered ${res.status}`);
    }
    const batch = ORDERS / ((performance.now() - started) / 1000);
    console.log(
      `${label}: single POSTs ${single.toFixed(0)} orders/s (${singles}, 8 connections); batches of 500 ${batch.toFixed(0)} orders/s (${ORDERS}, one connection): ${(batch / single).toFixed(2)}x`,
    );
    return { single, batch };
  } finally {
    service.kill('SIGTERM');
    await service.exited;
  }
};

const cursorCost = async (): Promise<void> => {
  const file = join(process.env['BENCH_DIR'] ?? '/tmp/orders-bench', 'reports-1000000-seed2.db');
  if (!existsSync(file)) {
    console.log(`cursor pages: ${file} is missing (npm run bench:reports seeds it)`);
    return;
  }
  const storage = openSqliteStorage({
    path: file,
    logger: new PinoLogger(
      'silent',
      sinkDestination(() => undefined),
    ),
  });
  try {
    const dashboardId = (await storage.dashboards.list())[0].id;
    const time = async (f: () => Promise<unknown>): Promise<number> => {
      for (let i = 0; i < 5; i++) await f();
      const samples: number[] = [];
      for (let i = 0; i < 50; i++) {
        const t0 = performance.now();
        await f();
        samples.push(performance.now() - t0);
      }
      return samples.sort((x, y) => x - y)[25];
    };
    // The position 900,000 orders down, found once through the listing (it reaches any page without walking).
    const deep = await storage.orders.list(dashboardId, { page: 9_000, pageSize: 100 });
    const last = deep.orders[deep.orders.length - 1];
    const after = { createdAt: last.createdAt, id: last.id };
    const first = await time(() => storage.orders.listAfter(dashboardId, { pageSize: 50 }));
    const deepAfter = await time(() => storage.orders.listAfter(dashboardId, { pageSize: 50, after }));
    const deepPaid = await time(() => storage.orders.listAfter(dashboardId, { pageSize: 50, status: 'paid', after }));
    const deepOffset = await time(() => storage.orders.list(dashboardId, { page: 18_000, pageSize: 50 }));
    console.log(
      `cursor pages at 1,000,000 orders (SQLite, in process, p50 of 50): first ${first.toFixed(2)} ms; after the 900,000th ${deepAfter.toFixed(2)} ms (${(deepAfter / first).toFixed(2)}x); with status=paid ${deepPaid.toFixed(2)} ms; page 18,000 by offset ${deepOffset.toFixed(2)} ms`,
    );
  } finally {
    await storage.health.close();
  }
};

const main = async (): Promise<void> => {
  const folder = mkdtempSync(join(tmpdir(), 'orders-ingest-'));
  try {
    await rate('SQLite', { SQLITE_PATH: join(folder, 'ingest.db') });
    const uri = process.env['MONGODB_URI'];
    if (uri !== undefined)
      await rate('MongoDB (mongo-java-server)', { STORE: 'mongodb', MONGODB_URI: uri, MONGODB_DB: `ingest_${Date.now()}` });
    else console.log('MongoDB: MONGODB_URI is not set');
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  await cursorCost();
};

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
