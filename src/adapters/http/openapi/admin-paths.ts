import { ADMIN, jsonRequest, pathParameter, success, withRequestId } from './builders';
import { problems } from './problems';
import { headerRef } from './refs';
import type { PathItemObject } from './types';

/**
 * routes/admin-routes.ts (DECISIONS D8). The admin token is checked before anything else, so without
 * ADMIN_TOKEN every admin route answers 404 whatever the request.
 */

const dashboardId = pathParameter('dashboardId', 'The id of the dashboard.', 64);
const tokenId = pathParameter('tokenId', 'The id of the token.', 64);

export const adminPaths: Record<string, PathItemObject> = {
  '/admin/v1/dashboards': {
    post: {
      operationId: 'createDashboard',
      summary: 'Create a dashboard',
      tags: ['admin'],
      security: ADMIN,
      parameters: withRequestId(),
      requestBody: jsonRequest('CreateDashboardRequest', 'The new dashboard.', { shop: { name: 'My shop' } }),
      responses: {
        '201': success('The dashboard was created.', 'DashboardResponse'),
        ...problems('InvalidBody', 'AdminUnauthorized', 'AdminDisabled', 'PayloadTooLarge', 'UnsupportedMediaType', 'InternalError', 'ServiceUnavailable'),
      },
    },
  },
  '/admin/v1/dashboards/{dashboardId}/tokens': {
    parameters: [dashboardId],
    post: {
      operationId: 'createToken',
      summary: 'Issue an API token for a dashboard',
      description: 'The plain token is in this response and nowhere else: only its SHA-256 hash is stored.',
      tags: ['admin'],
      security: ADMIN,
      parameters: withRequestId(),
      requestBody: jsonRequest('CreateTokenRequest', 'The token to issue; send `{}` for a token without a name.', {
        named: { name: 'checkout' },
        unnamed: {},
      }),
      responses: {
        '201': success('The token was issued.', 'IssuedTokenResponse', { 'Cache-Control': headerRef('CacheControl') }),
        ...problems('InvalidBody', 'AdminUnauthorized', 'DashboardNotFound', 'PayloadTooLarge', 'UnsupportedMediaType', 'InternalError', 'ServiceUnavailable'),
      },
    },
    get: {
      operationId: 'listTokens',
      summary: "List a dashboard's tokens",
      description: 'Revoked tokens included; never a token value or its hash.',
      tags: ['admin'],
      security: ADMIN,
      parameters: withRequestId(),
      responses: {
        '200': success("The dashboard's tokens.", 'TokenList'),
        ...problems('InvalidPath', 'AdminUnauthorized', 'DashboardNotFound', 'InternalError', 'ServiceUnavailable'),
      },
    },
  },
  '/admin/v1/tokens/{tokenId}/revoke': {
    parameters: [tokenId],
    post: {
      operationId: 'revokeToken',
      summary: 'Revoke a token',
      description: 'Takes no body (one sent is not read). Revoking a revoked token answers 200 with the first revocation time.',
      tags: ['admin'],
      security: ADMIN,
      parameters: withRequestId(),
      responses: {
        '200': success('The token is revoked.', 'RevokedTokenResponse'),
        ...problems('InvalidPath', 'AdminUnauthorized', 'TokenNotFound', 'InternalError', 'ServiceUnavailable'),
      },
    },
  },
};
