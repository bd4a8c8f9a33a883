import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sqliteCode } from './sqlite-errors';
import { APPLICATION_ID, SqliteFileError } from './sqlite-schema';

export interface SqliteBackup {
  /** The absolute path of the copy. */
  readonly file: string;
  readonly bytes: number;
}

const fsyncPath = (path: string): void => {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
};

/**
 * Writes a consistent copy of the SQLite file `from` to `to`, which must not exist, while services
 * keep using `from`: `VACUUM INTO` reads one snapshot without blocking the writers. The copy is
 * checked and synced under a temporary name before it is renamed, so a backup cut short never has the
 * final name. It holds the calling thread for the whole copy: call it from the CLI, not the service.
 */
export const backupSqliteFile = async (from: string, to: string): Promise<SqliteBackup> => {
  const source = resolve(from);
  const target = resolve(to);
  if (existsSync(target)) throw new SqliteFileError(`backup ${target} already exists; choose a new name`);
  let db: BetterSqlite3.Database;
  try {
    db = new BetterSqlite3(source, { fileMustExist: true, timeout: 2_000 });
  } catch (err) {
    throw new SqliteFileError(`SQLite file ${source} cannot be opened (${sqliteCode(err) ?? (err as Error).message})`, { cause: err });
  }
  const partial = `${target}.partial-${process.pid}`;
  try {
    if (db.pragma('application_id', { simple: true }) !== APPLICATION_ID) {
      throw new SqliteFileError(`SQLite file ${source} is not an orders-service database`);
    }
    mkdirSync(dirname(target), { recursive: true });
    db.prepare('VACUUM INTO ?').run(partial);
    const copy = new BetterSqlite3(partial, { readonly: true, fileMustExist: true });
    try {
      const check = copy.pragma('quick_check', { simple: true });
      if (check !== 'ok')
        throw new SqliteFileError(`the copy of ${source} failed its check (${String(check)}); nothing was written to ${target}`);
    } finally {
      copy.close();
    }
    fsyncPath(partial);
    renameSync(partial, target);
    fsyncPath(dirname(target));
  } catch (err) {
    rmSync(partial, { force: true });
    if (err instanceof SqliteFileError) throw err;
    throw new SqliteFileError(`the backup of ${source} to ${target} failed (${sqliteCode(err) ?? (err as Error).message})`, { cause: err });
  } finally {
    db.close();
  }
  return { file: target, bytes: statSync(target).size };
};
