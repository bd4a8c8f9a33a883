import * as E from 'fp-ts/Either';
import type { AccountError } from '../../../application/accounts/account-errors';
import { MAX_EMAIL_LENGTH, ROLES, type Role } from '../../../domain/account';
import { ConsoleRefusal, redirect, show } from '../kit/answers';
import type { ConsoleFeature } from '../kit/feature';
import { input, select } from '../kit/fields';
import { field, param } from '../kit/router';
import { dateTime } from '../kit/format';
import { html, type Fragment } from '../kit/html';
import { csrfField, notice, page, postButton, problem, type Viewer } from '../kit/layout';
import { secretBlock } from '../kit/shown-once';
import { table } from '../kit/table';
import { ROLE_WORDS } from '../kit/words';

const NOTICES: Readonly<Record<string, string>> = {
  'member-removed': 'The member was removed: this dashboard is closed to them from now on.',
  'invitation-revoked': 'The invitation was revoked: its link no longer works.',
};

const refusalOf = (error: AccountError): { readonly status: number; readonly message: string } => {
  switch (error._tag) {
    case 'InvalidEmail':
      return { status: 400, message: 'That is not an email address.' };
    case 'MemberNotFound':
      return { status: 404, message: 'There is no such member in this dashboard.' };
    case 'InvitationNotFound':
      return { status: 404, message: 'There is no such pending invitation in this dashboard.' };
    case 'LastOwner':
      return { status: 409, message: 'The last owner of a dashboard cannot be removed: invite another owner first.' };
    case 'RoleRequired':
      return { status: 403, message: 'Only owners can do this.' };
    default:
      return { status: 400, message: 'That did not work.' };
  }
};

/**
 * The Members page of a dashboard's owners (decisions 0017, 0023): the members, each with a button to
 * remove them but the last owner; the pending invitations, each with a button to revoke it; a form to
 * invite someone. Every change is a POST answered with a redirect back here and a notice.
 */
export const membersFeature: ConsoleFeature = {
  menu: { path: '/console/members', label: 'Members', access: 'owner' },
  register: (r) => {
    const { useCases, publicBaseUrl } = r.deps;

    const membersPage = async (viewer: Viewer, top: Fragment = '') => {
      const owner = { ownerId: viewer.user.id };
      const [members, invitations] = await Promise.all([
        useCases.listMembers.execute(viewer.user.id, viewer.dashboard.id),
        useCases.listInvitations.execute(owner, viewer.dashboard.id),
      ]);
      if (E.isLeft(members) || E.isLeft(invitations)) throw new ConsoleRefusal(403, 'Only owners can see the members.');
      const zone = viewer.dashboard.timezone;
      const owners = members.right.filter(({ membership }) => membership.role === 'owner').length;
      return page(
        viewer,
        '/console/members',
        'Members',
        html`${top}
          ${table({
            label: 'Members',
            rows: members.right,
            rowData: ({ user }) => ({ 'data-member': user.id }),
            columns: [
              { header: 'Email', cell: ({ user }) => user.email },
              { header: 'Role', cell: ({ membership }) => membership.role },
              { header: 'Since', cell: ({ membership }) => dateTime(membership.createdAt, zone) },
              {
                header: 'Access',
                cell: ({ user, membership }) =>
                  membership.role === 'owner' && owners === 1
                    ? html`<span class="muted">the last owner</span>`
                    : postButton(viewer, `/console/members/${user.id}/remove`, 'Remove', 'danger', `Remove ${user.email}`),
              },
            ],
          })}
          <h2>Pending invitations</h2>
          ${table({
            label: 'Invitations',
            rows: invitations.right,
            empty: html`<p>No pending invitations.</p>`,
            rowData: (invitation) => ({ 'data-invitation': invitation.id }),
            columns: [
              { header: 'Email', cell: (invitation) => invitation.email },
              { header: 'Role', cell: (invitation) => invitation.role },
              { header: 'Invited', cell: (invitation) => dateTime(invitation.createdAt, zone) },
              { header: 'Expires', cell: (invitation) => dateTime(invitation.expiresAt, zone) },
              {
                header: 'Link',
                cell: (invitation) =>
                  postButton(
                    viewer,
                    `/console/members/invitations/${invitation.id}/revoke`,
                    'Revoke',
                    'danger',
                    `Revoke the invitation of ${invitation.email}`,
                  ),
              },
            ],
          })}
          <h2>Invite someone</h2>
          <form class="stack" method="post" action="/console/members">
            ${csrfField(viewer)} ${input('email', 'Email', { type: 'email', required: true, maxlength: MAX_EMAIL_LENGTH })}
            ${select('role', 'Role', ROLES, 'analyst')}
            <div><button type="submit">Create the invitation link</button></div>
          </form>`,
      );
    };
    const refused = async (viewer: Viewer, error: AccountError) => {
      const { status, message } = refusalOf(error);
      return show(await membersPage(viewer, problem(message)), status);
    };

    r.get('/console/members', 'owner', async ({ viewer, query }) =>
      show(await membersPage(viewer, [r.flashes.take(viewer), notice(NOTICES[query.get('notice') ?? ''])])),
    );
    r.post('/console/members', 'owner', async ({ viewer, form }) => {
      const role = (ROLES as readonly string[]).includes(field(form, 'role')) ? (field(form, 'role') as Role) : 'analyst';
      const invited = await useCases.inviteMember.execute({ ownerId: viewer.user.id }, viewer.dashboard.id, field(form, 'email'), role);
      if (E.isLeft(invited)) return refused(viewer, invited.left);
      r.flashes.put(
        viewer,
        secretBlock(
          `The invitation of ${invited.right.invitation.email} as ${ROLE_WORDS[role].toLowerCase()}, valid 7 days.`,
          `${publicBaseUrl()}/console/invitations/${invited.right.token}`,
        ),
      );
      return redirect('/console/members');
    });
    r.post('/console/members/:userId/remove', 'owner', async ({ ctx, viewer }) => {
      const removed = await useCases.removeMember.execute({ ownerId: viewer.user.id }, viewer.dashboard.id, {
        userId: param(ctx, 'userId'),
      });
      if (E.isLeft(removed)) return refused(viewer, removed.left);
      // An owner who left this dashboard is shown another of theirs, if any; else the sign-in page.
      return redirect(removed.right.user.id === viewer.user.id ? '/console/overview' : '/console/members?notice=member-removed');
    });
    r.post('/console/members/invitations/:id/revoke', 'owner', async ({ ctx, viewer }) => {
      const revoked = await useCases.revokeInvitation.execute({ ownerId: viewer.user.id }, param(ctx, 'id'));
      if (E.isLeft(revoked)) return refused(viewer, revoked.left);
      return redirect('/console/members?notice=invitation-revoked');
    });
  },
};
