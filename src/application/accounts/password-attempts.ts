import * as E from 'fp-ts/Either';
import type { OpaqueSecrets } from '../ports/password-hasher';
import type { RateLimitCounter, WindowCount } from '../ports/rate-limit-counter';
import type { AccountError } from './account-errors';

/**
 * Wrong passwords allowed per window (decision 0023): for one account from one address, from one
 * address whatever the accounts, and for one account from everywhere. The last is high, so that
 * nobody can cheaply lock another person out; the first is what stops a guesser.
 */
export interface SignInLimits {
  readonly perPair: number;
  readonly perAddress: number;
  readonly perAccount: number;
  readonly windowMs: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = { perPair: 10, perAddress: 50, perAccount: 100, windowMs: 15 * 60_000 };

/**
 * Counts wrong passwords, at sign-in and on a password change alike. A check is counted as a failure
 * on its three counters before it runs, so that parallel guesses see one another, and gives the count
 * back unless it did fail: a right password, a throttled or busy attempt, a failure of the store. The
 * counters hold the window's failures and the checks in flight, never someone's successes.
 */
export class PasswordAttempts {
  constructor(
    private readonly counters: RateLimitCounter,
    private readonly secrets: OpaqueSecrets,
    private readonly limits: SignInLimits = DEFAULT_SIGN_IN_LIMITS,
  ) {}

  /**
   * Runs `check` for `account` (a normalised email, known or not) from `address`, unless one of the
   * counters is past its limit; an `InvalidCredentials` answer is the failure that stays counted.
   */
  async guard<A>(
    account: string,
    address: string,
    now: Date,
    check: () => Promise<E.Either<AccountError, A>>,
  ): Promise<E.Either<AccountError, A>> {
    // Digests keep the counters' keys short and free of emails, whatever a form or a header holds.
    const counted: readonly [subject: string, limit: number][] = [
      [`password:pair:${this.secrets.hash(`${account}\n${address}`)}`, this.limits.perPair],
      [`password:address:${this.secrets.hash(address)}`, this.limits.perAddress],
      [`password:account:${this.secrets.hash(account)}`, this.limits.perAccount],
    ];
    const throttled = (over: readonly WindowCount[]): E.Either<AccountError, A> => {
      const seconds = Math.max(...over.map((window) => Math.ceil((window.resetAt.getTime() - now.getTime()) / 1000)));
      return E.left({ _tag: 'SignInThrottled', retryAfterSeconds: Math.max(1, seconds) });
    };
    // A window already full refuses with reads alone: a flood of attempts past the limit writes nothing.
    const seen = await Promise.all(counted.map(([subject]) => this.counters.peek(subject, this.limits.windowMs, now)));
    const full = seen.filter((window, i) => window.count >= counted[i][1]);
    if (full.length > 0) return throttled(full);
    // The same `now` each time: a count given back goes to the window it was taken from.
    const count = (amount: number) =>
      Promise.all(counted.map(([subject]) => this.counters.hit(subject, this.limits.windowMs, now, amount)));
    const windows = await count(1);
    const over = windows.filter((window, i) => window.count > counted[i][1]);
    if (over.length > 0) {
      await count(-1);
      return throttled(over);
    }
    let failed = false;
    try {
      const answer = await check();
      failed = E.isLeft(answer) && answer.left._tag === 'InvalidCredentials';
      return answer;
    } finally {
      if (!failed) await count(-1);
    }
  }
}
