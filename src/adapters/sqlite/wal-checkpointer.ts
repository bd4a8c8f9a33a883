import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { CheckpointMessage, CheckpointReport, CheckpointSetting } from './wal-checkpoint-worker';

/** The longest the writes wait for the pass that lets the WAL start again. */
const RESTART_WAIT_MS = 1_000;
/** The longest a stop waits for the thread to end by itself. */
const STOP_WAIT_MS = 5_000;

/**
 * Checkpoints of a SQLite file's WAL on a thread of their own (wal-checkpoint-worker.ts), so that
 * copying the pages into the file and syncing it happen off the event loop: a checkpoint made by the
 * writing connection (SQLite's automatic one, in the COMMIT that finds the WAL past
 * `wal_autocheckpoint` pages) runs on the event loop, and held it 10-140 ms at a time under steady
 * writes, most of it syncing pages copied moments before.
 *
 * A checkpoint beside a stream of commits seldom finds a moment when the WAL is copied whole, which is
 * when the next write starts the WAL again from its beginning; without one the WAL grows without end.
 * So once the WAL has `restartFrames` pages, the writes are paused (`pauseWrites`: they wait, the event
 * loop does not) while the thread makes one more pass, which copies the WAL whole; the next write
 * starts it again. Had the writing connection copied what came since the thread's last pass itself, it
 * would have held the loop 20-40 ms each time under steady writes. A thread that stops is not started
 * again; the writing connection's automatic checkpoint, at a higher count of pages, then keeps the WAL
 * bounded as it did before.
 */
export class WalCheckpointer {
  private worker: Worker | undefined;
  private counts = { checkpoints: 0, failures: 0, restarts: 0 };
  private lastError: string | undefined;

  private starting: NodeJS.Timeout | undefined;
  private stopped = false;
  /** Settles the pause of the writes once the thread has answered the pass asked of it. */
  private restarting: (() => void) | undefined;

  constructor(
    private readonly setting: CheckpointSetting,
    private readonly restartFrames: number,
    private readonly pauseWrites: (until: Promise<void>) => void,
  ) {}

  /** Starts the thread after `delayMs` (a timer that keeps no process alive), unless stopped first: a file opened for a moment (the CLI, a test) never starts one. */
  startAfter(delayMs: number): void {
    this.starting = setTimeout(() => this.start(), delayMs);
    this.starting.unref();
  }

  start(): void {
    clearTimeout(this.starting);
    if (this.worker !== undefined || this.stopped) return;
    const worker = new Worker(join(__dirname, 'wal-checkpoint-worker.js'), { workerData: this.setting });
    worker.unref();
    worker.on('message', (message: CheckpointMessage) => {
      const report = 'asked' in message ? message.asked : message;
      this.count(report);
      if ('asked' in message) this.resume();
      else if (!('error' in report) && report.log >= this.restartFrames && this.restarting === undefined) this.restart(worker);
    });
    const lost = (): void => {
      if (this.worker === worker) this.worker = undefined;
      this.resume();
    };
    worker.on('error', (err: Error) => {
      this.lastError = err.message;
      lost();
    });
    worker.on('exit', lost);
    this.worker = worker;
  }

  /** Pauses the writes, then asks the thread for a pass; the writes go on once it answers, or after a second at most. */
  private restart(worker: Worker): void {
    const until = new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.resume(), RESTART_WAIT_MS);
      this.restarting = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.pauseWrites(until);
    this.counts.restarts++;
    worker.postMessage('now');
  }

  private resume(): void {
    const restarting = this.restarting;
    this.restarting = undefined;
    restarting?.();
  }

  private count(report: CheckpointReport): void {
    if ('error' in report) {
      this.counts.failures++;
      this.lastError = report.error;
    } else this.counts.checkpoints++;
  }

  /** Checkpoints made and failed since the start, the passes asked for with the writes paused, and the last failure's message. */
  stats(): { readonly checkpoints: number; readonly failures: number; readonly restarts: number; readonly lastError?: string } {
    return { ...this.counts, ...(this.lastError === undefined ? {} : { lastError: this.lastError }) };
  }

  /**
   * Asks the thread to close its connection and end, and waits for it; cut off only if it has not ended
   * after STOP_WAIT_MS. Terminating a thread while it loads SQLite's native module aborts the process,
   * which a file opened and closed at once (a test, the CLI) would do.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.starting);
    const worker = this.worker;
    this.worker = undefined;
    this.resume();
    if (worker === undefined) return;
    const ended = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage('stop');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), STOP_WAIT_MS)));
    if ((await Promise.race([ended, late])) === 'late') await worker.terminate();
    clearTimeout(timer);
  }
}
