import { expect } from 'chai';
import { InMemoryRateLimitCounter } from '../../../src/adapters/memory/guards/in-memory-rate-limit-counter';
import { CheckRateLimit } from '../../../src/application/guards/check-rate-limit';
import { StorageUnavailableError } from '../../../src/application/ports/storage-health';
import { rejectionOf } from '../../support/failures';
import { MutableClock } from '../../support/mutable-clock';

describe('CheckRateLimit', () => {
  let clock: MutableClock;
  let check: CheckRateLimit;

  beforeEach(() => {
    clock = new MutableClock('2026-03-01T12:00:10.000Z');
    check = new CheckRateLimit(new InMemoryRateLimitCounter(), { max: 3, windowSeconds: 60 }, clock, new InMemoryRateLimitCounter());
  });

  it('allows up to the limit in a window, counting down what remains', async () => {
    const decisions = [await check.execute('tok_a'), await check.execute('tok_a'), await check.execute('tok_a')];
    expect(decisions.map((d) => [d.allowed, d.remaining])).to.deep.equal([
      [true, 2],
      [true, 1],
      [true, 0],
    ]);
    expect(decisions[0]).to.deep.include({ limit: 3, windowSeconds: 60, resetSeconds: 50 });
  });

  it('refuses past the limit until the window resets', async () => {
    for (let i = 0; i < 3; i++) await check.execute('tok_a');
    expect(await check.execute('tok_a')).to.deep.include({ allowed: false, remaining: 0, resetSeconds: 50 });
    clock.set('2026-03-01T12:00:59.500Z');
    expect(await check.execute('tok_a')).to.deep.include({ allowed: false, resetSeconds: 1 });
    clock.set('2026-03-01T12:01:00.000Z');
    expect(await check.execute('tok_a')).to.deep.include({ allowed: true, remaining: 2, resetSeconds: 60 });
  });

  it('counts each token on its own', async () => {
    for (let i = 0; i < 4; i++) await check.execute('tok_a');
    expect((await check.execute('tok_b')).allowed).to.equal(true);
  });

  describe('when the store cannot take the count (a full disk)', () => {
    const failing = {
      hit: async () => Promise.reject(new StorageUnavailableError('SQLITE_FULL')),
      peek: async () => Promise.reject(new StorageUnavailableError('SQLITE_FULL')),
    };

    it('counts a read in the process instead, to the same limit, and serves it', async () => {
      const reads = new CheckRateLimit(failing, { max: 2, windowSeconds: 60 }, clock, new InMemoryRateLimitCounter());
      const decisions = [await reads.execute('tok_a', true), await reads.execute('tok_a', true), await reads.execute('tok_a', true)];
      expect(decisions.map((d) => [d.allowed, d.remaining])).to.deep.equal([
        [true, 1],
        [true, 0],
        [false, 0],
      ]);
      expect(decisions[0]).to.deep.include({ resetSeconds: 50 });
    });

    it('fails a write as the store does', async () => {
      const writes = new CheckRateLimit(failing, { max: 2, windowSeconds: 60 }, clock, new InMemoryRateLimitCounter());
      expect(await rejectionOf(writes.execute('tok_a'))).to.be.instanceOf(StorageUnavailableError);
    });

    it('does not swallow a failure that is not the store being unavailable', async () => {
      const broken = { hit: async () => Promise.reject(new TypeError('a bug')), peek: async () => Promise.reject(new TypeError('a bug')) };
      const reads = new CheckRateLimit(broken, { max: 2, windowSeconds: 60 }, clock, new InMemoryRateLimitCounter());
      expect(await rejectionOf(reads.execute('tok_a', true))).to.be.instanceOf(TypeError);
    });
  });
});
