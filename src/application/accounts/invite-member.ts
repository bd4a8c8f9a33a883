import * as E from 'fp-ts/Either';
import { INVITATION_TTL_MS, isEmail, normalizeEmail, type Invitation, type Role } from '../../domain/account';
import type { AccountStores } from '../ports/account-repositories';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import { OPERATOR_CLIENT, type OpaqueSecrets } from '../ports/password-hasher';
import { refusalOf, type AccountActor } from './account-actor';
import type { AccountError } from './account-errors';

export interface IssuedInvitation {
  readonly invitation: Invitation;
  /** The token of the invitation link: shown once, stored as its hash. */
  readonly token: string;
}

/**
 * An owner (or the operator, at the CLI) invites someone into a dashboard with a role (decision 0017):
 * a one-time link valid 7 days. The only way into a dashboard for an account that exists: its holder
 * accepts the link signed in as it or with its password (AcceptInvitation).
 */
export class InviteMember {
  constructor(
    private readonly accounts: AccountStores,
    private readonly secrets: OpaqueSecrets,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(actor: AccountActor, dashboardId: string, email: string, role: Role): Promise<E.Either<AccountError, IssuedInvitation>> {
    const refused = await refusalOf(this.accounts, actor, dashboardId);
    if (refused !== undefined) return E.left(refused);
    const normalized = normalizeEmail(email);
    if (!isEmail(normalized)) return E.left({ _tag: 'InvalidEmail', email });
    const now = this.clock.now();
    const token = this.secrets.generate();
    const invitation: Invitation = {
      id: this.ids.next('inv'),
      dashboardId,
      email: normalized,
      role,
      tokenHash: this.secrets.hash(token),
      invitedBy: actor === 'operator' ? OPERATOR_CLIENT : actor.ownerId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
    };
    await this.accounts.invitations.insert(invitation);
    return E.right({ invitation, token });
  }
}
