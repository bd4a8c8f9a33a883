import type { Logger } from '../../application/ports/logger';

/** How often a failure that keeps repeating is logged again, with the count of those not logged. */
export const REPEAT_EVERY_MS = 60_000;

/**
 * The log of one polling loop's failures: the first failure of a run of them is logged as an error,
 * the repeats at most once every `REPEAT_EVERY_MS` (with how many there were since the last line),
 * and the first success after them once, as `<what> recovered`. A loop that polls every second while
 * the store is down writes one line a minute, not sixty, and still says when it started and ended.
 */
export class RepeatedFailureLog {
  private failingSince: number | undefined;
  private lastLoggedAt = 0;
  private unlogged = 0;

  constructor(
    private readonly logger: Logger,
    /** What fails, as the log says it: `webhook relay`, `claiming webhook deliveries`. */
    private readonly what: string,
    private readonly now: () => number = Date.now,
  ) {}

  failed(err: unknown): void {
    const now = this.now();
    if (this.failingSince === undefined) {
      this.failingSince = now;
      this.lastLoggedAt = now;
      this.logger.error(`${this.what} failed`, failure(err));
      return;
    }
    this.unlogged++;
    if (now - this.lastLoggedAt < REPEAT_EVERY_MS) return;
    this.logger.error(`${this.what} still failing`, {
      ...failure(err),
      failuresSinceLastLine: this.unlogged,
      failingForMs: now - this.failingSince,
    });
    this.lastLoggedAt = now;
    this.unlogged = 0;
  }

  succeeded(): void {
    if (this.failingSince === undefined) return;
    this.logger.info(`${this.what} recovered`, { failingForMs: this.now() - this.failingSince });
    this.failingSince = undefined;
    this.unlogged = 0;
  }
}

/** An error as a log line may show it: its name and the start of its message, never a stack. */
export const failure = (err: unknown): { errorName: string; errorMessage?: string } => ({
  errorName: err instanceof Error ? err.name : typeof err,
  ...(err instanceof Error ? { errorMessage: err.message.slice(0, 300) } : {}),
});
