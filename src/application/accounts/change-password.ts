import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { passwordProblem } from '../../domain/account';
import type { AccountStores } from '../ports/account-repositories';
import type { Clock } from '../ports/clock';
import type { OpaqueSecrets, PasswordHasher } from '../ports/password-hasher';
import { invalidCredentials, type AccountError } from './account-errors';
import type { PasswordAttempts } from './password-attempts';
import { openSession, type OpenedSession } from './sign-in';

export class ChangePassword {
  constructor(
    private readonly accounts: AccountStores,
    private readonly hasher: PasswordHasher,
    private readonly secrets: OpaqueSecrets,
    private readonly attempts: PasswordAttempts,
    private readonly clock: Clock,
  ) {}

  /**
   * Needs the current password, whose wrong guesses count with the sign-in's (decision 0023): a
   * session is no licence to guess. Ends every session of the user, this one included, and opens a
   * new one for the caller: whoever held another session is signed out (decision 0017).
   */
  async execute(userId: string, current: string, next: string, address: string): Promise<E.Either<AccountError, OpenedSession>> {
    const user = await this.accounts.users.findById(userId);
    if (O.isNone(user)) return E.left(invalidCredentials);
    const now = this.clock.now();
    return this.attempts.guard(user.value.email, address, now, async () => {
      if (!(await this.hasher.verify(current, user.value.passwordHash, address))) return E.left(invalidCredentials);
      const problem = passwordProblem(next);
      if (problem !== undefined) return E.left({ _tag: 'PasswordRejected', reason: problem });
      await this.accounts.users.setPassword(userId, await this.hasher.hash(next, address), now);
      await this.accounts.sessions.deleteByUser(userId);
      return E.right(await openSession(this.accounts, this.secrets, { ...user.value, passwordChangedAt: now }, now));
    });
  }
}
