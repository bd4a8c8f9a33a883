import type { Clock } from '../ports/clock';
import type { RateLimitCounter, WindowCount } from '../ports/rate-limit-counter';
import { StorageUnavailableError } from '../ports/storage-health';

export interface RateLimitSettings {
  /** Requests allowed per token and window (RATE_LIMIT_MAX). */
  readonly max: number;
  /** RATE_LIMIT_WINDOW_SECONDS. */
  readonly windowSeconds: number;
}

export interface RateLimitDecision {
  readonly allowed: boolean;
  readonly limit: number;
  readonly windowSeconds: number;
  readonly remaining: number;
  /** Seconds until the window resets; at least 1. */
  readonly resetSeconds: number;
  /** Which window counted the request, and on which counter: what `giveBack` returns to. */
  readonly counted: { readonly at: Date; readonly inMemory: boolean };
}

/** Counts a request against its token's fixed window (decision 0009). */
export class CheckRateLimit {
  /** `fallback` counts in this process's memory: where reads are counted while the store cannot take a write. */
  constructor(
    private readonly counter: RateLimitCounter,
    private readonly settings: RateLimitSettings,
    private readonly clock: Clock,
    private readonly fallback: RateLimitCounter,
  ) {}

  /**
   * A read (`isRead`) whose count the store cannot write (a full disk) is counted in this process's
   * memory instead, in the same window, and served: a read must not fail for want of a write. A
   * write fails as the store does.
   */
  async execute(tokenId: string, isRead = false, amount = 1): Promise<RateLimitDecision> {
    const now = this.clock.now();
    const windowMs = this.settings.windowSeconds * 1000;
    let hit: WindowCount;
    let inMemory = false;
    try {
      hit = await this.counter.hit(tokenId, windowMs, now, amount);
    } catch (err) {
      if (!isRead || !(err instanceof StorageUnavailableError)) throw err;
      hit = await this.fallback.hit(tokenId, windowMs, now, amount);
      inMemory = true;
    }
    const { count, resetAt } = hit;
    return {
      allowed: count <= this.settings.max,
      limit: this.settings.max,
      windowSeconds: this.settings.windowSeconds,
      remaining: Math.max(0, this.settings.max - count),
      resetSeconds: Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000)),
      counted: { at: now, inMemory },
    };
  }

  /**
   * Gives back `amount` requests that `decision` counted and that were not served (a batch refused
   * whole), to the window that counted them, on the counter that counted them (decision 0023): taken
   * at the time of the give-back, the count would go to the next window when this one has just ended,
   * and would lend that window what it never took.
   */
  async giveBack(tokenId: string, decision: RateLimitDecision, amount: number): Promise<void> {
    const counter = decision.counted.inMemory ? this.fallback : this.counter;
    await counter.hit(tokenId, this.settings.windowSeconds * 1000, decision.counted.at, -amount);
  }
}
