import * as E from 'fp-ts/Either';
import type { Invitation } from '../../domain/account';
import type { AccountStores } from '../ports/account-repositories';
import type { Clock } from '../ports/clock';
import { refusalOf, type AccountActor } from './account-actor';
import type { AccountError } from './account-errors';

/** A dashboard's pending invitations (neither accepted nor expired), newest first, for the ones who may revoke them. */
export class ListInvitations {
  constructor(
    private readonly accounts: AccountStores,
    private readonly clock: Clock,
  ) {}

  async execute(actor: AccountActor, dashboardId: string): Promise<E.Either<AccountError, readonly Invitation[]>> {
    const refused = await refusalOf(this.accounts, actor, dashboardId);
    if (refused !== undefined) return E.left(refused);
    return E.right(await this.accounts.invitations.listPending(dashboardId, this.clock.now()));
  }
}
