import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sinkDestination } from '../../src/adapters/logging/log-destinations';
import { PinoLogger } from '../../src/adapters/logging/pino-logger';
import { MIGRATIONS } from '../../src/adapters/sqlite/sqlite-schema';
import { openSqliteStorage } from '../../src/adapters/sqlite/sqlite-storage';
import { seed } from '../store-listing';
import { cliDashboard, SEEDED_COUNT } from './services';

/**
 * The SQLite file of 1,000,000 orders, seeded once through the store (bench/store-listing.ts's `seed`,
 * about 130 s and 1.8 GB) and kept under BENCH_DIR (default /tmp/orders-bench), keyed by the schema
 * version (and a digest of the migrations, so that two branches at one version never share a file).
 * A second dashboard of the same file holds 1,000 orders, for the page-cost ratio. Dashboards and
 * tokens are made with the CLI on the file; the plain tokens are kept next to it. The seed leaves the
 * orders' outboxes empty, as the service's relay would have left them long ago (there is no endpoint
 * to deliver to): a file whose million events were still waiting had the service under measurement
 * relaying them for minutes, in the middle of the other targets' workloads.
 */

export const MILLION = 1_000_000;

export interface MillionFile {
  readonly path: string;
  readonly million: { readonly dashboardId: string; readonly token: string };
  readonly thousand: { readonly dashboardId: string; readonly token: string };
  readonly sizeMb: number;
  /** How it was had: reused from the cache, or seeded now (with the seconds it took). */
  readonly origin: string;
}

const key = (): string => {
  const digest = createHash('sha256').update(MIGRATIONS.join('\n')).digest('hex').slice(0, 8);
  return `orders-1m-schema${MIGRATIONS.length}-${digest}-relayed`;
};

/** A seed in progress, removed if the run is interrupted. */
let partial: string | undefined;
export const removePartialSeed = (): void => {
  if (partial === undefined) return;
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(partial + suffix, { force: true });
};

export const millionFile = async (log: (line: string) => void): Promise<MillionFile> => {
  const dir = process.env['BENCH_DIR'] ?? '/tmp/orders-bench';
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${key()}.db`);
  const sidecar = join(dir, `${key()}.json`);
  if (existsSync(path) && existsSync(sidecar)) {
    const tokens = JSON.parse(readFileSync(sidecar, 'utf8')) as Pick<MillionFile, 'million' | 'thousand'>;
    return { path, ...tokens, sizeMb: statSync(path).size / 1024 / 1024, origin: `reused ${path}` };
  }
  const work = join(dir, `${key()}.partial-${process.pid}.db`);
  partial = work;
  removePartialSeed();
  log(`seeding ${path} (1,000,000 orders through the store, about two minutes; kept for the next runs)`);
  const started = performance.now();
  const million = await cliDashboard(work, 'field bench: 1,000,000 orders');
  const thousand = await cliDashboard(work, 'field bench: 1,000 orders');
  const storage = openSqliteStorage({
    path: work,
    logger: new PinoLogger(
      'silent',
      sinkDestination(() => undefined),
    ),
  });
  try {
    const step = 100_000;
    for (let from = 0; from < MILLION; from += step) {
      await seed(storage, million.dashboardId, from, from + step);
      log(`  ${(from + step).toLocaleString('en')} orders, ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
    await seed(storage, thousand.dashboardId, 0, SEEDED_COUNT);
  } finally {
    await storage.health.close();
  }
  const file = new Database(work);
  try {
    file.exec('DELETE FROM order_events');
  } finally {
    file.close();
  }
  // Closing checkpoints the WAL and deletes it; should one be left, it goes with the file.
  rmSync(`${work}-shm`, { force: true });
  if (existsSync(`${work}-wal`)) renameSync(`${work}-wal`, `${path}-wal`);
  renameSync(work, path);
  partial = undefined;
  writeFileSync(sidecar, JSON.stringify({ million, thousand }, null, 2));
  const seconds = (performance.now() - started) / 1000;
  return { path, million, thousand, sizeMb: statSync(path).size / 1024 / 1024, origin: `seeded now in ${seconds.toFixed(0)} s, ${path}` };
};
