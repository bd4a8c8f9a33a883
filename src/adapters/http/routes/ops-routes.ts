import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import { strictObject } from '../codecs/codec-kit';
import { documented } from '../codecs/json-schema';
import { route } from './route';

/** Probes and the API description, without authentication (DECISIONS D11). */

const Health = strictObject('Health', { status: t.literal('ok') });
const Readiness = strictObject('Readiness', { status: t.literal('ready') });
const OpenApiDocument = documented(t.UnknownRecord, () => ({
  type: 'object',
  required: ['openapi', 'info', 'paths'],
  properties: { openapi: { const: '3.1.0' }, info: { type: 'object' }, paths: { type: 'object' } },
}));

export const healthRoute = route({
  method: 'get',
  path: '/healthz',
  operationId: 'getHealth',
  summary: 'Liveness: the process answers',
  tag: 'operations',
  guards: [],
  storage: false,
  responses: { 200: { description: 'The process is alive.', body: Health } },
  problems: [],
  handle: async () => E.right({ status: 200 as const, body: { status: 'ok' as const } }),
});

export const readinessRoute = route({
  method: 'get',
  path: '/readyz',
  operationId: 'getReadiness',
  summary: 'Readiness: storage answers',
  tag: 'operations',
  guards: [],
  storage: false,
  responses: { 200: { description: 'Storage answered.', body: Readiness } },
  problems: ['ServiceUnavailable'],
  handle: async (_input, { health }) =>
    (await health.ping()) ? E.right({ status: 200 as const, body: { status: 'ready' as const } }) : E.left({ _tag: 'ServiceUnavailable' }),
});

export const openApiRoute = route({
  method: 'get',
  path: '/api/v1/openapi.json',
  operationId: 'getOpenApiDocument',
  summary: 'This document',
  tag: 'operations',
  guards: [],
  storage: false,
  responses: { 200: { description: 'The OpenAPI 3.1 document of the whole public interface.', body: OpenApiDocument } },
  problems: [],
  handle: async (_input, { openApiDocument }) => E.right({ status: 200 as const, body: openApiDocument() as Record<string, unknown> }),
});

export const opsRoutes = [healthRoute, readinessRoute, openApiRoute];
