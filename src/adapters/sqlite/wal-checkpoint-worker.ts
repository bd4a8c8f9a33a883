import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';

/** What the thread is started with (wal-checkpointer.ts). */
export interface CheckpointSetting {
  readonly file: string;
  readonly everyMs: number;
}

/** What the thread says after each checkpoint: the WAL's frames, and how many of them are in the file now; or why it failed. */
export type CheckpointReport = { readonly log: number; readonly checkpointed: number } | { readonly error: string };

/** A report of the thread: of its own pass, or `asked` for by the writing side. */
export type CheckpointMessage = CheckpointReport | { readonly asked: CheckpointReport };

/**
 * The thread that copies the WAL into the database file (wal-checkpointer.ts): a connection of its own
 * that runs a PASSIVE checkpoint every `everyMs`. PASSIVE takes no lock a writer or a reader needs: it
 * copies what no reader still needs, and leaves the rest to the next one.
 */
const { file, everyMs } = workerData as CheckpointSetting;
const connection = new BetterSqlite3(file, { fileMustExist: true, timeout: 0 });
connection.pragma('trusted_schema = OFF');
const checkpoint = connection.prepare('PRAGMA wal_checkpoint(PASSIVE)');

/** One PASSIVE checkpoint: the WAL's frames and how many are in the file now, or why it failed. */
const checkpointed = (): CheckpointReport => {
  try {
    const { log, checkpointed: copied } = checkpoint.get() as { busy: number; log: number; checkpointed: number };
    return { log, checkpointed: copied };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
};

const passes = setInterval(() => parentPort?.postMessage(checkpointed()), everyMs);
// 'now': one pass at once (the writes paused meanwhile), answered as `asked`. 'stop': the connection
// closed and the thread left to end by itself, never cut off while it loads SQLite's native module
// (which aborts the whole process).
parentPort?.on('message', (message: 'now' | 'stop') => {
  if (message === 'now') {
    parentPort?.postMessage({ asked: checkpointed() });
    return;
  }
  clearInterval(passes);
  connection.close();
  parentPort?.close();
});
