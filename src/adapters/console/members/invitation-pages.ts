import * as E from 'fp-ts/Either';
import type { AccountError } from '../../../application/accounts/account-errors';
import type { InvitationDescription } from '../../../application/accounts/describe-invitation';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../domain/account';
import { accountMessage, pauseRefusal, retryAfter } from '../kit/account-messages';
import { ConsoleRefusal, redirect, show, type Answer } from '../kit/answers';
import type { ConsoleFeature } from '../kit/feature';
import { passwordInput } from '../kit/fields';
import { field, param, type ConsoleRouter } from '../kit/router';
import { html, type Fragment } from '../kit/html';
import { bare, problem } from '../kit/layout';
import { clientAddress } from '../kit/security';

type Visitor = Awaited<ReturnType<ConsoleRouter['signedIn']>>;

const TITLE = 'Join a dashboard';

const message = (error: AccountError, visitor: Visitor): string => {
  switch (error._tag) {
    case 'SignedInAsAnother':
      return `This invitation is for ${error.email}, and you are signed in as ${visitor?.user.email ?? 'another account'}. Sign out first, then open the link again.`;
    case 'EmailTaken':
      return `An account was made for ${error.email} meanwhile: ask for a new invitation.`;
    default:
      return accountMessage(error);
  }
};

/** An invalid link says nothing about the invitation or the email: unknown and revoked answer alike. */
const statusOf = (error: AccountError): number => {
  switch (error._tag) {
    case 'InvitationInvalid':
      return error.reason === 'unknown' ? 404 : 410;
    case 'InvalidCredentials':
      return 401;
    case 'SignedInAsAnother':
      return 403;
    case 'EmailTaken':
      return 409;
    case 'SignInThrottled':
      return 429;
    case 'PasswordHashingBusy':
      return 503;
    default:
      return 400;
  }
};

/**
 * The page of an invitation link (decisions 0017, 0023), in the words of what accepting takes: a new
 * account's password, an existing account's own password (or signing in first), nothing more when
 * signed in as that account, and signing out first when signed in as another.
 */
const invitationPage = (token: string, invitation: InvitationDescription, visitor: Visitor, alert?: string) => {
  const joining = html`to join <strong>${invitation.dashboardName}</strong> as ${invitation.role}`;
  const form = (fields: Fragment, button: string) =>
    html`<form class="stack" method="post" action="/console/invitations/accept">
      <input type="hidden" name="token" value="${token}" />
      ${visitor === undefined ? '' : html`<input type="hidden" name="csrf" value="${visitor.csrf}" />`}
      <input type="text" name="username" autocomplete="username" value="${invitation.email}" hidden />
      ${fields}
      <div><button type="submit">${button}</button></div>
    </form>`;
  switch (invitation.acceptance) {
    case 'newAccount':
      return bare(
        TITLE,
        html`${problem(alert)}
          <p>
            This invitation is for ${invitation.email}, ${joining}. Choose a password for your new account (${PASSWORD_MIN_LENGTH} to
            ${PASSWORD_MAX_LENGTH} characters).
          </p>
          ${form(passwordInput('password', 'New password', 'new-password'), 'Create the account and join')}`,
      );
    case 'password':
      return bare(
        TITLE,
        html`${problem(alert)}
          <p>
            ${invitation.email} already has an account. Enter its password ${joining}, or
            <a href="/console/sign-in?next=${encodeURIComponent(`/console/invitations/${token}`)}">sign in</a> first.
          </p>
          ${form(passwordInput('password', `Password of ${invitation.email}`, 'current-password'), 'Join')}`,
      );
    case 'signedIn':
      return bare(
        TITLE,
        html`${problem(alert)}
          <p>You are signed in as ${invitation.email}. Accept the invitation ${joining}?</p>
          ${form('', 'Join')}`,
      );
    case 'otherAccount':
      return bare(
        TITLE,
        html`${problem(alert ?? message({ _tag: 'SignedInAsAnother', email: invitation.email }, visitor))}
          <form class="inline" method="post" action="/console/sign-out">
            <input type="hidden" name="csrf" value="${visitor?.csrf ?? ''}" /><button type="submit">Sign out</button>
          </form>`,
      );
  }
};

/** The page an invitation link opens, and its form. */
export const invitationsFeature: ConsoleFeature = {
  register: (r) => {
    const { useCases } = r.deps;

    /** The invitation's page as it stands now, with the outcome of a failed acceptance if there was one. */
    const answer = async (token: string, visitor: Visitor, failure?: AccountError): Promise<Answer> => {
      const described = await useCases.describeInvitation.execute(token, visitor?.user.id);
      if (E.isLeft(described)) {
        const error = failure ?? described.left;
        return show(bare(TITLE, problem(message(error, visitor))), statusOf(error));
      }
      return show(
        invitationPage(token, described.right, visitor, failure === undefined ? undefined : message(failure, visitor)),
        failure === undefined ? 200 : statusOf(failure),
      );
    };

    r.open('get', '/console/invitations/:token', async (ctx) => answer(param(ctx, 'token').slice(0, 100), await r.signedIn(ctx)));
    r.open('post', '/console/invitations/accept', async (ctx, form) => {
      const token = field(form, 'token').slice(0, 100);
      const visitor = await r.signedIn(ctx);
      // Accepting while signed in changes that account: like every signed-in form, it carries the CSRF token.
      if (visitor !== undefined && form.get('csrf') !== visitor.csrf)
        throw new ConsoleRefusal(403, 'This form has expired; open the page again and resend it.');
      const accepted = await useCases.acceptInvitation.execute({
        token,
        password: form.get('password') ?? '',
        address: clientAddress(ctx),
        ...(visitor === undefined ? {} : { signedInUserId: visitor.user.id }),
      });
      if (E.isLeft(accepted)) {
        await pauseRefusal(accepted.left);
        retryAfter(ctx, accepted.left);
        return answer(token, visitor, accepted.left);
      }
      if (accepted.right.session !== undefined) r.startSession(ctx, accepted.right.session.sessionId);
      r.chooseDashboard(ctx, accepted.right.dashboardId);
      return redirect('/console/overview');
    });
  },
};
