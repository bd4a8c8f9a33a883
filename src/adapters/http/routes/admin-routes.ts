import * as E from 'fp-ts/Either';
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import type { CreateDashboard } from '../../../application/create-dashboard';
import type { CreateToken } from '../../../application/create-token';
import type { ListTokens } from '../../../application/list-tokens';
import type { RevokeToken } from '../../../application/revoke-token';
import { CreateDashboardBody, CreateTokenBody, IdParam } from '../codecs/admin-codecs';
import { decodeOrThrow } from '../decode';
import { ProblemError } from '../http-errors';
import { dashboardView, tokenView } from '../presenters';

export interface AdminRouteDeps {
  readonly createDashboard: CreateDashboard;
  readonly createToken: CreateToken;
  readonly listTokens: ListTokens;
  readonly revokeToken: RevokeToken;
  /** The ADMIN_TOKEN check. */
  readonly guard: Middleware;
  readonly jsonBody: Middleware;
}

/** Dashboards and tokens (DECISIONS D8), behind ADMIN_TOKEN. */
export const registerAdminRoutes = (router: Router, deps: AdminRouteDeps): void => {
  router.post('/admin/v1/dashboards', deps.guard, deps.jsonBody, async (ctx) => {
    const body = decodeOrThrow(CreateDashboardBody, ctx.request.body);
    const dashboard = await deps.createDashboard.execute(body.name);
    ctx.status = 201;
    ctx.body = { dashboard: dashboardView(dashboard) };
  });

  router.post('/admin/v1/dashboards/:dashboardId/tokens', deps.guard, deps.jsonBody, async (ctx) => {
    const dashboardId = decodeOrThrow(IdParam, ctx.params.dashboardId, 'path.dashboardId');
    const body = decodeOrThrow(CreateTokenBody, ctx.request.body);
    const issued = await deps.createToken.execute(dashboardId, body.name);
    if (E.isLeft(issued)) throw new ProblemError(issued.left);
    const { token, plain } = issued.right;
    ctx.status = 201;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      token: { id: token.id, dashboardId: token.dashboardId, name: token.name ?? null, token: plain, createdAt: token.createdAt.toISOString() },
    };
  });

  router.get('/admin/v1/dashboards/:dashboardId/tokens', deps.guard, async (ctx) => {
    const dashboardId = decodeOrThrow(IdParam, ctx.params.dashboardId, 'path.dashboardId');
    const tokens = await deps.listTokens.execute(dashboardId);
    if (E.isLeft(tokens)) throw new ProblemError(tokens.left);
    ctx.body = { tokens: tokens.right.map(tokenView) };
  });

  router.post('/admin/v1/tokens/:tokenId/revoke', deps.guard, async (ctx) => {
    const tokenId = decodeOrThrow(IdParam, ctx.params.tokenId, 'path.tokenId');
    const revoked = await deps.revokeToken.execute(tokenId);
    if (E.isLeft(revoked)) throw new ProblemError(revoked.left);
    ctx.body = { token: { id: revoked.right.id, revokedAt: revoked.right.revokedAt?.toISOString() ?? null } };
  });
};
