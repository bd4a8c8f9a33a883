import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';

/** What the thread is started with (wal-checkpointer.ts). */
export interface CheckpointSetting {
  readonly file: string;
  readonly everyMs: number;
}

/** What the thread says after each checkpoint: the WAL's frames, and how many of them are in the file now; or why it failed. */
export type CheckpointReport = { readonly log: number; readonly checkpointed: number } | { readonly error: string };

/**
 * The thread that copies the WAL into the database file (wal-checkpointer.ts): a connection of its own
 * that runs a PASSIVE checkpoint every `everyMs`. PASSIVE takes no lock a writer or a reader needs: it
 * copies what no reader still needs, and leaves the rest to the next one.
 */
const { file, everyMs } = workerData as CheckpointSetting;
const connection = new BetterSqlite3(file, { fileMustExist: true, timeout: 0 });
connection.pragma('trusted_schema = OFF');
const checkpoint = connection.prepare('PRAGMA wal_checkpoint(PASSIVE)');

setInterval(() => {
  let report: CheckpointReport;
  try {
    const { log, checkpointed } = checkpoint.get() as { busy: number; log: number; checkpointed: number };
    report = { log, checkpointed };
  } catch (err) {
    report = { error: err instanceof Error ? err.message : String(err) };
  }
  parentPort?.postMessage(report);
}, everyMs);
