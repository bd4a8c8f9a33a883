import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import type { Invitation } from '../../domain/account';
import type { AccountStores } from '../ports/account-repositories';
import { refusalOf, type AccountActor } from './account-actor';
import type { AccountError } from './account-errors';

/**
 * Revokes an invitation not yet accepted (decision 0023): its link then answers as an unknown one.
 * An invitation of a dashboard the actor does not own is not found, so its id tells them nothing.
 */
export class RevokeInvitation {
  constructor(private readonly accounts: AccountStores) {}

  async execute(actor: AccountActor, invitationId: string): Promise<E.Either<AccountError, Invitation>> {
    const notFound = E.left<AccountError>({ _tag: 'InvitationNotFound', invitationId });
    const found = await this.accounts.invitations.findById(invitationId);
    if (O.isNone(found) || (await refusalOf(this.accounts, actor, found.value.dashboardId)) !== undefined) return notFound;
    // False when it was accepted, before or while we looked: then it is no longer pending.
    return (await this.accounts.invitations.revoke(invitationId)) ? E.right(found.value) : notFound;
  }
}
