import type { AccountStores } from '../ports/account-repositories';
import type { Clock } from '../ports/clock';
import type { DashboardRepository } from '../ports/dashboard-repository';
import type { IdGenerator } from '../ports/id-generator';
import type { OpaqueSecrets, PasswordHasher } from '../ports/password-hasher';
import type { RateLimitCounter } from '../ports/rate-limit-counter';
import { AcceptInvitation } from './accept-invitation';
import { AuthenticateSession } from './authenticate-session';
import { ChangePassword } from './change-password';
import { CreateOwner } from './create-owner';
import { DescribeInvitation } from './describe-invitation';
import { InviteMember } from './invite-member';
import { ListInvitations } from './list-invitations';
import { ListMembers } from './list-members';
import { ListUsers } from './list-users';
import { RemoveMember } from './remove-member';
import { ResetPassword } from './reset-password';
import { RevokeInvitation } from './revoke-invitation';
import { SignIn, type SignInLimits } from './sign-in';
import { SignOut } from './sign-out';

export interface AccountPorts {
  readonly accounts: AccountStores;
  readonly dashboards: DashboardRepository;
  readonly passwords: PasswordHasher;
  readonly opaqueSecrets: OpaqueSecrets;
  readonly rateLimits: RateLimitCounter;
  readonly ids: IdGenerator;
  readonly clock: Clock;
  readonly signInLimits?: SignInLimits;
}

export const accountUseCases = ({
  accounts,
  dashboards,
  passwords,
  opaqueSecrets,
  rateLimits,
  ids,
  clock,
  signInLimits,
}: AccountPorts) => ({
  signIn: new SignIn(accounts, passwords, opaqueSecrets, rateLimits, clock, signInLimits),
  signOut: new SignOut(accounts, opaqueSecrets),
  authenticateSession: new AuthenticateSession(accounts, opaqueSecrets, clock),
  changePassword: new ChangePassword(accounts, passwords, opaqueSecrets, clock),
  createOwner: new CreateOwner(accounts, dashboards, passwords, ids, clock),
  resetPassword: new ResetPassword(accounts, passwords, clock),
  listUsers: new ListUsers(accounts),
  inviteMember: new InviteMember(accounts, opaqueSecrets, ids, clock),
  describeInvitation: new DescribeInvitation(accounts, dashboards, opaqueSecrets, clock),
  // Sign-in keeps no state of its own (its counts are in the store): this one throttles as the other does.
  acceptInvitation: new AcceptInvitation(
    accounts,
    passwords,
    opaqueSecrets,
    ids,
    clock,
    new SignIn(accounts, passwords, opaqueSecrets, rateLimits, clock, signInLimits),
  ),
  listInvitations: new ListInvitations(accounts, clock),
  revokeInvitation: new RevokeInvitation(accounts),
  listMembers: new ListMembers(accounts),
  removeMember: new RemoveMember(accounts),
});

export type AccountUseCases = ReturnType<typeof accountUseCases>;
