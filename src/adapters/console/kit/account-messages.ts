import type { Context } from 'koa';
import type { AccountError } from '../../../application/accounts/account-errors';

/** What an account form says when it is refused (sign-in, password change, invitation). */
export const accountMessage = (error: AccountError): string => {
  switch (error._tag) {
    case 'InvalidCredentials':
      return 'The email or the password is wrong.';
    case 'SignInThrottled':
      return `Too many attempts. Try again in ${Math.ceil(error.retryAfterSeconds / 60)} minutes.`;
    case 'PasswordHashingBusy':
      return `Too many passwords are being checked right now. Try again in ${error.retryAfterSeconds} seconds.`;
    case 'PasswordRejected':
      return `The new password ${error.reason}.`;
    case 'InvitationInvalid':
      return error.reason === 'expired'
        ? 'This invitation has expired: ask for a new one.'
        : error.reason === 'accepted'
          ? 'This invitation was already used: sign in instead.'
          : 'This invitation link is not valid.';
    default:
      return 'That did not work.';
  }
};

/** Sets `Retry-After` on the answer to a throttled or busy account form. */
export const retryAfter = (ctx: Context, error: AccountError): void => {
  if (error._tag === 'SignInThrottled' || error._tag === 'PasswordHashingBusy') ctx.set('Retry-After', String(error.retryAfterSeconds));
};

/** The status of a refused account form, `otherwise` unless it is throttled (429) or busy (503), with their Retry-After. */
export const refusal = (ctx: Context, error: AccountError, otherwise: number): number => {
  retryAfter(ctx, error);
  return error._tag === 'SignInThrottled' ? 429 : error._tag === 'PasswordHashingBusy' ? 503 : otherwise;
};
