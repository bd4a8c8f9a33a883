import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { listingParams, listingSql, shapeOf } from '../src/adapters/sqlite/orders/order-listing';
import type { SqliteDatabase } from '../src/adapters/sqlite/sqlite-database';
import { RandomIdGenerator } from '../src/adapters/system/random-id-generator';
import type { OrderQuery } from '../src/application/ports/order-repository';
import type { Storage } from '../src/application/ports/storage';
import { createOrder } from '../src/domain/order';
import { ORDER_STATUSES } from '../src/domain/order-status';
import { aNewOrder } from '../test/support/order-builder';
import { freePort, MAIN_JS } from '../test/bootstrap/service-process';
import { orderBody } from './bench-api';

const ids = new RandomIdGenerator();
/** The seeded orders' createdAt fall uniformly in these two years. */
const SPAN_START = Date.UTC(2024, 0, 1);
const SPAN_MS = 2 * 365 * 86_400_000;

/** A small deterministic generator, so two runs seed the same statuses and dates. */
const prng = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const random = prng(42);

/**
 * Adds orders to the dashboard through the store's own `insert` (each with the events the domain
 * emits, as the use case stores them), `chunk` at a time, so that group commit writes them in
 * transactions of up to 512. Statuses and dates are spread at random.
 */
export const seed = async (storage: Storage, dashboardId: string, from: number, to: number, chunk = 10_000): Promise<void> => {
  const now = new Date();
  for (let start = from; start < to; start += chunk) {
    const inserts = [];
    for (let i = start; i < Math.min(to, start + chunk); i++) {
      const status = ORDER_STATUSES[Math.floor(random() * ORDER_STATUSES.length)];
      const createdAt = new Date(SPAN_START + Math.floor(random() * SPAN_MS));
      const made = createOrder(aNewOrder({ externalId: `seed-${i}`, status, createdAt }), { id: ids.next('ord'), dashboardId }, now);
      inserts.push(
        storage.orders.insert(
          made.order,
          made.events.map((event) => ({ id: ids.next('evt'), ...event })),
        ),
      );
    }
    await Promise.all(inserts);
  }
};

/** Mean microseconds per call of `op`, over `calls` calls after a tenth as many unmeasured. */
const timeUs = (calls: number, op: () => unknown): number => {
  for (let i = 0; i < Math.ceil(calls / 10); i++) op();
  const started = performance.now();
  for (let i = 0; i < calls; i++) op();
  return ((performance.now() - started) * 1000) / calls;
};

const timeAsyncUs = async (calls: number, op: () => Promise<unknown>): Promise<number> => {
  for (let i = 0; i < Math.ceil(calls / 10); i++) await op();
  const started = performance.now();
  for (let i = 0; i < calls; i++) await op();
  return ((performance.now() - started) * 1000) / calls;
};

export interface ListingCosts {
  readonly matching: number;
  /** µs per call. */
  readonly pageOne: number;
  readonly pageTen: number;
  readonly lastPage: number;
  readonly lastPageNumber: number;
  readonly total: number;
  readonly totalThirtyDays: number;
  readonly matchingThirtyDays: number;
}

/**
 * What a listing with a status filter costs at the dashboard's present size: page 1 and page 10 (20
 * per page) through the repository (the page and the total, rows decoded), the last page, and the
 * total's statement alone, without and with a 30-day range.
 */
export const listingCosts = async (storage: Storage, db: SqliteDatabase, dashboardId: string, calls: number): Promise<ListingCosts> => {
  const query = (page: number): OrderQuery => ({ status: 'paid', page, pageSize: 20 });
  const matching = (await storage.orders.list(dashboardId, query(1))).total;
  const lastPageNumber = Math.max(1, Math.ceil(matching / 20));
  const total = (q: OrderQuery): { us: number; total: number } => {
    const statement = db.prepare(listingSql(shapeOf(q)).count);
    const { filters } = listingParams(dashboardId, q);
    return { us: timeUs(calls, () => statement.get(filters)), total: (statement.get(filters) as { total: number }).total };
  };
  const thirtyDays: OrderQuery = {
    ...query(1),
    from: new Date(SPAN_START + SPAN_MS - 30 * 86_400_000),
    to: new Date(SPAN_START + SPAN_MS),
  };
  const ranged = total(thirtyDays);
  return {
    matching,
    pageOne: await timeAsyncUs(calls, () => storage.orders.list(dashboardId, query(1))),
    pageTen: await timeAsyncUs(calls, () => storage.orders.list(dashboardId, query(10))),
    lastPage: await timeAsyncUs(Math.max(5, Math.ceil(calls / 50)), () => storage.orders.list(dashboardId, query(lastPageNumber))),
    lastPageNumber,
    total: total(query(1)).us,
    totalThirtyDays: ranged.us,
    matchingThirtyDays: ranged.total,
  };
};

const rssMb = (pid: number): { rss: number; peak: number } => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
};

/**
 * The resident memory of the service itself (`node main.js`) on the file: after its start, after a
 * few hundred listings (page 1 and deep pages, each status) and after `creations` creations.
 */
export const serviceRss = async (
  path: string,
  token: string,
  creations: number,
): Promise<{ started: number; listed: number; created: number; peak: number }> => {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN_JS], {
    env: { PATH: process.env['PATH'] ?? '', PORT: String(port), SQLITE_PATH: path, LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '1000000000' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const url = `http://127.0.0.1:${port}`;
  const call = async (method: string, path: string, body?: string) => {
    const res = await fetch(url + path, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    });
    await res.arrayBuffer();
    return res.status;
  };
  try {
    for (let i = 0; ; i++) {
      if (
        await fetch(`${url}/healthz`).then(
          () => true,
          () => false,
        )
      )
        break;
      if (i > 300) throw new Error('the service did not start');
      await new Promise((done) => setTimeout(done, 100));
    }
    const started = rssMb(child.pid!).rss;
    for (let i = 0; i < 300; i++) {
      const status = ORDER_STATUSES[i % ORDER_STATUSES.length];
      if ((await call('GET', `/api/v1/orders?status=${status}&page=${1 + (i % 7) * 50}&pageSize=100`)) !== 200)
        throw new Error('listing failed');
    }
    const listed = rssMb(child.pid!).rss;
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < creations)
          if ((await call('POST', '/api/v1/orders', orderBody(`rss-${next++}`))) !== 201) throw new Error('creation failed');
      }),
    );
    const { rss: created, peak } = rssMb(child.pid!);
    return { started, listed, created, peak };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
};
