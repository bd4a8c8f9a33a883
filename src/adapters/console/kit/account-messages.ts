import { setTimeout as sleep } from 'node:timers/promises';
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

/** A form refused for load, not for what it holds: throttled (429) or busy (503). */
const refusedForLoad = (error: AccountError): error is Extract<AccountError, { _tag: 'SignInThrottled' | 'PasswordHashingBusy' }> =>
  error._tag === 'SignInThrottled' || error._tag === 'PasswordHashingBusy';

/** Sets `Retry-After` on the answer to a throttled or busy account form. */
export const retryAfter = (ctx: Context, error: AccountError): void => {
  if (refusedForLoad(error)) ctx.set('Retry-After', String(error.retryAfterSeconds));
};

/** The status of a refused account form, `otherwise` unless it is throttled (429) or busy (503), with their Retry-After. */
export const refusal = (ctx: Context, error: AccountError, otherwise: number): number => {
  retryAfter(ctx, error);
  return error._tag === 'SignInThrottled' ? 429 : error._tag === 'PasswordHashingBusy' ? 503 : otherwise;
};

/**
 * How long the answer to a throttled or busy account form waits before it goes out. Such a refusal
 * costs the service a fraction of a millisecond, and a client that sends the next attempt as soon as
 * it reads the answer (16 loops of wrong passwords, 40 sign-ins at once) sent a thousand a second and
 * slowed another dashboard's orders 5-7 times; paused, each connection gets at most one refusal a
 * second, and the connection caps bound the rest. A person who typed a wrong password too often
 * waits one second more for a page that asks them to wait minutes.
 */
export const REFUSAL_PAUSE_MS = 1_000;

/** Waits REFUSAL_PAUSE_MS before the answer to a throttled (429) or busy (503) account form; any other answer goes at once. */
export const pauseRefusal = async (error: AccountError): Promise<void> => {
  if (refusedForLoad(error)) await sleep(REFUSAL_PAUSE_MS);
};
