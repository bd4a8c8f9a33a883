export interface WindowCount {
  /** Requests counted in the window so far, this one included. */
  readonly count: number;
  /** When the window ends and counting starts again from zero. */
  readonly resetAt: Date;
}

/**
 * Fixed-window request counters, shared by every instance that uses the same store (decision 0009).
 * Implementations must agree (test/contract/rate-limit-counter.contract.ts).
 */
export interface RateLimitCounter {
  /**
   * Counts one request of `subject` in the window of `windowMs` that contains `now` (windows start at
   * multiples of `windowMs` since the epoch). Atomic: parallel hits never lose an increment, and each
   * sees a distinct count. One round trip to the store. `amount` counts several requests at once (a
   * batch's orders), or gives some back when negative (a batch refused whole): `now` is then the
   * instant of the hit it undoes, so that the count returns to that window even after it has ended.
   */
  hit(subject: string, windowMs: number, now: Date, amount?: number): Promise<WindowCount>;

  /**
   * The count of `subject`'s window that contains `now` (0 when it has none), counting nothing: a read,
   * for refusing a request whose window is already full without a write.
   */
  peek(subject: string, windowMs: number, now: Date): Promise<WindowCount>;
}
