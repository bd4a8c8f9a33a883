import { closeSync, fsync, fsyncSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import BetterSqlite3, { type Database, type Statement } from 'better-sqlite3';
import { SLICE_MS } from '../../application/shared/event-loop-slices';
import { WalCheckpointer } from './wal-checkpointer';
import { GroupCommit, type Change, type DurableSync, type GroupCommitStats } from './group-commit';
import { ORDER_ROLLUPS } from './reports/report-schema';
import { RepriceRunner } from './reports/reprice-runner';
import { carryPriceChange, RollupPricer, runRepriceChunk, type PriceChange } from './reports/rollup-costs';
import { RollupFold } from './reports/rollup-fold';
import { asStorageError, sqliteCode, unavailableMeaning } from './sqlite-errors';
import { migrate, probeWrite, SqliteFileError } from './sqlite-schema';

/**
 * How an acknowledged write is made durable; what a crash of the process and a power loss can cost
 * with each is in docs/operations.md ("SQLite store"). Every one of them survives `kill -9`: a COMMIT has
 * handed the WAL to the operating system before any caller is answered.
 */
export type Durability =
  /**
   * The default. `PRAGMA synchronous = NORMAL` (COMMIT writes the WAL without waiting for the disk),
   * then one fsync of the WAL per round of group commits, on libuv's thread pool, before their
   * callers are answered: an acknowledged write also survives a power loss, and the event loop keeps
   * serving requests while the disk flushes.
   */
  | 'fsync-before-answer'
  /** `PRAGMA synchronous = FULL`: SQLite syncs the WAL inside each COMMIT, holding the event loop. Same guarantee. */
  | 'full'
  /** `PRAGMA synchronous = NORMAL` alone: a power loss may take the writes acknowledged since the last checkpoint. */
  | 'normal';

export interface SqliteDatabaseOptions {
  /** The database file; its folder is created when missing. */
  readonly path: string;
  /** Default `fsync-before-answer`. */
  readonly durability?: Durability;
  /** Default true; false gives every write a transaction of its own (the benchmark compares them). */
  readonly groupCommit?: boolean;
  /**
   * How long a statement waits for a lock held by another process before it fails with 503. It waits
   * on the thread of the event loop, so it is kept short. Default 2,000 ms.
   */
  readonly busyTimeoutMs?: number;
  /**
   * A change of prices that re-prices at most this many paid orders moves them in its own write;
   * beyond, a re-pricing job moves them in chunks (rollup-costs.ts). Default REPRICE_INLINE_MAX.
   */
  readonly repriceInlineMax?: number;
  /** A chunk of a re-pricing job stops looking at orders after this many ms. Default CHUNK_MS (rollup-costs.ts). */
  readonly repriceChunkMs?: number;
  /** A transaction of the group commit takes no further write once its writes have run this long. Default MAX_TRANSACTION_MS. */
  readonly maxTransactionMs?: number;
  /** How often a thread of its own checkpoints the WAL (wal-checkpointer.ts); 0: never, only the writes' own checkpoints. Default CHECKPOINT_EVERY_MS. */
  readonly checkpointEveryMs?: number;
}

/**
 * The checkpoint thread starts this long after the file is opened: a file opened for a moment (the
 * CLI, a test) never starts one, and the thread's start (about 30 ms, loading SQLite's module) never
 * delays its close.
 */
const CHECKPOINT_THREAD_AFTER_MS = 1_000;
/** A checkpoint off the event loop four times a second. */
const CHECKPOINT_EVERY_MS = 250;

/** About 20 ms of re-pricing in the write that changes the prices. */
const REPRICE_INLINE_MAX = 1_000;

const DEFAULT_BUSY_TIMEOUT_MS = 2_000;
/** Writes of one transaction at most: a burst of small ones is grouped whole. */
const MAX_BATCH = 512;
/**
 * A transaction takes no further write once its writes have run one stretch of the event loop: 500
 * orders of 200 lines each in one transaction held the loop 165-200 ms, and every other request with it.
 */
const MAX_TRANSACTION_MS = SLICE_MS;
/** The WAL is cut back to this after a checkpoint rather than keeping its largest size. */
const JOURNAL_SIZE_LIMIT = 64 * 1024 * 1024;
/**
 * The COMMIT that finds this many pages in the WAL copies them into the file (a checkpoint), on the
 * event loop, with a sync of the file: SQLite's default of 1,000 pages made one every few hundred
 * orders. With 16,000 (about 64 MB of WAL, the size it is cut back to) the loop stops for it a
 * sixteenth as often, and each page written many times in between (the rollups, the ends of the
 * indexes) is copied once. Durability does not change: the WAL is synced before any answer. With the
 * checkpoint thread (wal-checkpointer.ts) this is only what bounds the WAL should the thread fall
 * behind or stop: CHECKPOINT_PAGES_BEHIND_THREAD.
 */
const CHECKPOINT_PAGES = 16_000;
/** 256 MB of WAL: a checkpoint on the event loop only if the thread's have not kept up. */
const CHECKPOINT_PAGES_BEHIND_THREAD = 65_536;
/** Once the WAL has this many pages (about 16 MB), the writes pause for a pass of the thread that copies it whole, and the next one starts it again. */
const RESTART_PAGES = 4_000;

/**
 * One connection to the database file, shared by every SQLite adapter of the process: reads run on it
 * directly, writes go through its group commit. Statements are prepared once, by the adapters.
 */
export class SqliteDatabase {
  private constructor(
    /** The absolute path of the file. */
    readonly file: string,
    readonly durability: Durability,
    private readonly connection: Database,
    private readonly writer: GroupCommit,
    /** An open descriptor of the WAL, which `fsync-before-answer` syncs. */
    private readonly walFd: number | undefined,
    /** Where a write that changes orders records what it changes in the rollups; written with its transaction. */
    readonly rollups: RollupFold,
    private readonly pricer: RollupPricer,
    private readonly repriceInlineMax: number,
    private readonly checkpointer: WalCheckpointer | undefined,
    private readonly repriceChunkMs: number | undefined,
  ) {
    const anyJob = connection.prepare('SELECT 1 FROM reprice_jobs LIMIT 1').pluck();
    this.repricing = new RepriceRunner(
      () => this.read(() => anyJob.get() !== undefined),
      () => this.repriceChunk(),
    );
  }

  /** The dashboard the last chunk of a re-pricing job served: the next chunk serves the next one's. */
  private repricedLast: string | undefined;

  /** One chunk of a re-pricing job, in a write (what the runner does in turn); false when there is none. */
  async repriceChunk(): Promise<boolean> {
    const served = await this.write(() => runRepriceChunk(this, this.rollups, this.pricer, this.repricedLast, this.repriceChunkMs));
    if (served !== undefined) this.repricedLast = served;
    return served !== undefined;
  }

  /** Carries out the re-pricing jobs (rollup-costs.ts). */
  readonly repricing: RepriceRunner;

  /**
   * Inside a write that has just changed prices (its costs, its time zone): carries the change into
   * the rollups, at once or as a job that the runner starts on its next turn.
   */
  carryPriceChange(change: PriceChange): void {
    if (carryPriceChange(this, this.rollups, this.pricer, change, this.repriceInlineMax) === 'queued') this.repricing.poke();
  }

  /**
   * Opens (creating it and its folder when missing) and migrates the file, or throws a
   * `SqliteFileError` whose message names the file and says what is wrong with it: a folder that
   * cannot be made, a directory, a file that is not a database or is too new, a full disk.
   */
  static open(options: SqliteDatabaseOptions): SqliteDatabase {
    const file = resolve(options.path);
    const durability = options.durability ?? 'fsync-before-answer';
    const checkpointEveryMs = options.checkpointEveryMs ?? CHECKPOINT_EVERY_MS;
    prepareFolder(file);
    let connection: Database | undefined;
    let walFd: number | undefined;
    try {
      connection = new BetterSqlite3(file, { timeout: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS });
      const mode = connection.pragma('journal_mode = WAL', { simple: true });
      if (mode !== 'wal') throw new SqliteFileError(`SQLite file ${file} cannot use write-ahead logging (journal_mode is ${String(mode)})`);
      connection.pragma(`synchronous = ${durability === 'full' ? 'FULL' : 'NORMAL'}`);
      connection.pragma(`journal_size_limit = ${JOURNAL_SIZE_LIMIT}`);
      connection.pragma(`wal_autocheckpoint = ${checkpointEveryMs > 0 ? CHECKPOINT_PAGES_BEHIND_THREAD : CHECKPOINT_PAGES}`);
      connection.pragma('trusted_schema = OFF');
      migrate(connection, file);
      probeWrite(connection);
      if (durability === 'fsync-before-answer') walFd = openWal(file);
    } catch (err) {
      connection?.close();
      throw startError(file, err);
    }
    const sync: DurableSync | undefined = walFd === undefined ? undefined : (done) => fsync(walFd, done);
    const pricer = new RollupPricer(connection);
    const rollups = new RollupFold(connection, ORDER_ROLLUPS, (row) => pricer.priced(row));
    const writer = new GroupCommit(connection, {
      grouped: options.groupCommit ?? true,
      maxBatch: MAX_BATCH,
      maxMs: options.maxTransactionMs ?? MAX_TRANSACTION_MS,
      sync,
      fold: rollups,
    });
    const db = new SqliteDatabase(
      file,
      durability,
      connection,
      writer,
      walFd,
      rollups,
      pricer,
      options.repriceInlineMax ?? REPRICE_INLINE_MAX,
      checkpointEveryMs > 0
        ? new WalCheckpointer({ file, everyMs: checkpointEveryMs }, RESTART_PAGES, (until) => writer.pauseUntil(until))
        : undefined,
      options.repriceChunkMs,
    );
    db.repricing.start();
    db.checkpointer?.startAfter(CHECKPOINT_THREAD_AFTER_MS);
    return db;
  }

  /** A statement on the connection; adapters prepare theirs once, when they are made. */
  prepare(sql: string): Statement {
    return this.connection.prepare(sql);
  }

  /** Runs a read now, on committed data; "not now" failures become `StorageUnavailableError`. */
  read<T>(query: () => T): T {
    try {
      return query();
    } catch (err) {
      throw asStorageError(err);
    }
  }

  /** Several reads on one snapshot of the file, even while another process writes. */
  readTogether<T>(queries: () => T): T {
    return this.read(() => this.connection.transaction(queries).deferred());
  }

  /**
   * Queues a write for the next group commit; resolves once it is committed and durable. `lane` names
   * whose write it is (a dashboard's orders): lanes take turns in the group commit, so that many writes
   * of one lane do not hold back another's.
   */
  write<T>(change: Change<T>, lane?: string): Promise<T> {
    return this.writer.submit(change, true, lane);
  }

  /**
   * Queues a write whose loss to a power cut would not matter (a rate-limit count); resolves once it
   * is committed, without waiting for the disk. It survives a crash of the process all the same.
   */
  writeUnsynced<T>(change: Change<T>): Promise<T> {
    return this.writer.submit(change, false);
  }

  get isOpen(): boolean {
    return this.connection.open;
  }

  /** The checkpoints of the WAL made off the event loop, and those that failed; undefined when there is no such thread. */
  checkpointStats(): ReturnType<WalCheckpointer['stats']> | undefined {
    return this.checkpointer?.stats();
  }

  groupCommitStats(): GroupCommitStats {
    return this.writer.stats();
  }

  /** The longest transaction of the group commit since the last call, in ms: how long a write held the event loop. */
  takeLongestWriteMs(): number {
    return this.writer.takeLongestMs();
  }

  /** Commits what is queued and answers it, then closes the connection (which checkpoints the WAL). */
  async close(): Promise<void> {
    if (!this.connection.open) return;
    await this.repricing.stop();
    await this.writer.drain();
    await this.checkpointer?.stop();
    if (!this.connection.open) return;
    this.connection.close();
    if (this.walFd !== undefined) closeSync(this.walFd);
  }
}

/**
 * Opens the WAL, which SQLite has created by now, to sync it; syncs its folder once, so that the WAL's
 * name is on the disk too before anything in it is relied on.
 */
const openWal = (file: string): number => {
  const fd = openSync(`${file}-wal`, 'r');
  const folder = openSync(dirname(file), 'r');
  try {
    fsyncSync(folder);
  } finally {
    closeSync(folder);
  }
  return fd;
};

/** Creates the folder of `file`; refuses a path that is a directory. */
const prepareFolder = (file: string): void => {
  const folder = dirname(file);
  try {
    mkdirSync(folder, { recursive: true });
  } catch (err) {
    throw new SqliteFileError(
      `SQLite file ${file}: its folder ${folder} cannot be created (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  let isDirectory = false;
  try {
    isDirectory = statSync(file).isDirectory();
  } catch {
    // Missing: SQLite creates it.
  }
  if (isDirectory) throw new SqliteFileError(`SQLite file ${file} is a directory; SQLITE_PATH must name a file`);
};

/** A clear one-line reason for a failed start, naming the file; never the SQL. */
const startError = (file: string, err: unknown): Error => {
  if (err instanceof SqliteFileError) return err;
  const code = sqliteCode(err);
  if (code === undefined)
    return new SqliteFileError(`SQLite file ${file} cannot be opened (${err instanceof Error ? err.message : String(err)})`, {
      cause: err,
    });
  const meaning =
    code.startsWith('SQLITE_NOTADB') || code.startsWith('SQLITE_CORRUPT')
      ? 'it is not a SQLite database or it is corrupt: restore it from a backup, or point SQLITE_PATH elsewhere'
      : (unavailableMeaning(err) ?? 'unexpected error');
  return new SqliteFileError(`SQLite file ${file} cannot be used (${code}): ${meaning}`, { cause: err });
};
