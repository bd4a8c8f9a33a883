import type { Db } from 'mongodb';
import type { Logger } from '../../../application/ports/logger';
import type { RateLimitCounter, WindowCount } from '../../../application/ports/rate-limit-counter';
import { rateLimitCounterCodec, type RateLimitCounterDocument } from './guard-documents';
import { guarded, isDuplicateKey } from '../mongo-errors';
import { MongoCollection } from '../mongo-collection';

/**
 * How long a window's counter outlives the window before the TTL index lets the server delete it:
 * an instance whose clock runs a little behind the others still counts on the same document.
 */
export const COUNTER_GRACE_MS = 60_000;

/**
 * Two upserts of a new counter can race: MongoDB may answer the loser with a duplicate-key error
 * (it retries most such upserts itself). Once the counter exists the next try increments it, so one
 * retry settles it; a third try is a margin.
 */
const MAX_TRIES = 3;

/**
 * Fixed-window counters shared by every instance: one document per (subject, window), upserted and
 * `$inc`ed by one `findAndModify` that returns the new count, so parallel hits never lose an
 * increment. Refused requests count on the same document, and the TTL index on `expiresAt` deletes
 * past windows: nothing is purged from the request path.
 */
export class MongoRateLimitCounter implements RateLimitCounter {
  private readonly counters: MongoCollection<RateLimitCounterDocument>;

  constructor(db: Db, logger: Logger) {
    this.counters = new MongoCollection(db, 'rateLimits', logger);
  }

  async hit(subject: string, windowMs: number, now: Date, amount = 1): Promise<WindowCount> {
    const start = Math.floor(now.getTime() / windowMs) * windowMs;
    const resetAt = new Date(start + windowMs);
    const _id = `${subject}:${windowMs}:${start}`;
    for (let attempt = 1; ; attempt++) {
      try {
        const counter = await guarded(() =>
          this.counters.documents.findOneAndUpdate(
            { _id },
            { $inc: { count: amount }, $setOnInsert: { expiresAt: new Date(resetAt.getTime() + COUNTER_GRACE_MS) } },
            { upsert: true, returnDocument: 'after', projection: { count: 1 } },
          ),
        );
        const { count } = this.counters.decode(rateLimitCounterCodec, counter);
        return { count, resetAt };
      } catch (err) {
        if (!isDuplicateKey(err) || attempt >= MAX_TRIES) throw err;
      }
    }
  }

  async peek(subject: string, windowMs: number, now: Date): Promise<WindowCount> {
    const start = Math.floor(now.getTime() / windowMs) * windowMs;
    const found = await guarded(() =>
      this.counters.documents.findOne({ _id: `${subject}:${windowMs}:${start}` }, { projection: { count: 1 } }),
    );
    return { count: found === null ? 0 : this.counters.decode(rateLimitCounterCodec, found).count, resetAt: new Date(start + windowMs) };
  }
}
