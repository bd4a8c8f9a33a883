import type { RateLimitCounter, WindowCount } from '../../../application/ports/rate-limit-counter';

/** Fixed-window counters in the process; windows that have ended are dropped as time moves on. */
export class InMemoryRateLimitCounter implements RateLimitCounter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private sweptAt = 0;

  async hit(subject: string, windowMs: number, now: Date, amount = 1): Promise<WindowCount> {
    const start = Math.floor(now.getTime() / windowMs) * windowMs;
    this.sweep(now.getTime(), windowMs);
    const key = `${subject}\u0000${windowMs}\u0000${start}`;
    const current = this.windows.get(key) ?? { count: 0, resetAt: start + windowMs };
    current.count += amount;
    this.windows.set(key, current);
    return { count: current.count, resetAt: new Date(current.resetAt) };
  }

  async peek(subject: string, windowMs: number, now: Date): Promise<WindowCount> {
    const start = Math.floor(now.getTime() / windowMs) * windowMs;
    return { count: this.windows.get(`${subject}\u0000${windowMs}\u0000${start}`)?.count ?? 0, resetAt: new Date(start + windowMs) };
  }

  /** At most once per window length, forget the windows that have ended. */
  private sweep(now: number, windowMs: number): void {
    if (now - this.sweptAt < windowMs) return;
    this.sweptAt = now;
    for (const [key, window] of this.windows) {
      if (window.resetAt <= now) this.windows.delete(key);
    }
  }
}
