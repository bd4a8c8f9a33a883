import type { Database, Statement } from 'better-sqlite3';
import { StorageUnavailableError } from '../../application/ports/storage-health';
import { asStorageError } from './sqlite-errors';

/** A change to make inside a transaction: synchronous, its result handed to its caller once committed. */
export type Change<T> = () => T;

interface PendingWrite {
  readonly change: Change<unknown>;
  /** Whether the caller waits for the sync too (see `submit`). */
  readonly durable: boolean;
  readonly resolve: (value: unknown) => void;
  readonly reject: (reason: unknown) => void;
}

type Outcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown };

/** Why a whole transaction failed: at BEGIN (nothing ran) or later (what ran was rolled back). */
type BatchFailure = { readonly failedAt: 'begin' | 'batch'; readonly error: unknown };

/**
 * Makes what has been committed so far durable, off the thread of the event loop (an fsync of the
 * WAL on libuv's pool), and calls back once it is, or with the error that stopped it.
 */
export type DurableSync = (done: (error: Error | null) => void) => void;

/**
 * What the writes of a transaction leave for its end (the rollups of rollup-fold.ts): a write's share
 * is kept once its savepoint is released and forgotten when it is rolled back to it, and what was kept
 * is written once, in the transaction, just before COMMIT.
 */
export interface TransactionFold {
  /** A transaction begins: nothing is held. */
  begin(): void;
  /** A write begins, in its savepoint. */
  startWrite(): void;
  keepWrite(): void;
  dropWrite(): void;
  /** Writes what the kept writes left; throws as a statement does. */
  beforeCommit(): void;
}

export interface GroupCommitOptions {
  /**
   * Group the writes that arrive in one turn of the event loop into one transaction (true), or give
   * each write a transaction of its own (false: what the benchmark compares against).
   */
  readonly grouped: boolean;
  /** The most writes one transaction takes; the rest wait for the next turn. */
  readonly maxBatch: number;
  /**
   * A transaction takes no further write once its writes have run this long (it always takes one):
   * the rest wait for the next turn, and the requests of other callers are served in between. What
   * bounds how long the loop is held when the writes are heavy (orders of hundreds of lines).
   */
  readonly maxMs?: number;
  /** Milliseconds, for `maxMs`; `performance.now` unless a test drives it. */
  readonly now?: () => number;
  /** When given, callers are answered only once a sync that began after their COMMIT has completed. */
  readonly sync?: DurableSync;
  readonly fold?: TransactionFold;
}

export interface GroupCommitStats {
  /** Transactions committed. */
  readonly commits: number;
  /** Writes that succeeded in them. */
  readonly writes: number;
  /** Syncs made before answering (one may cover several commits). */
  readonly syncs: number;
}

/**
 * Group commit on one better-sqlite3 connection: the writes queued in one turn of the event loop (up
 * to `maxBatch`, for up to `maxMs`, taken from their lanes in turn) run in one `BEGIN IMMEDIATE …
 * COMMIT`, each in a savepoint of its own, and each caller
 * is answered once the COMMIT returned and, with `sync`, the WAL reached the disk; one sync covers
 * every commit made while it was in flight. A write that throws fails alone. When SQLite abandons the
 * whole transaction (a full disk, an I/O error, a failed COMMIT), each write runs again on its own so
 * that each caller gets its own answer; a BEGIN that cannot get the write lock fails the whole group.
 * With a `fold`, what the writes that succeeded left for the end of the transaction is written last,
 * before the COMMIT.
 */
export class GroupCommit {
  private readonly queue = new LaneQueue();
  private scheduled = false;
  private closed = false;
  /** Writes committed (or failed) and waiting for the next sync to be answered. */
  private unsynced: [PendingWrite, Outcome][] = [];
  private syncing: Promise<void> | undefined;
  /** While set, no transaction begins (see `pauseUntil`). */
  private paused: Promise<void> | undefined;
  private counts = { commits: 0, writes: 0, syncs: 0 };
  /** The longest transaction since `takeLongestMs` last read it, in ms. */
  private longestMs = 0;
  private readonly begin: Statement;
  private readonly commit: Statement;
  private readonly rollback: Statement;
  private readonly savepoint: Statement;
  private readonly release: Statement;
  private readonly rollbackTo: Statement;

  constructor(
    private readonly db: Database,
    private readonly options: GroupCommitOptions,
  ) {
    this.begin = db.prepare('BEGIN IMMEDIATE');
    this.commit = db.prepare('COMMIT');
    this.rollback = db.prepare('ROLLBACK');
    this.savepoint = db.prepare('SAVEPOINT write');
    this.release = db.prepare('RELEASE write');
    this.rollbackTo = db.prepare('ROLLBACK TO write');
  }

  /**
   * Queues `change` in `lane`; resolves its result once the transaction that ran it has committed and,
   * unless `durable` is false, synced. The writes of one lane run in the order they were queued. A write answered before its sync survives a crash of the process but
   * not a power loss; any write synced after it makes it durable too, since the WAL is written in order.
   */
  submit<T>(change: Change<T>, durable = true, lane = ''): Promise<T> {
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- asStorageError turns an Error into an Error
    if (this.closed) return Promise.reject(asStorageError(new TypeError('The database connection is not open')));
    return new Promise<T>((resolve, reject) => {
      this.queue.push(lane, { change, durable, resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
  }

  /**
   * Begins no transaction until `until` settles; the writes submitted meanwhile wait in their lanes and
   * go on after it (the WAL checkpoint that lets the next write start the WAL again: wal-checkpointer.ts).
   * The event loop is not held: only the writes wait.
   */
  pauseUntil(until: Promise<unknown>): void {
    const paused = until.then(
      () => undefined,
      () => undefined,
    );
    this.paused = paused;
    void paused.then(() => {
      if (this.paused !== paused) return;
      this.paused = undefined;
      if (this.queue.size > 0) this.schedule();
    });
  }

  /** Commits every write still queued, answers them once synced, then refuses new ones. */
  async drain(): Promise<void> {
    this.closed = true;
    while (this.paused !== undefined) await this.paused;
    while (this.queue.size > 0) this.flushOnce();
    while (this.syncing !== undefined) await this.syncing;
  }

  stats(): GroupCommitStats {
    return { ...this.counts };
  }

  /** The longest transaction (BEGIN to COMMIT, or to its failure) since the last call, in ms; starts again from 0. */
  takeLongestMs(): number {
    const longest = this.longestMs;
    this.longestMs = 0;
    return longest;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.paused !== undefined) return;
      this.flushOnce();
      if (this.queue.size > 0) this.schedule();
    });
  }

  private flushOnce(): void {
    if (this.queue.size === 0) return;
    if (!this.options.grouped) {
      this.alone(this.queue.take(this.queue.size));
      return;
    }
    const batch: PendingWrite[] = [];
    const result = this.transaction(this.taker(batch));
    if (!Array.isArray(result)) {
      const failed = (write: PendingWrite): void => this.answer(write, { ok: false, error: result.error });
      // Nothing was taken when BEGIN failed: the writes it would have taken fail with it.
      if (result.failedAt === 'begin') this.queue.take(this.options.maxBatch).forEach(failed);
      else if (batch.length === 1) failed(batch[0]);
      else this.alone(batch);
      return;
    }
    batch.forEach((write, i) => this.answer(write, result[i]));
  }

  /**
   * Hands the transaction its writes one at a time, recording them in `taken`, until `maxBatch` are
   * taken or the writes have run `maxMs`.
   */
  private taker(taken: PendingWrite[]): () => PendingWrite | undefined {
    const { maxBatch, maxMs = Number.POSITIVE_INFINITY, now = () => performance.now() } = this.options;
    const started = now();
    return () => {
      if (taken.length >= maxBatch || (taken.length > 0 && now() - started >= maxMs)) return undefined;
      const write = this.queue.next();
      if (write !== undefined) taken.push(write);
      return write;
    };
  }

  /** Each write in a transaction of its own, in order; a BEGIN that fails fails the rest too. */
  private alone(writes: readonly PendingWrite[]): void {
    for (const [i, write] of writes.entries()) {
      const result = this.transaction(once(write));
      if (Array.isArray(result)) {
        this.answer(write, result[0]);
        continue;
      }
      const rest = result.failedAt === 'begin' ? writes.slice(i) : [write];
      rest.forEach((w) => this.answer(w, { ok: false, error: result.error }));
      if (result.failedAt === 'begin') return;
    }
  }

  /**
   * One transaction over the writes `next` hands out until it has none: each write's outcome once
   * committed, or why the whole of it failed. Never throws: it runs in a callback of the event loop,
   * where a throw (a SAVEPOINT or ROLLBACK TO refused by a failing disk) would end the process.
   */
  private transaction(next: () => PendingWrite | undefined): Outcome[] | BatchFailure {
    const now = this.options.now ?? (() => performance.now());
    const started = now();
    try {
      return this.transactionOf(next);
    } finally {
      this.longestMs = Math.max(this.longestMs, now() - started);
    }
  }

  /** `transaction` itself, timed by it. */
  private transactionOf(next: () => PendingWrite | undefined): Outcome[] | BatchFailure {
    try {
      this.begin.run();
    } catch (error) {
      return { failedAt: 'begin', error };
    }
    const fold = this.options.fold;
    const outcomes: Outcome[] = [];
    try {
      fold?.begin();
      for (let write = next(); write !== undefined; write = next()) {
        this.savepoint.run();
        fold?.startWrite();
        try {
          const value = write.change();
          this.release.run();
          fold?.keepWrite();
          outcomes.push({ ok: true, value });
        } catch (error) {
          fold?.dropWrite();
          // SQLite may have rolled the whole transaction back by itself (SQLITE_FULL, SQLITE_IOERR).
          if (!this.db.inTransaction) return { failedAt: 'batch', error };
          this.rollbackTo.run();
          this.release.run();
          outcomes.push({ ok: false, error });
        }
      }
      fold?.beforeCommit();
      this.commit.run();
    } catch (error) {
      this.rollbackIfOpen();
      return { failedAt: 'batch', error };
    }
    this.counts.commits += 1;
    this.counts.writes += outcomes.filter((outcome) => outcome.ok).length;
    return outcomes;
  }

  /** Ends what is left of a failed transaction; a ROLLBACK that fails too leaves SQLite to end it. */
  private rollbackIfOpen(): void {
    try {
      if (this.db.inTransaction) this.rollback.run();
    } catch {
      // The error that failed the transaction is the one its writes are answered with.
    }
  }

  /** Answers now, or once the next sync has made the commit durable. */
  private answer(write: PendingWrite, outcome: Outcome): void {
    if (this.options.sync === undefined || !write.durable) {
      settle(write, outcome);
      return;
    }
    this.unsynced.push([write, outcome]);
    // Begun once the flush that committed this write is over, so that one sync covers all its commits.
    const sync = this.options.sync;
    this.syncing ??= Promise.resolve().then(() => this.syncThenAnswer(sync));
  }

  /** Syncs, answers what was committed before the sync began, and again while commits keep coming. */
  private async syncThenAnswer(sync: DurableSync): Promise<void> {
    while (this.unsynced.length > 0) {
      const covered = this.unsynced;
      this.unsynced = [];
      const error = await new Promise<Error | null>((resolve) => sync(resolve));
      this.counts.syncs += 1;
      for (const [write, outcome] of covered) {
        settle(
          write,
          error === null
            ? outcome
            : {
                ok: false,
                error: new StorageUnavailableError(
                  `the SQLite WAL could not be synced (${(error as NodeJS.ErrnoException).code ?? error.name})`,
                  { cause: error },
                ),
              },
        );
      }
    }
    this.syncing = undefined;
  }
}

/**
 * The writes waiting for a transaction, by lane: each lane in the order its writes came, the lanes in
 * turn, one write each. A lane is whatever the caller says its writes belong to (the orders of one
 * dashboard): a batch's hundreds of writes then take turns with another dashboard's one, which goes
 * into the next transaction instead of waiting behind all of them.
 */
class LaneQueue {
  /** The lanes with writes waiting, the one whose turn is next first (a Map keeps insertion order). */
  private readonly lanes = new Map<string, PendingWrite[]>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  push(lane: string, write: PendingWrite): void {
    const waiting = this.lanes.get(lane);
    if (waiting === undefined) this.lanes.set(lane, [write]);
    else waiting.push(write);
    this.count++;
  }

  /** The first write of the lane whose turn it is; that lane's turn then goes to the back. */
  next(): PendingWrite | undefined {
    const turn = this.lanes.entries().next();
    if (turn.done === true) return undefined;
    const [lane, waiting] = turn.value;
    const write = waiting.shift()!;
    this.lanes.delete(lane);
    if (waiting.length > 0) this.lanes.set(lane, waiting);
    this.count--;
    return write;
  }

  /** Up to `most` writes, in turn. */
  take(most: number): PendingWrite[] {
    const taken: PendingWrite[] = [];
    for (let write = this.next(); write !== undefined; write = taken.length < most ? this.next() : undefined) taken.push(write);
    return taken;
  }
}

/** Hands out `write`, then nothing. */
const once = (write: PendingWrite): (() => PendingWrite | undefined) => {
  let handed = false;
  return () => {
    if (handed) return undefined;
    handed = true;
    return write;
  };
};

const settle = (write: PendingWrite, outcome: Outcome): void => {
  if (outcome.ok) write.resolve(outcome.value);
  else write.reject(asStorageError(outcome.error));
};
