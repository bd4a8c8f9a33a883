import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { normalizeEmail, SESSION_ABSOLUTE_MS, type Session, type User } from '../../domain/account';
import type { AccountStores } from '../ports/account-repositories';
import type { Clock } from '../ports/clock';
import type { OpaqueSecrets, PasswordHasher } from '../ports/password-hasher';
import { invalidCredentials, type AccountError } from './account-errors';
import type { PasswordAttempts } from './password-attempts';

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
    private readonly attempts: PasswordAttempts,
    private readonly clock: Clock,
  ) {}

  /**
   * Counted by `attempts` whether the email exists or not, and throttled before any hashing. An
   * unknown email costs a hash like a wrong password, and both get the same answer.
   */
  async execute(email: string, password: string, address: string): Promise<E.Either<AccountError, OpenedSession>> {
    const now = this.clock.now();
    const normalized = normalizeEmail(email);
    return this.attempts.guard(normalized, address, now, async () => {
      const user = await this.accounts.users.findByEmail(normalized);
      if (O.isNone(user)) {
        await this.hasher.verifyNothing(password, address);
        return E.left(invalidCredentials);
      }
      if (!(await this.hasher.verify(password, user.value.passwordHash, address))) return E.left(invalidCredentials);
      return E.right(await openSession(this.accounts, this.secrets, user.value, now));
    });
  }
}
