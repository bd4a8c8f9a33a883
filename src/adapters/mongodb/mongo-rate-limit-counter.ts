import type { Collection, Db } from 'mongodb';
import type { Logger } from '../../application/ports/logger';
import type { RateLimitCounter, WindowCount } from '../../application/ports/rate-limit-counter';
import { decodeDocument } from './corrupt-document';
import { rateLimitSlotCodec, type RateLimitSlotDocument } from './guard-documents';
import { guarded, insertUnlessDuplicate } from './mongo-errors';
import { COLLECTIONS } from './mongo-indexes';

/** Rounds a hit may need when other instances keep taking the slots it aims at. */
const MAX_ROUNDS = 20;

/**
 * Fixed-window counters shared by every instance on the database. A hit takes the next slot of its
 * window with an insert under the unique `_id`: the one write that is atomic on MongoDB and FerretDB
 * alike, where an `$inc` loses increments on FerretDB (docs/ferretdb-notes.md). Each instance keeps
 * the next slot it expects, handed out synchronously so its own parallel hits never collide: one
 * round trip per hit, and more only when another instance took the slot first, after which a read of
 * the highest slot puts this instance back in step.
 */
export class MongoRateLimitCounter implements RateLimitCounter {
  private readonly slots: Collection<RateLimitSlotDocument>;
  private readonly nextSlot = new Map<string, number>();
  private currentWindowStart = 0;

  constructor(
    db: Db,
    private readonly logger: Logger,
  ) {
    this.slots = db.collection<RateLimitSlotDocument>(COLLECTIONS.rateLimits);
  }

  async hit(subject: string, windowMs: number, now: Date): Promise<WindowCount> {
    const start = Math.floor(now.getTime() / windowMs) * windowMs;
    const resetAt = new Date(start + windowMs);
    const window = `${subject}:${windowMs}:${start}`;
    this.forgetPastWindows(start);
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const slot = this.nextSlot.get(window) ?? 1;
      this.nextSlot.set(window, slot + 1);
      if (await insertUnlessDuplicate(this.slots, { _id: `${window}:${slot}`, window, slot, expiresAt: resetAt })) return { count: slot, resetAt };
      const highest = await guarded(() => this.slots.find({ window }).sort({ slot: -1 }).limit(1).next());
      const taken = highest === null ? 0 : decodeDocument(rateLimitSlotCodec, highest, COLLECTIONS.rateLimits, this.logger).slot;
      this.nextSlot.set(window, Math.max(this.nextSlot.get(window) ?? 1, taken + 1));
    }
    throw new Error(`rate-limit slots kept being taken during ${MAX_ROUNDS} rounds`);
  }

  /**
   * Windows that have ended are of no use: once per window, drop their in-process hints and, without
   * waiting, their slots in the store (FerretDB has no TTL indexes, so nothing else would).
   */
  private forgetPastWindows(start: number): void {
    if (start <= this.currentWindowStart) return;
    this.currentWindowStart = start;
    for (const window of this.nextSlot.keys()) {
      if (Number(window.slice(window.lastIndexOf(':') + 1)) < start) this.nextSlot.delete(window);
    }
    this.slots.deleteMany({ expiresAt: { $lte: new Date(start) } }).catch((err: unknown) => {
      this.logger.warn('could not purge past rate-limit windows', { errorName: err instanceof Error ? err.name : typeof err });
    });
  }
}
