import { expect } from 'chai';
import { TEST_EPOCH } from '../support/mutable-clock';
import type { RateLimitCounter } from '../../src/application/ports/rate-limit-counter';

const WINDOW_MS = 60_000;
const T0 = new Date(TEST_EPOCH);
const at = (ms: number): Date => new Date(T0.getTime() + ms);

/** What every RateLimitCounter must do (src/application/ports/rate-limit-counter.ts). */
export const rateLimitCounterContract = (adapterName: string, factory: () => Promise<RateLimitCounter>): void => {
  describe(`RateLimitCounter contract: ${adapterName}`, () => {
    let counter: RateLimitCounter;

    beforeEach(async () => {
      counter = await factory();
    });

    it('counts hits in a window and says when it resets', async () => {
      expect(await counter.hit('tok_a', WINDOW_MS, at(1_000))).to.deep.equal({ count: 1, resetAt: at(WINDOW_MS) });
      expect(await counter.hit('tok_a', WINDOW_MS, at(59_999))).to.deep.equal({ count: 2, resetAt: at(WINDOW_MS) });
    });

    it('counts several hits at once, and gives some back (a batch refused whole)', async () => {
      expect((await counter.hit('tok_a', WINDOW_MS, at(1_000))).count).to.equal(1);
      expect((await counter.hit('tok_a', WINDOW_MS, at(1_000), 499)).count).to.equal(500);
      expect((await counter.hit('tok_a', WINDOW_MS, at(1_000), -499)).count).to.equal(1);
      expect((await counter.hit('tok_b', WINDOW_MS, at(1_000), 3)).count).to.equal(3);
    });

    it('gives back to the window of the hit it undoes, even once that window has ended', async () => {
      expect((await counter.hit('tok_a', WINDOW_MS, at(59_000), 500)).count).to.equal(500);
      expect((await counter.hit('tok_a', WINDOW_MS, at(WINDOW_MS + 500))).count).to.equal(1);
      expect((await counter.hit('tok_a', WINDOW_MS, at(59_000), -499)).count).to.equal(1);
      expect((await counter.hit('tok_a', WINDOW_MS, at(WINDOW_MS + 600))).count).to.equal(2);
    });

    it('peeks at the count of the window of an instant without counting: 0 where nothing was counted', async () => {
      expect(await counter.peek('tok_a', WINDOW_MS, at(1_000))).to.deep.equal({ count: 0, resetAt: at(WINDOW_MS) });
      await counter.hit('tok_a', WINDOW_MS, at(1_000), 3);
      expect(await counter.peek('tok_a', WINDOW_MS, at(59_999))).to.deep.equal({ count: 3, resetAt: at(WINDOW_MS) });
      expect(await counter.peek('tok_a', WINDOW_MS, at(59_999))).to.deep.equal({ count: 3, resetAt: at(WINDOW_MS) });
      expect((await counter.peek('tok_a', WINDOW_MS, at(WINDOW_MS))).count, 'the next window').to.equal(0);
      expect((await counter.peek('tok_b', WINDOW_MS, at(1_000))).count, 'another subject').to.equal(0);
      expect((await counter.hit('tok_a', WINDOW_MS, at(2_000))).count).to.equal(4);
    });

    it('starts again from zero in the next window', async () => {
      await counter.hit('tok_a', WINDOW_MS, at(0));
      await counter.hit('tok_a', WINDOW_MS, at(1));
      expect(await counter.hit('tok_a', WINDOW_MS, at(WINDOW_MS))).to.deep.equal({ count: 1, resetAt: at(2 * WINDOW_MS) });
    });

    it('keeps subjects apart', async () => {
      await counter.hit('tok_a', WINDOW_MS, at(0));
      expect((await counter.hit('tok_b', WINDOW_MS, at(0))).count).to.equal(1);
    });

    // Relies on an atomic increment of one counter: where `$inc` reads and writes apart, parallel
    // hits lose increments and share counts.
    it('loses no increment under parallel hits, and each hit sees a distinct count (atomic $inc)', async () => {
      const results = await Promise.all(Array.from({ length: 50 }, () => counter.hit('tok_a', WINDOW_MS, at(5))));
      const counts = results.map((r) => r.count).sort((a, b) => a - b);
      expect(counts).to.deep.equal(Array.from({ length: 50 }, (_, i) => i + 1));
      expect((await counter.hit('tok_a', WINDOW_MS, at(6))).count).to.equal(51);
    });
  });
};
