import type { Clock } from '../../src/application/ports/clock';

/**
 * Where test clocks start by default: after the real time, on purpose. Idempotency records and
 * rate-limit counters expire at a time taken from the service's clock, and on MongoDB a TTL monitor
 * going by the real clock deletes, about once a minute, every document whose time has passed: one
 * dated in the past could vanish in the middle of a test.
 */
export const TEST_EPOCH = '2126-03-01T12:00:00.000Z';

/** A clock that stands still until a test moves it. */
export class MutableClock implements Clock {
  private current: Date;

  constructor(start: string | Date = TEST_EPOCH) {
    this.current = new Date(start);
  }

  now(): Date {
    return new Date(this.current);
  }

  set(to: string | Date): void {
    this.current = new Date(to);
  }

  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}
