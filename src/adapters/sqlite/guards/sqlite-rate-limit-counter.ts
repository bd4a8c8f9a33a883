import type { Statement } from 'better-sqlite3';
import type { RateLimitCounter, WindowCount } from '../../../application/ports/rate-limit-counter';
import type { SqliteDatabase } from '../sqlite-database';

/**
 * Fixed-window counters in `rate_limit_windows`: a hit is one upsert that counts and returns the count,
 * so parallel hits, from this process or another on the same file, each see a distinct count.
 */
export class SqliteRateLimitCounter implements RateLimitCounter {
  private readonly count: Statement;
  private readonly purge: Statement;
  private readonly current: Statement;
  private purgedAt = 0;

  constructor(private readonly db: SqliteDatabase) {
    this.count = db.prepare(
      `INSERT INTO rate_limit_windows (subject, window_ms, window_start, hits, reset_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (subject, window_ms, window_start) DO UPDATE SET hits = hits + excluded.hits
       RETURNING hits`,
    );
    this.purge = db.prepare('DELETE FROM rate_limit_windows WHERE reset_at <= ?');
    this.current = db.prepare('SELECT hits FROM rate_limit_windows WHERE subject = ? AND window_ms = ? AND window_start = ?').pluck();
  }

  async peek(subject: string, windowMs: number, now: Date): Promise<WindowCount> {
    const start = Math.floor(now.getTime() / windowMs) * windowMs;
    const hits = this.db.read(() => this.current.get(subject, windowMs, start)) as number | undefined;
    return { count: hits ?? 0, resetAt: new Date(start + windowMs) };
  }

  async hit(subject: string, windowMs: number, now: Date, amount = 1): Promise<WindowCount> {
    const start = Math.floor(now.getTime() / windowMs) * windowMs;
    const resetAt = start + windowMs;
    // Windows that have ended are of no use: once per window length, delete them with this hit.
    const purge = now.getTime() - this.purgedAt >= windowMs;
    if (purge) this.purgedAt = now.getTime();
    // A count lost to a power cut only lets a few more requests through: it is not worth a wait for the disk.
    const row = await this.db.writeUnsynced(() => {
      if (purge) this.purge.run(now.getTime());
      return this.count.get(subject, windowMs, start, amount, resetAt) as { hits: number };
    });
    return { count: row.hits, resetAt: new Date(resetAt) };
  }
}
