import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { CheckpointReport, CheckpointSetting } from './wal-checkpoint-worker';

/**
 * Checkpoints of a SQLite file's WAL on a thread of their own (wal-checkpoint-worker.ts), so that the
 * copying of pages into the file and its sync happen off the event loop. A checkpoint the writing
 * connection makes itself (its COMMIT that finds the WAL past `wal_autocheckpoint` pages) runs on the
 * event loop and held it 20-70 ms at a time under a heavy upload; behind this thread it finds nearly
 * every page copied already, and copies only what came since the thread's last pass. A thread that
 * stops is started again at the next `start`; meanwhile the writing connection's own checkpoints keep
 * the WAL bounded as before.
 */
export class WalCheckpointer {
  private worker: Worker | undefined;
  private counts = { checkpoints: 0, failures: 0 };
  private lastError: string | undefined;

  constructor(private readonly setting: CheckpointSetting) {}

  start(): void {
    if (this.worker !== undefined) return;
    const worker = new Worker(join(__dirname, 'wal-checkpoint-worker.js'), { workerData: this.setting });
    worker.unref();
    worker.on('message', (report: CheckpointReport) => {
      if ('error' in report) {
        this.counts.failures++;
        this.lastError = report.error;
      } else this.counts.checkpoints++;
    });
    const lost = (): void => {
      if (this.worker === worker) this.worker = undefined;
    };
    worker.on('error', (err: Error) => {
      this.lastError = err.message;
      lost();
    });
    worker.on('exit', lost);
    this.worker = worker;
  }

  /** Checkpoints made and failed since the start, and the last failure's message. */
  stats(): { readonly checkpoints: number; readonly failures: number; readonly lastError?: string } {
    return { ...this.counts, ...(this.lastError === undefined ? {} : { lastError: this.lastError }) };
  }

  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker !== undefined) await worker.terminate();
  }
}
