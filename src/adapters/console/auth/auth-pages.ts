import * as E from 'fp-ts/Either';
import type { Context } from 'koa';
import type { AccountError } from '../../../application/accounts/account-errors';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../domain/account';
import { field, redirect, show, type ConsoleRouter } from '../kit/router';
import { html } from '../kit/html';
import { bare, csrfField, notice, page, problem } from '../kit/layout';
import { clientAddress, safeNext } from '../kit/security';

const signInForm = (next: string, message?: string) =>
  bare(
    'Sign in',
    html`${problem(message)}
      <form class="stack" method="post" action="/console/sign-in">
        <input type="hidden" name="next" value="${next}" />
        <div>
          <label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required maxlength="254" />
        </div>
        <div>
          <label for="password">Password</label
          ><input
            id="password"
            name="password"
            type="password"
            autocomplete="current-password"
            required
            maxlength="${PASSWORD_MAX_LENGTH}"
          />
        </div>
        <div><button type="submit">Sign in</button></div>
      </form>`,
  );

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
const refusal = (ctx: Context, error: AccountError, otherwise: number): number => {
  retryAfter(ctx, error);
  return error._tag === 'SignInThrottled' ? 429 : error._tag === 'PasswordHashingBusy' ? 503 : otherwise;
};

export const authPages = (r: ConsoleRouter): void => {
  const { useCases } = r.deps;

  r.open('get', '/console', async () => redirect('/console/overview'));
  r.open('get', '/console/sign-in', async (ctx) => show(signInForm(safeNext(new URLSearchParams(ctx.querystring).get('next')))));
  r.open('post', '/console/sign-in', async (ctx, form) => {
    const next = safeNext(form.get('next'));
    const opened = await useCases.signIn.execute(field(form, 'email'), form.get('password') ?? '', clientAddress(ctx));
    if (E.isLeft(opened)) return show(signInForm(next, accountMessage(opened.left)), refusal(ctx, opened.left, 401));
    r.startSession(ctx, opened.right.sessionId);
    return redirect(next);
  });

  r.post('/console/sign-out', 'member', async ({ ctx }) => {
    const sessionId = r.sessionOf(ctx);
    if (sessionId !== undefined) await useCases.signOut.execute(sessionId);
    r.endSession(ctx);
    return redirect('/console/sign-in');
  });

  r.post('/console/dashboard', 'member', async ({ ctx, viewer, form }) => {
    const chosen = field(form, 'dashboardId');
    if (viewer.memberships.some((m) => m.dashboardId === chosen)) r.chooseDashboard(ctx, chosen);
    return redirect('/console/overview');
  });

  const passwordPage = (viewer: Parameters<typeof csrfField>[0], message?: string, done?: string) =>
    page(
      viewer,
      '/console/password',
      'Change your password',
      html`${problem(message)}${notice(done)}
        <p>Every other session of yours ends when the password changes.</p>
        <form class="stack" method="post" action="/console/password">
          ${csrfField(viewer)}
          <input type="text" name="username" autocomplete="username" value="${viewer.user.email}" hidden />
          <div>
            <label for="current">Current password</label
            ><input id="current" name="current" type="password" autocomplete="current-password" required />
          </div>
          <div>
            <label for="next">New password</label
            ><input
              id="next"
              name="next"
              type="password"
              autocomplete="new-password"
              minlength="${PASSWORD_MIN_LENGTH}"
              maxlength="${PASSWORD_MAX_LENGTH}"
              required
            />
          </div>
          <div><button type="submit">Change the password</button></div>
        </form>`,
    );
  r.get('/console/password', 'member', async ({ viewer }) => show(passwordPage(viewer)));
  r.post('/console/password', 'member', async ({ ctx, viewer, form }) => {
    const changed = await useCases.changePassword.execute(
      viewer.user.id,
      form.get('current') ?? '',
      form.get('next') ?? '',
      clientAddress(ctx),
    );
    if (E.isLeft(changed)) return show(passwordPage(viewer, accountMessage(changed.left)), refusal(ctx, changed.left, 400));
    r.startSession(ctx, changed.right.sessionId);
    return redirect('/console/overview?notice=password');
  });
};
