import * as E from 'fp-ts/Either';
import { accountMessage, pauseRefusal, refusal } from '../kit/account-messages';
import { redirect, show } from '../kit/answers';
import type { ConsoleFeature } from '../kit/feature';
import { passwordInput } from '../kit/fields';
import { html } from '../kit/html';
import { csrfField, notice, page, problem } from '../kit/layout';
import { clientAddress } from '../kit/security';

/** Changing one's password (decisions 0017, 0023): every other session ends. */
export const passwordFeature: ConsoleFeature = {
  register: (r) => {
    const { useCases } = r.deps;

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
            ${passwordInput('current', 'Current password', 'current-password')} ${passwordInput('next', 'New password', 'new-password')}
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
      if (E.isLeft(changed)) {
        await pauseRefusal(changed.left);
        return show(passwordPage(viewer, accountMessage(changed.left)), refusal(ctx, changed.left, 400));
      }
      r.startSession(ctx, changed.right.sessionId);
      return redirect('/console/overview?notice=password');
    });
  },
};
