import type * as t from 'io-ts';
import type { ApiToken, Dashboard } from '../../../domain/dashboard';
import type { DashboardResponse, IssuedTokenResponse, RevokedTokenResponse, TokenList } from './admin-codecs';

export const dashboardView = (dashboard: Dashboard): t.TypeOf<typeof DashboardResponse>['dashboard'] => ({
  id: dashboard.id,
  name: dashboard.name,
  timezone: dashboard.timezone,
  taxRate: dashboard.taxRate,
  createdAt: dashboard.createdAt.toISOString(),
});

/** A token as listed: never its hash, and the plain value no longer exists. */
export const tokenView = (token: ApiToken): t.TypeOf<typeof TokenList>['tokens'][number] => ({
  id: token.id,
  name: token.name ?? null,
  scopes: [...token.scopes],
  createdAt: token.createdAt.toISOString(),
  expiresAt: token.expiresAt?.toISOString() ?? null,
  lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
  revokedAt: token.revokedAt?.toISOString() ?? null,
});

/** The one answer that shows a token's value: right after it was made. */
export const issuedTokenView = (token: ApiToken, plain: string): t.TypeOf<typeof IssuedTokenResponse>['token'] => ({
  id: token.id,
  dashboardId: token.dashboardId,
  name: token.name ?? null,
  scopes: [...token.scopes],
  expiresAt: token.expiresAt?.toISOString() ?? null,
  token: plain,
  createdAt: token.createdAt.toISOString(),
});

export const revokedTokenView = (token: ApiToken & { revokedAt: Date }): t.TypeOf<typeof RevokedTokenResponse>['token'] => ({
  id: token.id,
  revokedAt: token.revokedAt.toISOString(),
});
