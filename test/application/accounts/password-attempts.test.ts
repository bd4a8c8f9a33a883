import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import { InMemoryRateLimitCounter } from '../../../src/adapters/memory/guards/in-memory-rate-limit-counter';
import { RandomOpaqueSecrets } from '../../../src/adapters/system/scrypt-password-hasher';
import { PasswordAttempts } from '../../../src/application/accounts/password-attempts';
import type { RateLimitCounter } from '../../../src/application/ports/rate-limit-counter';
import { TEST_EPOCH } from '../../support/mutable-clock';

/** The counters as PasswordAttempts uses them: each hit (a write on a store) noted. */
const countingCounter = (): RateLimitCounter & { readonly hits: number[] } => {
  const inner = new InMemoryRateLimitCounter();
  const hits: number[] = [];
  return {
    hits,
    hit: (subject, windowMs, now, amount) => {
      hits.push(amount ?? 1);
      return inner.hit(subject, windowMs, now, amount);
    },
    peek: (subject, windowMs, now) => inner.peek(subject, windowMs, now),
  };
};

describe('PasswordAttempts', () => {
  const now = new Date(TEST_EPOCH);
  const limits = { perPair: 2, perAddress: 50, perAccount: 100, windowMs: 60_000 };
  const wrong = async () => E.left({ _tag: 'InvalidCredentials' as const });

  it('refuses an attempt whose window is already full with reads alone: a flood past the limit writes nothing', async () => {
    const counter = countingCounter();
    const attempts = new PasswordAttempts(counter, new RandomOpaqueSecrets(), limits);
    for (let i = 0; i < 2; i++)
      expect(await attempts.guard('a@example.com', '10.0.0.1', now, wrong)).to.deep.equal(E.left({ _tag: 'InvalidCredentials' }));
    const written = counter.hits.length;
    expect(written, 'three counters a failure').to.equal(6);
    let checked = 0;
    for (let i = 0; i < 5; i++) {
      const refused = await attempts.guard('a@example.com', '10.0.0.1', now, async () => {
        checked++;
        return wrong();
      });
      expect(refused).to.deep.equal(E.left({ _tag: 'SignInThrottled', retryAfterSeconds: 60 }));
    }
    expect(checked, 'no password checked').to.equal(0);
    expect(counter.hits.length, 'no count written').to.equal(written);
    // Another address is another pair: counted and checked.
    expect(await attempts.guard('a@example.com', '10.0.0.2', now, wrong)).to.deep.equal(E.left({ _tag: 'InvalidCredentials' }));
    expect(counter.hits.length).to.equal(written + 3);
  });
});
