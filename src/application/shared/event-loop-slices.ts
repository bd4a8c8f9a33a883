import { setImmediate } from 'node:timers/promises';

/** How long one stretch of a request's work may hold the event loop before other requests get a turn. */
export const SLICE_MS = 5;

/**
 * Cuts work that grows with a request's input (the lines of a file, the orders of a batch) into
 * stretches of about SLICE_MS: awaited between two units of work, `pause` lets the event loop serve
 * others once the stretch has run that long (decision 0023), and costs a microtask otherwise.
 */
export class EventLoopSlices {
  private started = performance.now();

  constructor(private readonly budgetMs = SLICE_MS) {}

  /** Whether this stretch has run its budget: `pause` would let others run now. */
  get due(): boolean {
    return performance.now() - this.started >= this.budgetMs;
  }

  async pause(): Promise<void> {
    if (!this.due) return;
    await setImmediate();
    this.started = performance.now();
  }
}
