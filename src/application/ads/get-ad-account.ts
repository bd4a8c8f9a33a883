import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import type { AdAccount } from '../../domain/ad-account';
import type { AdAccountRepository } from '../ports/ad-account-repository';
import { adAccountNotFound, type AdAccountNotFound } from '../shared/errors';

export class GetAdAccount {
  constructor(private readonly accounts: AdAccountRepository) {}

  async execute(dashboardId: string, id: string): Promise<E.Either<AdAccountNotFound, AdAccount>> {
    const found = await this.accounts.find(dashboardId, id);
    return O.isNone(found) ? E.left(adAccountNotFound(id)) : E.right(found.value);
  }
}
