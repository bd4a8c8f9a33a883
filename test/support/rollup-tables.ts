import BetterSqlite3 from 'better-sqlite3';
import { join } from 'node:path';
import { ORDER_ROLLUPS } from '../../src/adapters/sqlite/report-schema';
import { rebuildRollups } from '../../src/adapters/sqlite/rollup-costs';

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
