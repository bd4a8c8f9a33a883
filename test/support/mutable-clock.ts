import type { Clock } from '../../src/application/ports/clock';

/** A clock that stands still until a test moves it. */
export class MutableClock implements Clock {
  private current: Date;

  constructor(start: string | Date = '2026-03-01T12:00:00.000Z') {
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
