import type { Clock } from '../ports/clock';
import type { RateLimitCounter } from '../ports/rate-limit-counter';

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
}

/** Counts a request against its token's fixed window (DECISIONS D9). */
export class CheckRateLimit {
  constructor(
    private readonly counter: RateLimitCounter,
    private readonly settings: RateLimitSettings,
    private readonly clock: Clock,
  ) {}

  async execute(tokenId: string): Promise<RateLimitDecision> {
    const now = this.clock.now();
    const { count, resetAt } = await this.counter.hit(tokenId, this.settings.windowSeconds * 1000, now);
    return {
      allowed: count <= this.settings.max,
      limit: this.settings.max,
      windowSeconds: this.settings.windowSeconds,
      remaining: Math.max(0, this.settings.max - count),
      resetSeconds: Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000)),
    };
  }
}
