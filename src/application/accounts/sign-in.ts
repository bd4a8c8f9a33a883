import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { normalizeEmail, SESSION_ABSOLUTE_MS, type Session, type User } from '../../domain/account';
import type { AccountStores } from '../ports/account-repositories';
import type { Clock } from '../ports/clock';
import type { OpaqueSecrets, PasswordHasher } from '../ports/password-hasher';
import type { RateLimitCounter } from '../ports/rate-limit-counter';
import { invalidCredentials, type AccountError } from './account-errors';

/** Sign-in attempts allowed per window, per account and per address (DECISIONS D17). */
export interface SignInLimits {
  readonly perAccount: number;
  readonly perAddress: number;
  readonly windowMs: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = { perAccount: 10, perAddress: 50, windowMs: 15 * 60_000 };

/** A session just opened: the only moment its plain id exists outside the cookie. */
export interface OpenedSession {
  readonly user: User;
  readonly session: Session;
  readonly sessionId: string;
}

/** Opens a session for a user who gives the right password: a new id every time. */
export const openSession = async (accounts: AccountStores, secrets: OpaqueSecrets, user: User, now: Date): Promise<OpenedSession> => {
  const sessionId = secrets.generate();
  const session: Session = {
    idHash: secrets.hash(sessionId),
    userId: user.id,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_MS),
  };
  await accounts.sessions.insert(session);
  return { user, session, sessionId };
};

export class SignIn {
  constructor(
    private readonly accounts: AccountStores,
    private readonly hasher: PasswordHasher,
    private readonly secrets: OpaqueSecrets,
    private readonly attempts: RateLimitCounter,
    private readonly clock: Clock,
    private readonly limits: SignInLimits = DEFAULT_SIGN_IN_LIMITS,
  ) {}

  /**
   * Every attempt counts against the account's and the address's allowance before anything is
   * checked, so a guesser is slowed whether the email exists or not. An unknown email costs a hash
   * like a wrong password, and both get the same answer.
   */
  async execute(email: string, password: string, address: string): Promise<E.Either<AccountError, OpenedSession>> {
    const now = this.clock.now();
    const normalized = normalizeEmail(email);
    const [account, from] = await Promise.all([
      this.attempts.hit(`sign-in:account:${normalized}`, this.limits.windowMs, now),
      this.attempts.hit(`sign-in:address:${address}`, this.limits.windowMs, now),
    ]);
    const over = [account.count > this.limits.perAccount ? account : undefined, from.count > this.limits.perAddress ? from : undefined]
      .filter((window) => window !== undefined)
      .map((window) => Math.max(1, Math.ceil((window.resetAt.getTime() - now.getTime()) / 1000)));
    if (over.length > 0) return E.left({ _tag: 'SignInThrottled', retryAfterSeconds: Math.max(...over) });
    const user = await this.accounts.users.findByEmail(normalized);
    if (O.isNone(user)) {
      await this.hasher.verifyNothing(password);
      return E.left(invalidCredentials);
    }
    if (!(await this.hasher.verify(password, user.value.passwordHash))) return E.left(invalidCredentials);
    return E.right(await openSession(this.accounts, this.secrets, user.value, now));
  }
}
