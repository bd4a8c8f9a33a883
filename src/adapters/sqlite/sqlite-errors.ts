import { StorageUnavailableError } from '../../application/ports/storage-health';

/** What each "not now" result code means, in words an operator can act on. */
const UNAVAILABLE: readonly (readonly [prefix: string, meaning: string])[] = [
  ['SQLITE_BUSY', 'the file is locked by another connection'],
  ['SQLITE_LOCKED', 'the file is locked by another connection'],
  ['SQLITE_FULL', 'the disk or the file is full'],
  ['SQLITE_IOERR', 'the operating system failed to read or write the file'],
  ['SQLITE_CORRUPT', 'the file is corrupt: restore it from a backup'],
  ['SQLITE_NOTADB', 'the file is not a SQLite database: restore it from a backup'],
  ['SQLITE_CANTOPEN', 'the file cannot be opened'],
  ['SQLITE_READONLY', 'the file cannot be written'],
  ['SQLITE_NOMEM', 'SQLite ran out of memory'],
  ['SQLITE_PROTOCOL', 'the locking protocol failed'],
];

/** The SQLite result code of a better-sqlite3 error (`SQLITE_FULL`, `SQLITE_CONSTRAINT_UNIQUE`), if it has one. */
export const sqliteCode = (err: unknown): string | undefined => {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
};

/** What an unavailable-code error means, or undefined for any other error (a constraint, a bug). */
export const unavailableMeaning = (err: unknown): string | undefined => {
  const code = sqliteCode(err);
  return code === undefined ? undefined : UNAVAILABLE.find(([prefix]) => code.startsWith(prefix))?.[1];
};

/** The connection was closed (at shutdown): better-sqlite3 says so with a TypeError of its own. */
const isClosedConnection = (err: unknown): boolean => err instanceof TypeError && /database connection is not open/.test(err.message);

/**
 * Failures that say "not now" (a lock held too long, a full disk, an I/O error, a corrupt or closed
 * file) become `StorageUnavailableError`, so the request answers 503 and /readyz can tell; anything
 * else (a constraint violated, a bug) is returned as it is and answers 500. The message names the
 * result code, never the SQL or the values.
 */
export const asStorageError = (err: unknown): unknown => {
  if (err instanceof StorageUnavailableError) return err;
  if (isClosedConnection(err)) return new StorageUnavailableError('the SQLite store is closed', { cause: err });
  const meaning = unavailableMeaning(err);
  return meaning === undefined
    ? err
    : new StorageUnavailableError(`SQLite store unavailable (${sqliteCode(err)}): ${meaning}`, { cause: err });
};
