import * as E from 'fp-ts/Either';
import { MAX_NAME_LENGTH } from '../../../domain/dashboard';
import { SCOPES, type Scope } from '../../../domain/scope';
import { ConsoleRefusal, redirect, show } from '../kit/answers';
import type { ConsoleFeature } from '../kit/feature';
import { checkboxes, input } from '../kit/fields';
import { dateTime } from '../kit/format';
import { SCOPE_WORDS } from '../kit/words';
import { html, type Fragment } from '../kit/html';
import { csrfField, notice, page, postButton, problem, type Viewer } from '../kit/layout';
import { field, param, type PostRequest } from '../kit/router';
import { secretBlock } from '../kit/shown-once';
import { table } from '../kit/table';

const NOTICES: Readonly<Record<string, string>> = {
  revoked: 'The token was revoked: requests with it are refused from now on.',
};

/** Tokens (decision 0017): created with scopes and an expiry, shown once, revoked. */
export const tokensFeature: ConsoleFeature = {
  menu: { path: '/console/tokens', label: 'Tokens', access: 'owner' },
  register: (r) => {
    const { useCases } = r.deps;

    const tokensPage = async (viewer: Viewer, top: Fragment = '') => {
      const tokens = await useCases.listTokens.execute(viewer.dashboard.id);
      if (E.isLeft(tokens)) throw new ConsoleRefusal(404, 'This dashboard no longer exists.');
      const zone = viewer.dashboard.timezone;
      return page(
        viewer,
        '/console/tokens',
        'Tokens',
        html`${top}
          <h2>Create a token</h2>
          <form class="stack" method="post" action="/console/tokens">
            ${csrfField(viewer)} ${input('name', 'Name', { maxlength: MAX_NAME_LENGTH, required: true })}
            ${checkboxes('scope', 'What the token may do', SCOPES, [], (s) => html`${SCOPE_WORDS[s]} <code class="muted">${s}</code>`)}
            ${input('expiresOn', 'Expires on (optional)', { type: 'date' })}
            <div><button type="submit">Create the token</button></div>
          </form>
          <h2>Tokens</h2>
          ${table({
            label: 'Tokens',
            rows: tokens.right,
            rowData: (t) => ({ 'data-token': t.id }),
            columns: [
              { header: 'Name', cell: (t) => t.name ?? '—' },
              { header: 'Scopes', cell: (t) => t.scopes.join(', ') },
              { header: 'Created', cell: (t) => dateTime(t.createdAt, zone) },
              { header: 'Last used', cell: (t) => (t.lastUsedAt === undefined ? 'never' : dateTime(t.lastUsedAt, zone)) },
              { header: 'Expires', cell: (t) => (t.expiresAt === undefined ? 'never' : dateTime(t.expiresAt, zone)) },
              {
                header: 'State',
                cell: (t) =>
                  t.revokedAt === undefined
                    ? postButton(viewer, `/console/tokens/${t.id}/revoke`, 'Revoke', 'danger', `Revoke the token ${t.name ?? t.id}`)
                    : `revoked ${dateTime(t.revokedAt, zone)}`,
              },
            ],
          })}`,
      );
    };
    r.get('/console/tokens', 'owner', async ({ viewer, query }) =>
      show(await tokensPage(viewer, [r.flashes.take(viewer), notice(NOTICES[query.get('notice') ?? ''])])),
    );
    r.post('/console/tokens', 'owner', async ({ viewer, form }: PostRequest) => {
      const name = field(form, 'name');
      const scopes = form.getAll('scope').filter((s): s is Scope => (SCOPES as readonly string[]).includes(s));
      const expiresOn = field(form, 'expiresOn');
      const problems: string[] = [];
      if (name === '' || [...name].length > MAX_NAME_LENGTH)
        problems.push(`A token needs a name of at most ${MAX_NAME_LENGTH} characters.`);
      if (scopes.length === 0) problems.push('Choose at least one scope.');
      const expiresAt = expiresOn === '' ? undefined : new Date(`${expiresOn}T00:00:00Z`);
      if (expiresAt !== undefined && (Number.isNaN(expiresAt.getTime()) || expiresAt.getTime() <= Date.now()))
        problems.push('The expiry must be a day in the future.');
      if (problems.length > 0) return show(await tokensPage(viewer, problem(problems.join(' '))), 400);
      const issued = await useCases.createToken.execute(viewer.dashboard.id, name, {
        scopes,
        ...(expiresAt === undefined ? {} : { expiresAt }),
      });
      if (E.isLeft(issued)) throw new ConsoleRefusal(404, 'This dashboard no longer exists.');
      r.flashes.put(viewer, secretBlock(`The token “${name}”.`, issued.right.plain));
      return redirect('/console/tokens');
    });
    r.post('/console/tokens/:id/revoke', 'owner', async ({ ctx, viewer }) => {
      const id = param(ctx, 'id');
      const tokens = await useCases.listTokens.execute(viewer.dashboard.id);
      // Only a token of this dashboard: the id alone must not reach another's.
      if (E.isLeft(tokens) || !tokens.right.some((t) => t.id === id))
        throw new ConsoleRefusal(404, 'There is no such token in this dashboard.');
      await useCases.revokeToken.execute(id);
      return redirect('/console/tokens?notice=revoked');
    });
  },
};
