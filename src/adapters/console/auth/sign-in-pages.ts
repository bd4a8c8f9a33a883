import * as E from 'fp-ts/Either';
import { MAX_EMAIL_LENGTH } from '../../../domain/account';
import { accountMessage, pauseRefusal, refusal } from '../kit/account-messages';
import { redirect, show } from '../kit/answers';
import type { ConsoleFeature } from '../kit/feature';
import { input, passwordInput } from '../kit/fields';
import { html } from '../kit/html';
import { bare, problem } from '../kit/layout';
import { field } from '../kit/router';
import { clientAddress, safeNext } from '../kit/security';

const signInForm = (next: string, message?: string) =>
  bare(
    'Sign in',
    html`${problem(message)}
      <form class="stack" method="post" action="/console/sign-in">
        <input type="hidden" name="next" value="${next}" />
        ${input('email', 'Email', { type: 'email', autocomplete: 'username', required: true, maxlength: MAX_EMAIL_LENGTH })}
        ${passwordInput('password', 'Password', 'current-password')}
        <div><button type="submit">Sign in</button></div>
      </form>`,
  );

/** Signing in and out, and choosing among one's dashboards (decision 0017). */
export const signInFeature: ConsoleFeature = {
  register: (r) => {
    const { useCases } = r.deps;

    r.open('get', '/console', async () => redirect('/console/overview'));
    r.open('get', '/console/sign-in', async (ctx) => show(signInForm(safeNext(new URLSearchParams(ctx.querystring).get('next')))));
    r.open('post', '/console/sign-in', async (ctx, form) => {
      const next = safeNext(form.get('next'));
      const opened = await useCases.signIn.execute(field(form, 'email'), form.get('password') ?? '', clientAddress(ctx));
      if (E.isLeft(opened)) {
        await pauseRefusal(opened.left);
        return show(signInForm(next, accountMessage(opened.left)), refusal(ctx, opened.left, 401));
      }
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
  },
};
