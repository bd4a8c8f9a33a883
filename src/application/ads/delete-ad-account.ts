import * as E from 'fp-ts/Either';
import type { AdAccountRepository } from '../ports/ad-account-repository';
import type { ConversionRepository } from '../ports/conversion-repository';
import { adAccountNotFound, type AdAccountNotFound } from '../shared/errors';

export class DeleteAdAccount {
  constructor(
    private readonly accounts: AdAccountRepository,
    private readonly conversions: ConversionRepository,
  ) {}

  /**
   * Deletes the account and its credentials, and its conversions with their log (those still pending
   * are never sent: a sender that finds the account gone drops them). Its spend rows stay (they are
   * the days it spent); the same platform account connected again takes them over.
   */
  async execute(dashboardId: string, id: string): Promise<E.Either<AdAccountNotFound, void>> {
    if (!(await this.accounts.delete(dashboardId, id))) return E.left(adAccountNotFound(id));
    await this.conversions.deleteOfAccount(dashboardId, id);
    return E.right(undefined);
  }
}
