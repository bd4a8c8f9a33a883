import type { Logger } from '../../application/ports/logger';
import type { Doorbell } from './doorbell';
import { failure, RepeatedFailureLog } from './repeated-failure-log';

export interface ClaimPoolSettings {
  /** The most items in flight in this process. */
  readonly concurrency: number;
  /** How often the store is looked at without a ring of the bell. */
  readonly pollIntervalMs: number;
}

/** What a claim pool claims and runs, and how it speaks of them in the log. */
export interface ClaimPoolWork<C, R> {
  /**
   * The next due item the items in flight leave room for (the fairness limits are the caller's), or
   * undefined when none is due. A throw is a store failure: logged, and tried again at the next poll.
   */
  readonly claim: (inFlight: readonly C[]) => Promise<C | undefined>;
  /** Runs a claimed item to its end, or until `cutOff` aborts. */
  readonly run: (claimed: C, cutOff: AbortSignal) => Promise<R>;
  /** Told of each run's outcome. */
  readonly report: (report: R) => void;
  /** Logs what `run` or `report` threw, naming the item. */
  readonly runFailed: (claimed: C, err: unknown) => void;
  /** What the claims are, as the log says it when they fail: `claiming conversions`. */
  readonly claiming: string;
  /** The log line if the loop itself stops. */
  readonly loopStopped: string;
}

/**
 * The most items one dashboard may have in flight in this process: half the slots (at least one), so
 * that a dashboard whose platform or endpoints are slow or hang holds at most half of them, and the
 * other dashboards' work keeps going in the other half.
 */
export const perDashboardLimit = (concurrency: number): number => Math.max(1, Math.floor(concurrency / 2));

/** The keys that stand `limit` or more times among `keys`. */
export const keysAtLeast = (keys: readonly string[], limit: number): string[] => {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return [...counts].filter(([, count]) => count >= limit).map(([key]) => key);
};

/**
 * A loop that claims due items and runs them side by side, at most `concurrency` at once. It claims
 * again at once after a claim and whenever a slot frees, and otherwise polls. At the shutdown
 * deadline the runs in flight are cut off (their items handed back due, by the use case) and waited for.
 */
export class ClaimPool<C, R> {
  private running = false;
  private loop: Promise<void> = Promise.resolve();
  private readonly inFlight = new Map<Promise<void>, C>();
  private readonly cutOff = new AbortController();
  private readonly claimFailures: RepeatedFailureLog;

  constructor(
    private readonly settings: ClaimPoolSettings,
    /** Rung when work may have fallen due; the pool rings it too when a slot frees. */
    private readonly bell: Doorbell,
    private readonly work: ClaimPoolWork<C, R>,
    private readonly logger: Logger,
    /** The time, in ms, for spacing out the lines of a claim failure that repeats at every poll. */
    now: () => number = Date.now,
  ) {
    this.claimFailures = new RepeatedFailureLog(logger, work.claiming, now);
  }

  start(): void {
    this.running = true;
    // The loop catches what its claims throw; anything else is logged here rather than left unhandled
    // until stop awaits it.
    this.loop = this.claimLoop().catch((err: unknown) => this.logger.error(this.work.loopStopped, failure(err)));
  }

  async stop(deadline: AbortSignal): Promise<void> {
    this.running = false;
    this.bell.ring();
    const cut = (): void => this.cutOff.abort();
    if (deadline.aborted) cut();
    else deadline.addEventListener('abort', cut, { once: true });
    await this.loop;
    await Promise.allSettled([...this.inFlight.keys()]);
    deadline.removeEventListener('abort', cut);
  }

  private async claimLoop(): Promise<void> {
    while (this.running) {
      if (this.inFlight.size < this.settings.concurrency) {
        let claimed: C | undefined;
        try {
          claimed = await this.work.claim([...this.inFlight.values()]);
          this.claimFailures.succeeded();
        } catch (err) {
          this.claimFailures.failed(err);
        }
        if (claimed !== undefined) {
          this.launch(claimed);
          continue;
        }
      }
      await this.bell.wait(this.settings.pollIntervalMs);
    }
  }

  private launch(claimed: C): void {
    const run = this.work
      .run(claimed, this.cutOff.signal)
      .then(this.work.report)
      // A throw of the run, or of what it reports, would otherwise wait in `inFlight` without a handler.
      .catch((err: unknown) => this.work.runFailed(claimed, err))
      .finally(() => {
        this.inFlight.delete(run);
        this.bell.ring();
      });
    this.inFlight.set(run, claimed);
  }
}
