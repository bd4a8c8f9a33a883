import * as E from 'fp-ts/Either';
import type { Context } from 'koa';
import type { ConsoleDeps } from './deps';
import type { MenuEntry } from './feature';
import type { Viewer } from './layout';
import { consoleCookies, csrfTokenOf } from './security';

/**
 * The signed-in viewer of a request, or undefined: the session cookie, its user, the chosen dashboard,
 * and the entries of `menu` their role may open.
 */
export const viewerOf = async (ctx: Context, deps: ConsoleDeps, menu: readonly MenuEntry[]): Promise<Viewer | undefined> => {
  const cookies = consoleCookies(deps.publicBaseUrl());
  const sessionId = ctx.cookies.get(cookies.session);
  if (sessionId === undefined || sessionId.length > 200) return undefined;
  const signedIn = await deps.useCases.authenticateSession.execute(sessionId);
  if (E.isLeft(signedIn)) return undefined;
  const { user, memberships } = signedIn.right;
  const chosen = ctx.cookies.get(cookies.dashboard);
  const membership = memberships.find((m) => m.dashboardId === chosen) ?? memberships[0];
  if (membership === undefined) return undefined;
  const dashboard = await deps.useCases.getDashboard.execute(membership.dashboardId);
  if (E.isLeft(dashboard)) return undefined;
  const role = membership.role;
  return {
    user,
    dashboard: dashboard.right,
    role,
    memberships,
    csrf: csrfTokenOf(sessionId),
    menu: menu.filter((entry) => entry.access === 'member' || role === 'owner'),
  };
};
