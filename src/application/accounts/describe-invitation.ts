import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import type { Role } from '../../domain/account';
import type { AccountStores } from '../ports/account-repositories';
import type { Clock } from '../ports/clock';
import type { DashboardRepository } from '../ports/dashboard-repository';
import type { OpaqueSecrets } from '../ports/password-hasher';
import type { AccountError } from './account-errors';
import { openInvitation, type Acceptance } from './invitation-acceptance';

export interface InvitationDescription {
  readonly email: string;
  readonly role: Role;
  readonly dashboardName: string;
  readonly expiresAt: Date;
  /** What accepting takes: a new password, the account's password, nothing more, or signing out first. */
  readonly acceptance: Acceptance['kind'];
}

/**
 * What the invitation page shows the holder of a link (decision 0023). Only a valid token learns
 * anything, such as whether the invited email has an account: without one it is `InvitationInvalid`.
 */
export class DescribeInvitation {
  constructor(
    private readonly accounts: AccountStores,
    private readonly dashboards: DashboardRepository,
    private readonly secrets: OpaqueSecrets,
    private readonly clock: Clock,
  ) {}

  async execute(token: string, signedInUserId: string | undefined): Promise<E.Either<AccountError, InvitationDescription>> {
    const opened = await openInvitation(this.accounts, this.secrets, token, signedInUserId, this.clock.now());
    if (E.isLeft(opened)) return opened;
    const { invitation, acceptance } = opened.right;
    const dashboard = await this.dashboards.findById(invitation.dashboardId);
    return E.right({
      email: invitation.email,
      role: invitation.role,
      dashboardName: O.isSome(dashboard) ? dashboard.value.name : invitation.dashboardId,
      expiresAt: invitation.expiresAt,
      acceptance: acceptance.kind,
    });
  }
}
