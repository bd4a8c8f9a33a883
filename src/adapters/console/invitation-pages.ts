import * as E from 'fp-ts/Either';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../domain/account';
import { accountMessage } from './auth-pages';
import { field, param, redirect, show, type ConsoleRouter } from './console-kit';
import { html } from './html';
import { bare, problem } from './layout';

/** The page an invitation link opens, and its form (DECISIONS D17). */
export const invitationPages = (r: ConsoleRouter): void => {
  const { useCases } = r.deps;

  const invitationForm = (token: string, message?: string) =>
    bare(
      'Join a dashboard',
      html`${problem(message)}
        <p>
          Choose a password to accept the invitation (${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters). If you already have an
          account, your password stays as it is.
        </p>
        <form class="stack" method="post" action="/console/invitations/accept">
          <input type="hidden" name="token" value="${token}" />
          <div>
            <label for="password">Password</label
            ><input
              id="password"
              name="password"
              type="password"
              autocomplete="new-password"
              minlength="${PASSWORD_MIN_LENGTH}"
              maxlength="${PASSWORD_MAX_LENGTH}"
            />
          </div>
          <div><button type="submit">Accept the invitation</button></div>
        </form>`,
    );
  r.open('get', '/console/invitations/:token', async (ctx) => show(invitationForm(param(ctx, 'token').slice(0, 100))));
  r.open('post', '/console/invitations/accept', async (ctx, form) => {
    const token = field(form, 'token');
    const accepted = await useCases.acceptInvitation.execute(token, form.get('password') ?? '');
    if (E.isLeft(accepted)) return show(invitationForm(token, accountMessage(accepted.left)), 400);
    r.startSession(ctx, accepted.right.sessionId);
    return redirect('/console/overview');
  });
};
