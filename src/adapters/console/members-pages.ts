import * as E from 'fp-ts/Either';
import type { AccountError } from '../../application/accounts/account-errors';
import { ROLES, type Role } from '../../domain/account';
import { ConsoleRefusal, field, show, type ConsoleRouter } from './console-kit';
import { dateTime } from './format';
import { html, type Fragment } from './html';
import { csrfField, page, problem, type Viewer } from './layout';
import { secretBlock } from './owner-pages';

/** The Members page of a dashboard's owners. */
export const membersPages = (r: ConsoleRouter): void => {
  const { useCases, publicBaseUrl } = r.deps;

  // Members and invitations (DECISIONS D17).
  const accountError = (error: AccountError): string =>
    error._tag === 'InvalidEmail'
      ? 'That is not an email address.'
      : error._tag === 'RoleRequired'
        ? 'Only owners can do this.'
        : 'That did not work.';
  const membersPage = async (viewer: Viewer, top: Fragment = '') => {
    const members = await useCases.listMembers.execute(viewer.user.id, viewer.dashboard.id);
    if (E.isLeft(members)) throw new ConsoleRefusal(403, 'Only owners can see the members.');
    return page(
      viewer,
      '/console/members',
      'Members',
      html`${top}
        <div class="scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Since</th>
              </tr>
            </thead>
            <tbody>
              ${members.right.map(
                ({ user, membership }) =>
                  html`<tr>
                    <td>${user.email}</td>
                    <td>${membership.role}</td>
                    <td>${dateTime(membership.createdAt, viewer.dashboard.timezone)}</td>
                  </tr>`,
              )}
            </tbody>
          </table>
        </div>
        <h2>Invite someone</h2>
        <form class="stack" method="post" action="/console/members">
          ${csrfField(viewer)}
          <div><label for="email">Email</label><input id="email" name="email" type="email" required maxlength="254" /></div>
          <div>
            <label for="role">Role</label
            ><select id="role" name="role">
              ${ROLES.map((role) => html`<option value="${role}" ${role === 'analyst' ? html` selected` : ''}>${role}</option>`)}
            </select>
          </div>
          <div><button type="submit">Create the invitation link</button></div>
        </form>`,
    );
  };
  r.get('/console/members', 'owner', async ({ viewer }) => show(await membersPage(viewer)));
  r.post('/console/members', 'owner', async ({ viewer, form }) => {
    const role = (ROLES as readonly string[]).includes(field(form, 'role')) ? (field(form, 'role') as Role) : 'analyst';
    const invited = await useCases.inviteMember.execute(viewer.user.id, viewer.dashboard.id, field(form, 'email'), role);
    if (E.isLeft(invited)) return show(await membersPage(viewer, problem(accountError(invited.left))), 400);
    return show(
      await membersPage(
        viewer,
        secretBlock(
          `The invitation of ${invited.right.invitation.email} as ${role}, valid 7 days.`,
          `${publicBaseUrl()}/console/invitations/${invited.right.token}`,
        ),
      ),
    );
  });
};
