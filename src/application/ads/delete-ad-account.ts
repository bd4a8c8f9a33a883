import * as E from 'fp-ts/Either';
import type { AdAccountRepository } from '../ports/ad-account-repository';
import { adAccountNotFound, type AdAccountNotFound } from '../shared/errors';

export class DeleteAdAccount {
  constructor(private readonly accounts: AdAccountRepository) {}

  /**
   * Deletes the account and its credentials. Its spend rows stay (they are the days it spent); the
   * same platform account connected again takes them over.
   */
  async execute(dashboardId: string, id: string): Promise<E.Either<AdAccountNotFound, void>> {
    return (await this.accounts.delete(dashboardId, id)) ? E.right(undefined) : E.left(adAccountNotFound(id));
  }
}
