import type { Dashboard } from '../../../domain/dashboard';
import type { Membership, Role, User } from '../../../domain/account';
import { ICON_ASSET, SCRIPT, STYLESHEET } from './assets';
import type { MenuEntry } from './feature';
import { html, type Fragment, type Html } from './html';

export interface Viewer {
  readonly user: User;
  readonly dashboard: Dashboard;
  readonly role: Role;
  readonly memberships: readonly Membership[];
  readonly csrf: string;
  /** The menu's entries this viewer may open. */
  readonly menu: readonly MenuEntry[];
}

/** The hidden CSRF field every form of a signed-in page carries. */
export const csrfField = (viewer: Viewer): Html => html`<input type="hidden" name="csrf" value="${viewer.csrf}" />`;

/**
 * A form that is one button, posting to `action` with the viewer's CSRF field; `kind` is the button's
 * look, and `label` names it for a screen reader where its text does not say what it acts on.
 */
export const postButton = (viewer: Viewer, action: string, text: Fragment, kind: 'secondary' | 'danger', label?: string): Html =>
  html`<form class="inline" method="post" action="${action}">
    ${csrfField(viewer)}<button type="submit" class="${kind}" ${label === undefined ? '' : html` aria-label="${label}"`}>${text}</button>
  </form>`;

const document = (title: string, body: Fragment): Html =>
  html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · Orders console</title>
        <link rel="stylesheet" href="${STYLESHEET.path}" />
        <link rel="icon" href="${ICON_ASSET.path}" type="image/svg+xml" />
        <script src="${SCRIPT.path}" defer></script>
      </head>
      <body>
        ${body}
      </body>
    </html>`;

/** A page of the signed-in console: the menu of the viewer's role, the dashboard switcher, the content. */
export const page = (viewer: Viewer, current: string, title: string, content: Fragment): Html =>
  document(
    title,
    html`<a class="skip" href="#content">Skip to content</a>
      <header class="top">
        <span class="brand">${viewer.dashboard.name}</span>
        <nav class="main" aria-label="Console">
          <ul>
            ${viewer.menu.map(
              (entry) =>
                html`<li><a href="${entry.path}" ${entry.path === current ? html` aria-current="page"` : ''}>${entry.label}</a></li>`,
            )}
          </ul>
        </nav>
        ${
          viewer.memberships.length > 1
            ? html`<form class="inline" method="post" action="/console/dashboard">
                ${csrfField(viewer)}
                <label for="switch-dashboard" class="muted">Dashboard</label>
                <select id="switch-dashboard" name="dashboardId">
                  ${viewer.memberships.map(
                    (m) =>
                      html`<option value="${m.dashboardId}" ${m.dashboardId === viewer.dashboard.id ? html` selected` : ''}>
                        ${m.dashboardId}
                      </option>`,
                  )}
                </select>
                <button class="secondary" type="submit">Switch</button>
              </form>`
            : ''
        }
        <span class="muted">${viewer.user.email} (${viewer.role})</span>
        <a href="/console/password">Password</a>
        ${postButton(viewer, '/console/sign-out', 'Sign out', 'secondary')}
      </header>
      <main id="content">
        <h1>${title}</h1>
        ${content}
      </main>`,
  );

/** A page without the menu: sign-in, invitations, errors before sign-in. */
export const bare = (title: string, content: Fragment): Html =>
  document(
    title,
    html`<main id="content">
      <h1>${title}</h1>
      ${content}
    </main>`,
  );

export const notice = (text: string | undefined): Fragment => (text === undefined ? '' : html`<p class="notice" role="status">${text}</p>`);
export const problem = (text: string | undefined): Fragment => (text === undefined ? '' : html`<p class="error" role="alert">${text}</p>`);
