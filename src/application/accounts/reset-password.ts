import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { normalizeEmail, passwordProblem } from '../../domain/account';
import type { AccountStores } from '../ports/account-repositories';
import type { Clock } from '../ports/clock';
import { OPERATOR_CLIENT, type PasswordHasher } from '../ports/password-hasher';
import type { AccountError } from './account-errors';

/** Sets a user's password from the CLI (no current password) and ends every session of theirs. */
export class ResetPassword {
  constructor(
    private readonly accounts: AccountStores,
    private readonly hasher: PasswordHasher,
    private readonly clock: Clock,
  ) {}

  async execute(email: string, password: string): Promise<E.Either<AccountError, { readonly sessionsEnded: number }>> {
    const user = await this.accounts.users.findByEmail(normalizeEmail(email));
    if (O.isNone(user)) return E.left({ _tag: 'UserNotFound', email });
    const problem = passwordProblem(password);
    if (problem !== undefined) return E.left({ _tag: 'PasswordRejected', reason: problem });
    await this.accounts.users.setPassword(user.value.id, await this.hasher.hash(password, OPERATOR_CLIENT), this.clock.now());
    return E.right({ sessionsEnded: await this.accounts.sessions.deleteByUser(user.value.id) });
  }
}
