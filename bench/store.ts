import 'reflect-metadata';
import { execSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sinkDestination } from '../src/adapters/logging/log-destinations';
import { PinoLogger } from '../src/adapters/logging/pino-logger';
import { SqliteDatabase } from '../src/adapters/sqlite/sqlite-database';
import { sqliteStorageOn } from '../src/adapters/sqlite/sqlite-storage';
import { Sha256TokenSecrets } from '../src/adapters/system/sha256-token-secrets';
import { SCOPES } from '../src/domain/scope';
import { fixed } from './http-workloads';
import { httpCreationRates, useCaseCreationRates, type CreationRow } from './store-creation';
import { listingCosts, seed, serviceRss, type ListingCosts } from './store-listing';

/**
 * The SQLite store against the in-memory one: creation rates (use case and HTTP, with and without group
 * commit), the cost of a filtered listing and of its total at 1,000 and at BENCH_STORE_ORDERS orders
 * (default 1,000,000) in one dashboard, and the service's memory on that file. Prints, asserts nothing.
 */

const positiveInt = (name: string, fallback: number): number => {
  const raw = process.env[name];
  return raw !== undefined && /^[1-9][0-9]*$/.test(raw) ? Number(raw) : fallback;
};
const ORDERS = positiveInt('BENCH_STORE_ORDERS', 1_000_000);
const CONCURRENCY = positiveInt('BENCH_CONCURRENCY', 16);

const table = (header: readonly string[], rows: readonly (readonly string[])[]): void => {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
  for (const row of rows) console.log(line(row));
};

const creationTable = (rows: readonly CreationRow[]): void =>
  table(
    ['store', 'created', 'orders/s', 'vs in-memory'],
    rows.map((row) => [row.store, String(row.created), fixed(row.perSecond, 0), fixed(row.perSecond / rows[0].perSecond, 2)]),
  );

const commit = (): string => {
  try {
    return execSync('git rev-parse --short HEAD', { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return 'unknown';
  }
};

const main = async (): Promise<void> => {
  console.log(
    `orders-service store bench, ${new Date().toISOString()}, commit ${commit()}, Node ${process.version}, ${cpus().length} CPUs\n`,
  );

  console.log(`Creation through the CreateOrder use case, 64 callers at once (3 rounds of up to 20,000 or 4 s per store):`);
  creationTable(await useCaseCreationRates(20_000, 64, 4_000));
  console.log(
    `\nCreation through POST /api/v1/orders, ${CONCURRENCY} requests in flight, client in the same process (3 rounds of up to 3,000 or 5 s per store):`,
  );
  creationTable(await httpCreationRates(3_000, CONCURRENCY, 5_000));

  const dir = mkdtempSync(join(process.env['BENCH_STORE_DIR'] ?? tmpdir(), 'orders-bench-'));
  const path = join(dir, 'orders.db');
  const db = SqliteDatabase.open({ path });
  const storage = sqliteStorageOn(
    db,
    new PinoLogger(
      'silent',
      sinkDestination(() => undefined),
    ),
  );
  try {
    const dashboardId = 'dsh_bench';
    await seed(storage, dashboardId, 0, 1_000);
    const small = await listingCosts(storage, db, dashboardId, 2_000);
    const started = performance.now();
    const rssBefore = process.memoryUsage().rss;
    await seed(storage, dashboardId, 1_000, ORDERS);
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `\nSeeded one dashboard through the store to ${ORDERS.toLocaleString('en')} orders (each with its events) in ${fixed(seconds, 0)} s ` +
        `(${fixed((ORDERS - 1_000) / seconds, 0)} orders/s); file ${fixed(statSync(path).size / 1024 / 1024, 0)} MB; ` +
        `bench process RSS ${fixed(rssBefore / 1024 / 1024, 0)} -> ${fixed(process.memoryUsage().rss / 1024 / 1024, 0)} MB`,
    );
    const large = await listingCosts(storage, db, dashboardId, 2_000);
    const us = (value: number) => `${fixed(value, 1)} µs`;
    const row = (name: string, pick: (costs: ListingCosts) => number): string[] => [
      name,
      us(pick(small)),
      us(pick(large)),
      fixed(pick(large) / pick(small), 2),
    ];
    console.log(
      `\nListing with ?status=paid, 20 per page (${small.matching} and ${large.matching.toLocaleString('en')} matching orders), mean per call:`,
    );
    table(
      ['operation', '1,000 orders', `${ORDERS.toLocaleString('en')} orders`, 'ratio'],
      [
        row('page 1 (page + total, rows decoded)', (c) => c.pageOne),
        row('page 10', (c) => c.pageTen),
        row('total alone (order_counts)', (c) => c.total),
        row(`total alone, last 30 days (${small.matchingThirtyDays} / ${large.matchingThirtyDays} matching)`, (c) => c.totalThirtyDays),
        row(`last page (${small.lastPageNumber} / ${large.lastPageNumber})`, (c) => c.lastPage),
      ],
    );

    const secrets = new Sha256TokenSecrets();
    const plain = secrets.generate();
    await storage.tokens.insert({ id: 'tok_bench', dashboardId, hash: secrets.hash(plain), scopes: SCOPES, createdAt: new Date() });
    await storage.health.close();
    const rss = await serviceRss(path, plain, 2_000);
    console.log(
      `\nService process (node main.js) on the ${ORDERS.toLocaleString('en')}-order file: RSS ${fixed(rss.started, 0)} MB after start, ` +
        `${fixed(rss.listed, 0)} MB after 300 listings, ${fixed(rss.created, 0)} MB after 2,000 creations; peak ${fixed(rss.peak, 0)} MB`,
    );
  } finally {
    await db.close();
    if (process.env['BENCH_KEEP_FILE'] === undefined) rmSync(dir, { recursive: true, force: true });
    else console.log(`\nkept ${path}`);
  }
};

main().catch((err: unknown) => {
  console.error('bench failed:', err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
