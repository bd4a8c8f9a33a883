import { expect } from 'chai';
import { InMemoryRateLimitCounter } from '../../../src/adapters/memory/in-memory-rate-limit-counter';
import { CheckRateLimit } from '../../../src/application/guards/check-rate-limit';
import { MutableClock } from '../../support/mutable-clock';

describe('CheckRateLimit', () => {
  let clock: MutableClock;
  let check: CheckRateLimit;

  beforeEach(() => {
    clock = new MutableClock('2026-03-01T12:00:10.000Z');
    check = new CheckRateLimit(new InMemoryRateLimitCounter(), { max: 3, windowSeconds: 60 }, clock);
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
});
