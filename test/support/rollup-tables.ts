import BetterSqlite3 from 'better-sqlite3';
import { expect } from 'chai';
import { join } from 'node:path';
import { ORDER_ROLLUPS } from '../../src/adapters/sqlite/reports/report-schema';
import { rebuildRollups } from '../../src/adapters/sqlite/reports/rollup-costs';
import { SqliteDatabase } from '../../src/adapters/sqlite/sqlite-database';
import { sqliteStorageOn } from '../../src/adapters/sqlite/sqlite-storage';
import { memoryLogger } from './memory-log';

type Tables = Record<string, unknown[][]>;

/** Every rollup table's rows in key order, without the rows whose sums are all 0 (an order counted there moved away). */
const rollupTables = (db: BetterSqlite3.Database): Tables =>
  Object.fromEntries(
    ORDER_ROLLUPS.map(({ table, keyColumns, sumColumns }) => [
      table,
      (
        db
          .prepare(`SELECT ${[...keyColumns, ...sumColumns].join(', ')} FROM ${table} ORDER BY ${keyColumns.join(', ')}`)
          .raw()
          .all() as unknown[][]
      ).filter((row) => row.slice(keyColumns.length).some((sum) => sum !== 0)),
    ]),
  );

/**
 * The rollup tables of the SQLite file at `path` as they are, and as `rebuildRollups` sums them
 * again from its orders (and prices them) on a copy (`VACUUM INTO` a file beside it): equal when the writes kept them.
 */
export const rollupsAndRebuild = (path: string, copyDir: string): { kept: Tables; rebuilt: Tables } => {
  const copy = join(copyDir, `rebuilt-${Date.now()}-${Math.random().toString(36).slice(2)}.db`);
  const live = new BetterSqlite3(path, { readonly: true });
  let kept: Tables;
  try {
    kept = rollupTables(live);
    live.prepare('VACUUM INTO ?').run(copy);
  } finally {
    live.close();
  }
  const rebuilding = new BetterSqlite3(copy);
  try {
    rebuildRollups(rebuilding);
    return { kept, rebuilt: rollupTables(rebuilding) };
  } finally {
    rebuilding.close();
  }
};

/** Waits until the file at `path` has no re-pricing job left (rollup-costs.ts): its rollups then hold every order at today's prices. */
export const repricingDone = async (path: string, timeoutMs = 60_000): Promise<void> => {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const db = new BetterSqlite3(path, { readonly: true });
    let left: number;
    try {
      left = db.prepare('SELECT count(*) FROM reprice_jobs').pluck().get() as number;
    } finally {
      db.close();
    }
    if (left === 0) return;
    if (Date.now() > until) throw new Error(`${left} re-pricing jobs still running after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

/**
 * Opens (and so migrates) the file of a migration test, expects a re-pricing job for exactly the
 * dashboards of `jobs`, waits for them to end, runs `check` on the open database, closes it, and
 * expects every rollup equal to a rebuild from the orders.
 */
export const afterMigrationJobs = async (
  folder: { readonly path: string; readonly dir: string },
  jobs: readonly string[],
  check: (db: SqliteDatabase) => void,
): Promise<void> => {
  const db = SqliteDatabase.open({ path: folder.path });
  sqliteStorageOn(db, memoryLogger().logger);
  try {
    expect(db.prepare('SELECT dashboard_id FROM reprice_jobs ORDER BY id').pluck().all()).to.deep.equal(jobs);
    await repricingDone(folder.path);
    check(db);
  } finally {
    await db.close();
  }
  const { kept, rebuilt } = rollupsAndRebuild(folder.path, folder.dir);
  expect(kept).to.deep.equal(rebuilt);
};
