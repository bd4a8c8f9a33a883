import * as E from 'fp-ts/Either';
import { pipe } from 'fp-ts/function';
import { MAX_AD_ACCOUNTS_PER_DASHBOARD } from '../../../domain/ad-account';
import { accountIdFor, conversionsFor, credentialsFor, problemsOf, type InputProblem } from '../../../domain/ad-account-input';
import type { HttpError } from '../kit/http-errors';
import { pageOf } from '../kit/list-query';
import { created, noContent, reply } from '../kit/replies';
import { route } from '../kit/route';
import {
  AdAccountList,
  AdAccountPath,
  AdAccountResponse,
  ConversionList,
  CreateAdAccountBody,
  ListConversionsQuery,
  SyncAccepted,
  UpdateAdAccountBody,
} from './ad-account-codecs';
import { adAccountView, conversionView } from './ad-account-presenters';
import { CONVERSION_RETENTION_MS } from '../../../domain/conversion';
import { RESPONSE_BODY_LIMIT_BYTES } from '../../../domain/delivery';

/** Ad accounts (docs/ad-platforms.md), scoped to the bearer token's dashboard. */

export const AD_ACCOUNTS_PATH = '/api/v1/ad-accounts';

const refused = (problems: readonly InputProblem[]): E.Either<Extract<HttpError, { _tag: 'ValidationFailed' }>, never> =>
  E.left({ _tag: 'ValidationFailed', details: problems.map(({ path, message }) => ({ path, message })) });

export const createAdAccountRoute = route({
  method: 'post',
  path: AD_ACCOUNTS_PATH,
  operationId: 'createAdAccount',
  summary: 'Connect an ad account',
  description:
    `An ad account whose daily spend per campaign and ad the service reads every hour, at most ${MAX_AD_ACCOUNTS_PER_DASHBOARD} per dashboard, ` +
    'one per platform account. The credentials are encrypted with CREDENTIALS_KEY and never shown again. The first sync starts at once; ' +
    '`status` is `syncing` until it ends.',
  tag: 'ad-accounts',
  guards: ['token', 'rateLimit'],
  scope: 'ads:write',
  body: CreateAdAccountBody,
  bodyExamples: {
    meta: {
      platform: 'meta',
      name: 'Meta ads',
      accountId: 'act_1234567890',
      credentials: { accessToken: 'EAAB0123456789abcdef' },
      campaignKey: 'name',
    },
    google: {
      platform: 'google',
      name: 'Google Ads',
      accountId: '123-456-7890',
      credentials: {
        developerToken: 'AbCdEf123',
        clientId: '1234.apps.googleusercontent.com',
        clientSecret: 'GOCSPX-0123456789',
        refreshToken: '1//0g0123456789',
      },
      campaignKey: 'id',
    },
    tiktok: {
      platform: 'tiktok',
      name: 'TikTok ads',
      accountId: '7012345678901234567',
      credentials: { accessToken: 'a1b2c3d4e5f6' },
      campaignKey: 'name',
    },
  },
  responses: {
    201: {
      description: 'The account was connected; its first sync is under way.',
      body: AdAccountResponse,
      headers: ['Location'],
      fixedHeaders: { 'Cache-Control': 'no-store' },
    },
  },
  problems: ['AdAccountLimitReached', 'AdAccountAlreadyConnected', 'CredentialsKeyMissing'],
  handle: async ({ principal, body }, { useCases }) => {
    const accountId = accountIdFor(body.platform, body.accountId);
    const credentials = credentialsFor(body.platform, body.credentials);
    const conversions = body.conversions === undefined ? undefined : conversionsFor(body.platform, body.conversions);
    const problems = problemsOf(accountId, credentials, ...(conversions === undefined ? [] : [conversions]));
    if (!('ok' in accountId) || !('ok' in credentials) || (conversions !== undefined && !('ok' in conversions)) || problems.length > 0) {
      return refused(problems);
    }
    const input = {
      platform: body.platform,
      name: body.name,
      accountId: accountId.ok,
      campaignKey: body.campaignKey,
      ...(body.utmSource === undefined ? {} : { utmSource: body.utmSource }),
      ...(conversions === undefined ? {} : { conversions: conversions.ok }),
    };
    return pipe(
      await useCases.connectAdAccount.execute(principal.dashboardId, input, credentials.ok),
      created(AD_ACCOUNTS_PATH, (account) => ({ adAccount: adAccountView(account) })),
    );
  },
});

export const listAdAccountsRoute = route({
  method: 'get',
  path: AD_ACCOUNTS_PATH,
  operationId: 'listAdAccounts',
  summary: "List the dashboard's ad accounts",
  description: 'Oldest first, each with where its sync stands; never a credential.',
  tag: 'ad-accounts',
  guards: ['token', 'rateLimit'],
  scope: 'ads:read',
  responses: { 200: { description: "The dashboard's ad accounts.", body: AdAccountList } },
  problems: [],
  handle: async ({ principal }, { useCases }) =>
    E.right({
      status: 200 as const,
      body: { adAccounts: (await useCases.listAdAccounts.execute(principal.dashboardId)).map(adAccountView) },
    }),
});

export const getAdAccountRoute = route({
  method: 'get',
  path: `${AD_ACCOUNTS_PATH}/{adAccountId}`,
  operationId: 'getAdAccount',
  summary: 'Read an ad account',
  description: "With where its sync stands: `status`, the platform's `message`, `lastSyncedAt`. Never its credentials.",
  tag: 'ad-accounts',
  guards: ['token', 'rateLimit'],
  scope: 'ads:read',
  params: AdAccountPath,
  responses: { 200: { description: 'The ad account.', body: AdAccountResponse } },
  problems: ['AdAccountNotFound'],
  handle: async ({ principal, params }, { useCases }) =>
    pipe(
      await useCases.getAdAccount.execute(principal.dashboardId, params.adAccountId),
      reply(200, (account) => ({ adAccount: adAccountView(account) })),
    ),
});

export const updateAdAccountRoute = route({
  method: 'patch',
  path: `${AD_ACCOUNTS_PATH}/{adAccountId}`,
  operationId: 'updateAdAccount',
  summary: 'Change an ad account',
  description:
    'Its name, how its links name campaigns, its `utm_source`, its conversion settings, or its credentials (all of them, after a token ' +
    'expired or was revoked). A change of the naming, the source or the credentials syncs it again at once.',
  tag: 'ad-accounts',
  guards: ['token', 'rateLimit'],
  scope: 'ads:write',
  params: AdAccountPath,
  body: UpdateAdAccountBody,
  bodyExamples: { rename: { name: 'Meta ads (shop)' }, newToken: { credentials: { accessToken: 'EAAB0123456789abcdef' } } },
  responses: { 200: { description: 'The account after the change.', body: AdAccountResponse } },
  problems: ['AdAccountNotFound', 'CredentialsKeyMissing'],
  handle: async ({ principal, params, body }, { useCases }) => {
    const found = await useCases.getAdAccount.execute(principal.dashboardId, params.adAccountId);
    if (E.isLeft(found)) return found;
    const { platform } = found.right;
    const credentials = body.credentials === undefined ? undefined : credentialsFor(platform, body.credentials);
    const conversions =
      body.conversions === undefined || body.conversions === null ? undefined : conversionsFor(platform, body.conversions);
    const problems = problemsOf(...(credentials === undefined ? [] : [credentials]), ...(conversions === undefined ? [] : [conversions]));
    if (
      (credentials !== undefined && !('ok' in credentials)) ||
      (conversions !== undefined && !('ok' in conversions)) ||
      problems.length > 0
    ) {
      return refused(problems);
    }
    const edit = {
      ...(body.name === undefined ? {} : { name: body.name }),
      ...(body.campaignKey === undefined ? {} : { campaignKey: body.campaignKey }),
      ...(body.utmSource === undefined ? {} : { utmSource: body.utmSource }),
      ...(credentials === undefined ? {} : { credentials: credentials.ok }),
      ...(body.conversions === null ? { conversions: null } : conversions === undefined ? {} : { conversions: conversions.ok }),
    };
    return pipe(
      await useCases.updateAdAccount.execute(principal.dashboardId, params.adAccountId, edit),
      reply(200, (account) => ({ adAccount: adAccountView(account) })),
    );
  },
});

export const deleteAdAccountRoute = route({
  method: 'delete',
  path: `${AD_ACCOUNTS_PATH}/{adAccountId}`,
  operationId: 'deleteAdAccount',
  summary: 'Disconnect an ad account',
  description:
    'Its credentials go with it. The spend it wrote stays in the reports (it was spent); connecting the same platform account again takes those rows over.',
  tag: 'ad-accounts',
  guards: ['token', 'rateLimit'],
  scope: 'ads:write',
  params: AdAccountPath,
  responses: { 204: { description: 'The account was disconnected.' } },
  problems: ['AdAccountNotFound'],
  handle: async ({ principal, params }, { useCases }) =>
    pipe(await useCases.deleteAdAccount.execute(principal.dashboardId, params.adAccountId), noContent),
});

export const syncAdAccountRoute = route({
  method: 'post',
  path: `${AD_ACCOUNTS_PATH}/{adAccountId}/sync`,
  operationId: 'syncAdAccount',
  summary: 'Sync an ad account now',
  description:
    "Reads the account's last 28 days again, off the request's path: the answer comes at once, `syncing`; read the account to see how " +
    'it went. Asking while a sync runs syncs once more after it.',
  tag: 'ad-accounts',
  guards: ['token', 'rateLimit'],
  scope: 'ads:write',
  params: AdAccountPath,
  responses: { 202: { description: 'The sync was asked for.', body: SyncAccepted } },
  problems: ['AdAccountNotFound'],
  handle: async ({ principal, params }, { useCases }) => {
    const asked = await useCases.requestAdSync.execute(principal.dashboardId, params.adAccountId);
    if (E.isLeft(asked)) return asked;
    return pipe(
      await useCases.getAdAccount.execute(principal.dashboardId, params.adAccountId),
      reply(202, (account) => ({ adAccount: adAccountView(account) })),
    );
  },
});

export const listConversionsRoute = route({
  method: 'get',
  path: `${AD_ACCOUNTS_PATH}/{adAccountId}/conversions`,
  operationId: 'listAdAccountConversions',
  summary: "List what was sent to an ad account's conversions API",
  description:
    `The conversions sent (or on their way) to the account's platform, newest first (\`createdAt\` descending, then \`id\` descending), ` +
    `kept ${CONVERSION_RETENTION_MS / 86_400_000} days: each order change with what matched the buyer (never the hashes), and every ` +
    `attempt with its outcome and the start of the platform's reply (at most ${RESPONSE_BODY_LIMIT_BYTES} bytes). ` +
    'Out-of-range values and unknown parameters are refused.',
  tag: 'ad-accounts',
  guards: ['token', 'rateLimit'],
  scope: 'ads:read',
  params: AdAccountPath,
  query: ListConversionsQuery,
  responses: { 200: { description: 'One page of conversions.', body: ConversionList } },
  problems: ['AdAccountNotFound'],
  handle: async ({ principal, params, query }, { useCases }) =>
    pipe(
      await useCases.listConversions.execute(principal.dashboardId, params.adAccountId, query),
      reply(200, (result) => pageOf('conversions', result.conversions.map(conversionView), query, result.total)),
    ),
});

export const adAccountRoutes = [
  createAdAccountRoute,
  listAdAccountsRoute,
  getAdAccountRoute,
  updateAdAccountRoute,
  deleteAdAccountRoute,
  syncAdAccountRoute,
  listConversionsRoute,
];
