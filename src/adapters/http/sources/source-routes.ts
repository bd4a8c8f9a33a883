import * as E from 'fp-ts/Either';
import { pipe } from 'fp-ts/function';
import { MAX_SOURCE_DELIVERIES, MAX_SOURCES_PER_DASHBOARD } from '../../../domain/source';
import { pageOf } from '../kit/list-query';
import { created, noContent, reply } from '../kit/replies';
import { route } from '../kit/route';
import {
  CreateSourceBody,
  ListSourceDeliveriesQuery,
  RenameSourceBody,
  ReplaceSourceSecretBody,
  SourceDeliveryList,
  SourceList,
  SourcePath,
  SourceResponse,
} from './source-codecs';
import { sourceDeliveryView, sourceView } from './source-presenters';
import { receiveDeliveryRoute } from './inbound-routes';

/** Sources (decision 0021), scoped to the bearer token's dashboard. */

export const SOURCES_PATH = '/api/v1/sources';

export const createSourceRoute = route({
  method: 'post',
  path: SOURCES_PATH,
  operationId: 'createSource',
  summary: 'Create a source',
  description:
    `A source for one checkout platform, at most ${MAX_SOURCES_PER_DASHBOARD} per dashboard. \`secret\` is the platform's own signing ` +
    'secret, kept to check each delivery and never shown again. Paste `url` into the platform as its webhook address.',
  tag: 'sources',
  guards: ['token', 'rateLimit'],
  scope: 'sources:write',
  body: CreateSourceBody,
  bodyExamples: {
    shopify: { platform: 'shopify', name: 'My Shopify store', secret: '2b1f0c5e8d4a7b3c9e6f1a0d5c8b7e4f' },
    woocommerce: { platform: 'woocommerce', name: 'My WooCommerce store', secret: 'Zr8 {k]J*9s@Qv|n%2Lb' },
    stripe: { platform: 'stripe', name: 'Stripe payments', secret: 'whsec_5WkEHwNyqG4R0eX1pV3sLb' },
    hotmart: { platform: 'hotmart', name: 'Hotmart products', secret: 'ysewXlAZI1iHdUFqC4ZcV1J5RLhiVe518471' },
  },
  responses: {
    201: {
      description: 'The source was created.',
      body: SourceResponse,
      headers: ['Location'],
      fixedHeaders: { 'Cache-Control': 'no-store' },
    },
  },
  problems: ['SourceLimitReached'],
  handle: async ({ principal, body }, { useCases, publicBaseUrl }) =>
    pipe(
      await useCases.createSource.execute(principal.dashboardId, body),
      created(SOURCES_PATH, (source) => ({ source: sourceView(source, publicBaseUrl()) })),
    ),
});

export const listSourcesRoute = route({
  method: 'get',
  path: SOURCES_PATH,
  operationId: 'listSources',
  summary: "List the dashboard's sources",
  description: 'Oldest first, never a secret.',
  tag: 'sources',
  guards: ['token', 'rateLimit'],
  scope: 'sources:read',
  responses: { 200: { description: "The dashboard's sources.", body: SourceList } },
  problems: [],
  handle: async ({ principal }, { useCases, publicBaseUrl }) =>
    E.right({
      status: 200 as const,
      body: { sources: (await useCases.listSources.execute(principal.dashboardId)).map((source) => sourceView(source, publicBaseUrl())) },
    }),
});

export const getSourceRoute = route({
  method: 'get',
  path: `${SOURCES_PATH}/{sourceId}`,
  operationId: 'getSource',
  summary: 'Read a source',
  description: 'Never its secret.',
  tag: 'sources',
  guards: ['token', 'rateLimit'],
  scope: 'sources:read',
  params: SourcePath,
  responses: { 200: { description: 'The source.', body: SourceResponse } },
  problems: ['SourceNotFound'],
  handle: async ({ principal, params }, { useCases, publicBaseUrl }) =>
    pipe(
      await useCases.getSource.execute(principal.dashboardId, params.sourceId),
      reply(200, (source) => ({ source: sourceView(source, publicBaseUrl()) })),
    ),
});

export const renameSourceRoute = route({
  method: 'patch',
  path: `${SOURCES_PATH}/{sourceId}`,
  operationId: 'renameSource',
  summary: 'Rename a source',
  tag: 'sources',
  guards: ['token', 'rateLimit'],
  scope: 'sources:write',
  params: SourcePath,
  body: RenameSourceBody,
  bodyExamples: { rename: { name: 'Main store' } },
  responses: { 200: { description: 'The source after the change.', body: SourceResponse } },
  problems: ['SourceNotFound'],
  handle: async ({ principal, params, body }, { useCases, publicBaseUrl }) =>
    pipe(
      await useCases.renameSource.execute(principal.dashboardId, params.sourceId, body.name),
      reply(200, (source) => ({ source: sourceView(source, publicBaseUrl()) })),
    ),
});

export const replaceSourceSecretRoute = route({
  method: 'put',
  path: `${SOURCES_PATH}/{sourceId}/secret`,
  operationId: 'replaceSourceSecret',
  summary: "Replace a source's secret",
  description:
    'After the secret was changed on the platform: from now on deliveries are checked with the new one only (a delivery signed with the old one is refused with 401, and the platform retries it). The answer does not show it.',
  tag: 'sources',
  guards: ['token', 'rateLimit'],
  scope: 'sources:write',
  params: SourcePath,
  body: ReplaceSourceSecretBody,
  bodyExamples: { replace: { secret: 'whsec_8fJ2kLmN4pQ6rS9tU1vW3x' } },
  responses: { 200: { description: 'The source, with its new secret kept.', body: SourceResponse } },
  problems: ['SourceNotFound'],
  handle: async ({ principal, params, body }, { useCases, publicBaseUrl }) =>
    pipe(
      await useCases.replaceSourceSecret.execute(principal.dashboardId, params.sourceId, body.secret),
      reply(200, (source) => ({ source: sourceView(source, publicBaseUrl()) })),
    ),
});

export const deleteSourceRoute = route({
  method: 'delete',
  path: `${SOURCES_PATH}/{sourceId}`,
  operationId: 'deleteSource',
  summary: 'Delete a source',
  description: 'Its URL answers 404 from then on, and its delivery log goes with it; the orders it made stay.',
  tag: 'sources',
  guards: ['token', 'rateLimit'],
  scope: 'sources:write',
  params: SourcePath,
  responses: { 204: { description: 'The source was deleted.' } },
  problems: ['SourceNotFound'],
  handle: async ({ principal, params }, { useCases }) =>
    pipe(await useCases.deleteSource.execute(principal.dashboardId, params.sourceId), noContent),
});

export const listSourceDeliveriesRoute = route({
  method: 'get',
  path: `${SOURCES_PATH}/{sourceId}/deliveries`,
  operationId: 'listSourceDeliveries',
  summary: "List a source's deliveries",
  description:
    `The source's last ${MAX_SOURCE_DELIVERIES.toLocaleString('en-US')} deliveries, newest first: when each arrived, the platform's event ` +
    'id and topic, what became of it (created, updated, ignored, refused) and why. Never a body. Unknown parameters are refused.',
  tag: 'sources',
  guards: ['token', 'rateLimit'],
  scope: 'sources:read',
  params: SourcePath,
  query: ListSourceDeliveriesQuery,
  responses: { 200: { description: 'One page of deliveries.', body: SourceDeliveryList } },
  problems: ['SourceNotFound'],
  handle: async ({ principal, params, query }, { useCases }) =>
    pipe(
      await useCases.listSourceDeliveries.execute(principal.dashboardId, params.sourceId, query),
      reply(200, (result) => pageOf('deliveries', result.deliveries.map(sourceDeliveryView), query, result.total)),
    ),
});

export const sourceRoutes = [
  createSourceRoute,
  listSourcesRoute,
  getSourceRoute,
  renameSourceRoute,
  replaceSourceSecretRoute,
  deleteSourceRoute,
  listSourceDeliveriesRoute,
  receiveDeliveryRoute,
];
