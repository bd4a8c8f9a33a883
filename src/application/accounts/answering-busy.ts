import * as E from 'fp-ts/Either';
import { PasswordHashingBusy } from '../ports/password-hasher';
import type { AccountError } from './account-errors';

/** A use case that answers its refusals as AccountErrors. */
interface AccountUseCase<Args extends unknown[], A> {
  execute(...args: Args): Promise<E.Either<AccountError, A>>;
}

/**
 * The use case with the hasher's refusal (a full queue, decision 0023) answered as the
 * `PasswordHashingBusy` AccountError rather than thrown: the one place it becomes an outcome, for
 * every use case that hashes or checks a password.
 */
export class AnsweringBusy<Args extends unknown[], A> implements AccountUseCase<Args, A> {
  constructor(private readonly useCase: AccountUseCase<Args, A>) {}

  async execute(...args: Args): Promise<E.Either<AccountError, A>> {
    try {
      return await this.useCase.execute(...args);
    } catch (err) {
      if (err instanceof PasswordHashingBusy) return E.left({ _tag: 'PasswordHashingBusy', retryAfterSeconds: err.retryAfterSeconds });
      throw err;
    }
  }
}
