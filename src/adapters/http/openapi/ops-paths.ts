import { NO_AUTH, success, withRequestId } from './builders';
import { problems } from './problems';
import { headerRef } from './refs';
import type { PathItemObject } from './types';

/** routes/ops-routes.ts (DECISIONS D11): no authentication. */
export const opsPaths: Record<string, PathItemObject> = {
  '/healthz': {
    get: {
      operationId: 'getHealth',
      summary: 'Liveness: the process answers',
      tags: ['operations'],
      security: NO_AUTH,
      parameters: withRequestId(),
      responses: { '200': success('The process is alive.', 'Health') },
    },
  },
  '/readyz': {
    get: {
      operationId: 'getReadiness',
      summary: 'Readiness: storage answers',
      tags: ['operations'],
      security: NO_AUTH,
      parameters: withRequestId(),
      responses: {
        '200': success('Storage answered.', 'Readiness'),
        ...problems('ServiceUnavailable'),
      },
    },
  },
  '/api/v1/openapi.json': {
    get: {
      operationId: 'getOpenApiDocument',
      summary: 'This document',
      tags: ['operations'],
      security: NO_AUTH,
      parameters: withRequestId(),
      responses: {
        '200': {
          description: 'The OpenAPI 3.1 document of the whole public interface.',
          headers: { 'X-Request-Id': headerRef('RequestId') },
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['openapi', 'info', 'paths'],
                properties: { openapi: { const: '3.1.0' }, info: { type: 'object' }, paths: { type: 'object' } },
              },
            },
          },
        },
      },
    },
  },
};
