import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import type { AdAccountRepository } from '../ports/ad-account-repository';
import type { ConversionPage, ConversionQuery, ConversionRepository } from '../ports/conversion-repository';
import { adAccountNotFound, type AdAccountNotFound } from '../shared/errors';

export class ListConversions {
  constructor(
    private readonly accounts: AdAccountRepository,
    private readonly conversions: ConversionRepository,
  ) {}

  /** One page of what was sent to the account's platform, newest first; another dashboard's account is not found. */
  async execute(dashboardId: string, adAccountId: string, query: ConversionQuery): Promise<E.Either<AdAccountNotFound, ConversionPage>> {
    if (O.isNone(await this.accounts.find(dashboardId, adAccountId))) return E.left(adAccountNotFound(adAccountId));
    return E.right(await this.conversions.list(dashboardId, adAccountId, query));
  }
}
