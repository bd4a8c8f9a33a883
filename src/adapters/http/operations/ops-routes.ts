import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import { oneOf, strictObject } from '../kit/codec-kit';
import { documented } from '../kit/json-schema';
import { route } from '../kit/route';

/** Probes and the API description, without authentication (decision 0011). */

const Health = strictObject('Health', { status: t.literal('ok') });
const workerState = oneOf(['running', 'stopping', 'stopped'] as const);
const ReadinessComponents = strictObject('ReadinessComponents', {
  store: oneOf(['up', 'read-only', 'down'] as const),
  workers: documented(t.record(t.string, workerState), (w) => ({
    type: 'object',
    description: 'Each background worker by name.',
    additionalProperties: w.schemaOf(workerState),
  })),
});
const Readiness = strictObject('Readiness', { status: t.literal('ready'), components: ReadinessComponents });

const OpenApiDocument = documented(t.UnknownRecord, () => ({
  type: 'object',
  required: ['openapi', 'info', 'paths'],
  properties: { openapi: { type: 'string', const: '3.1.0' }, info: { type: 'object' }, paths: { type: 'object' } },
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
  summary: 'Readiness: storage answers and takes a write, the workers run, and the service is not shutting down',
  tag: 'operations',
  guards: [],
  storage: false,
  responses: {
    200: { description: 'Ready: storage answered a read and kept a small write of its own, and every worker runs.', body: Readiness },
  },
  problems: ['NotReady'],
  handle: async (_input, { readiness }) => {
    const { draining, components } = await readiness();
    const ready = !draining && components.store === 'up' && Object.values(components.workers).every((state) => state === 'running');
    return ready
      ? E.right({ status: 200 as const, body: { status: 'ready' as const, components } })
      : E.left({ _tag: 'NotReady', draining, components });
  },
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
