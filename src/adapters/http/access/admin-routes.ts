import * as E from 'fp-ts/Either';
import { pipe } from 'fp-ts/function';
import {
  CreateDashboardBody,
  CreateTokenBody,
  DashboardPath,
  DashboardResponse,
  IssuedTokenResponse,
  RevokedTokenResponse,
  TokenList,
  TokenPath,
  UpdateDashboardBody,
} from './admin-codecs';
import { dashboardView, issuedTokenView, revokedTokenView, tokenView } from './access-presenters';
import { reply } from '../kit/replies';
import { route } from '../kit/route';

/**
 * Dashboards and tokens (decision 0008), behind ADMIN_TOKEN. The admin secret is checked before
 * anything else, so without ADMIN_TOKEN every admin route answers 404 whatever the request.
 */

export const createDashboardRoute = route({
  method: 'post',
  path: '/admin/v1/dashboards',
  operationId: 'createDashboard',
  summary: 'Create a dashboard',
  tag: 'admin',
  guards: ['admin'],
  body: CreateDashboardBody,
  bodyExamples: { shop: { name: 'My shop' } },
  responses: { 201: { description: 'The dashboard was created.', body: DashboardResponse } },
  problems: [],
  handle: async ({ body }, { useCases }) =>
    E.right({ status: 201 as const, body: { dashboard: dashboardView(await useCases.createDashboard.execute(body.name, body.timezone)) } }),
});

export const updateDashboardRoute = route({
  method: 'patch',
  path: '/admin/v1/dashboards/{dashboardId}',
  operationId: 'updateDashboard',
  summary: 'Rename a dashboard, change its time zone or its tax rate',
  description:
    "The time zone is the calendar of the dashboard's reports and of its spend's and product costs' dates; changing it moves no " +
    'stored date, and every report, past ones included, follows the new calendar. The tax rate is the percent of paid revenue ' +
    'reports count as tax, in every report at once.',
  tag: 'admin',
  guards: ['admin'],
  params: DashboardPath,
  body: UpdateDashboardBody,
  bodyExamples: { timezone: { timezone: 'America/Sao_Paulo' }, taxRate: { taxRate: 7.25 } },
  responses: { 200: { description: 'The dashboard as it is now.', body: DashboardResponse } },
  problems: ['DashboardNotFound'],
  handle: async ({ params, body }, { useCases }) => {
    return pipe(
      await useCases.updateDashboard.execute(params.dashboardId, {
        ...(body.name === undefined ? {} : { name: body.name }),
        ...(body.timezone === undefined ? {} : { timezone: body.timezone }),
        ...(body.taxRate === undefined ? {} : { taxRate: body.taxRate }),
      }),
      reply(200, (dashboard) => ({ dashboard: dashboardView(dashboard) })),
    );
  },
});

export const createTokenRoute = route({
  method: 'post',
  path: '/admin/v1/dashboards/{dashboardId}/tokens',
  operationId: 'createToken',
  summary: 'Issue an API token for a dashboard',
  description: 'The plain token is in this response and nowhere else: only its SHA-256 hash is stored.',
  tag: 'admin',
  guards: ['admin'],
  params: DashboardPath,
  body: CreateTokenBody,
  bodyExamples: { checkout: { name: 'checkout', scopes: ['orders:write'] }, unnamed: {} },
  responses: {
    201: {
      description: 'The token was issued. The response holds a secret: no cache may store it.',
      body: IssuedTokenResponse,
      fixedHeaders: { 'Cache-Control': 'no-store' },
    },
  },
  problems: ['DashboardNotFound'],
  handle: async ({ params, body }, { useCases }) => {
    if (body.expiresAt !== undefined && body.expiresAt.getTime() <= Date.now())
      return E.left({ _tag: 'ValidationFailed', details: [{ path: 'expiresAt', message: 'must be in the future' }] });
    return pipe(
      await useCases.createToken.execute(params.dashboardId, body.name, {
        ...(body.scopes === undefined ? {} : { scopes: body.scopes }),
        ...(body.expiresAt === undefined ? {} : { expiresAt: body.expiresAt }),
      }),
      reply(201, ({ token, plain }) => ({ token: issuedTokenView(token, plain) })),
    );
  },
});

export const listTokensRoute = route({
  method: 'get',
  path: '/admin/v1/dashboards/{dashboardId}/tokens',
  operationId: 'listTokens',
  summary: "List a dashboard's tokens",
  description: 'Revoked tokens included; never a token value or its hash.',
  tag: 'admin',
  guards: ['admin'],
  params: DashboardPath,
  responses: { 200: { description: "The dashboard's tokens.", body: TokenList } },
  problems: ['DashboardNotFound'],
  handle: async ({ params }, { useCases }) =>
    pipe(
      await useCases.listTokens.execute(params.dashboardId),
      reply(200, (tokens) => ({ tokens: tokens.map(tokenView) })),
    ),
});

export const revokeTokenRoute = route({
  method: 'post',
  path: '/admin/v1/tokens/{tokenId}/revoke',
  operationId: 'revokeToken',
  summary: 'Revoke a token',
  description: 'Takes no body (one sent is not read). Revoking a revoked token answers 200 with the first revocation time.',
  tag: 'admin',
  guards: ['admin'],
  params: TokenPath,
  responses: { 200: { description: 'The token is revoked.', body: RevokedTokenResponse } },
  problems: ['TokenNotFound'],
  handle: async ({ params }, { useCases }) =>
    pipe(
      await useCases.revokeToken.execute(params.tokenId),
      reply(200, (token) => ({ token: revokedTokenView(token) })),
    ),
});

export const adminRoutes = [createDashboardRoute, updateDashboardRoute, createTokenRoute, listTokensRoute, revokeTokenRoute];
