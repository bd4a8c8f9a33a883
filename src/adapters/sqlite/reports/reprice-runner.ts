import { setTimeout as sleep } from 'node:timers/promises';

/** How often an idle runner looks for a job another process (or a migration) made. */
const POLL_MS = 500;

/**
 * A chunk that took t ms is followed by t × REST_RATIO ms without one: the jobs take at most half of
 * the event loop. Back to back, one dashboard's costs files kept the runner on the loop 43 % of the
 * time, and another dashboard's order POST waited behind a chunk at each of its turns (5.5x its time
 * alone).
 */
export const REST_RATIO = 1;

/**
 * Carries out the re-pricing jobs of rollup-costs.ts: one chunk per write of the group commit, the
 * next one after a rest as long as the chunk took (REST_RATIO), so that orders and reports go on between chunks; when
 * there is no job, it looks again every POLL_MS, or at once when `poke`d. Its timers do not keep the
 * process alive (a CLI command ends when its work does). Several processes on one file share the jobs:
 * each chunk reads the job's progress inside its own transaction.
 */
export class RepriceRunner {
  private stopped = false;
  private wake: (() => void) | undefined;
  private running: Promise<void> | undefined;

  constructor(
    /** Whether a job waits (a read). */
    private readonly pending: () => boolean,
    /** One chunk, in a write; resolves false when there was no job. */
    private readonly chunk: () => Promise<boolean>,
  ) {}

  start(): void {
    this.stopped = false;
    this.running ??= this.loop().finally(() => (this.running = undefined));
  }

  /** A job was just made: start it now rather than at the next poll. */
  poke(): void {
    this.wake?.();
  }

  /** Ends the loop after the chunk in flight, if any. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.poke();
    await this.running;
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      let more: boolean;
      const started = performance.now();
      try {
        more = this.pending() && (await this.chunk());
      } catch {
        // A busy file or a closing connection: the job stays where its last chunk left it; try again later.
        more = false;
      }
      if (this.stopped) return;
      if (more) await this.rest((performance.now() - started) * REST_RATIO);
      else await this.idle();
    }
  }

  /** Waits `ms` (a turn of the event loop at least) before the next chunk; `stop` ends the wait. */
  private async rest(ms: number): Promise<void> {
    if (ms < 1) await new Promise((resolve) => setImmediate(resolve));
    else await this.idle(ms);
  }

  private async idle(ms = POLL_MS): Promise<void> {
    const controller = new AbortController();
    this.wake = () => controller.abort();
    try {
      await sleep(ms, undefined, { signal: controller.signal, ref: false });
    } catch {
      // Poked.
    } finally {
      this.wake = undefined;
    }
  }
}
