import type { Role } from '../../domain/account';

/**
 * What the account use cases answer instead of a result (decision 0017). Kept apart from AppError:
 * the JSON API does not answer them; the console (decision 0018) will, each in its own words.
 */
export type AccountError =
  /** Unknown email or wrong password: one answer for both, so it does not tell which emails have accounts. */
  | { readonly _tag: 'InvalidCredentials' }
  /**
   * Too many wrong passwords (at sign-in or on a password change) for this account from this address,
   * from this address, or for this account from everywhere (decision 0023); try again after `retryAfterSeconds`.
   */
  | { readonly _tag: 'SignInThrottled'; readonly retryAfterSeconds: number }
  /** The process hashes as many passwords as it may, and more wait (decision 0023): nothing was checked or changed. */
  | { readonly _tag: 'PasswordHashingBusy'; readonly retryAfterSeconds: number }
  /** No session with this id, or it ended (signed out, idle 12 h, 7 days old, password changed). */
  | { readonly _tag: 'SessionInvalid' }
  /** The link's token names no invitation (or a revoked one), or one that expired or was used. */
  | { readonly _tag: 'InvitationInvalid'; readonly reason: 'unknown' | 'expired' | 'accepted' }
  /** The invitation is for `email`, and the console is signed in as another account: sign out first (decision 0023). */
  | { readonly _tag: 'SignedInAsAnother'; readonly email: string }
  /** No pending invitation with this id in a dashboard the actor manages. */
  | { readonly _tag: 'InvitationNotFound'; readonly invitationId: string }
  /** `member` (the email or user id asked for) is not a member of the dashboard. */
  | { readonly _tag: 'MemberNotFound'; readonly dashboardId: string; readonly member: string }
  /** The dashboard's last owner stays (decision 0023): another owner must be made first. */
  | { readonly _tag: 'LastOwner'; readonly dashboardId: string }
  | { readonly _tag: 'EmailTaken'; readonly email: string }
  | { readonly _tag: 'InvalidEmail'; readonly email: string }
  | { readonly _tag: 'PasswordRejected'; readonly reason: string }
  | { readonly _tag: 'UserNotFound'; readonly email: string }
  | { readonly _tag: 'DashboardNotFound'; readonly dashboardId: string }
  /** The user's role in the dashboard does not allow it (`needed`), or the user is no member. */
  | { readonly _tag: 'RoleRequired'; readonly needed: Role };

export const invalidCredentials: AccountError = { _tag: 'InvalidCredentials' };
export const sessionInvalid: AccountError = { _tag: 'SessionInvalid' };
