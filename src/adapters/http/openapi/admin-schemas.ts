import { schemaRef } from './refs';
import type { JsonSchema } from './types';

/** Dashboards, tokens (codecs/admin-codecs.ts, presenters.ts, routes/admin-routes.ts) and the probes. */

const name: JsonSchema = { type: 'string', minLength: 1, maxLength: 200 };
const id: JsonSchema = { type: 'string', description: 'Made by the service; opaque.' };
const nullableName: JsonSchema = { type: ['string', 'null'], minLength: 1, maxLength: 200 };

const closed = (properties: Record<string, JsonSchema>, optional: readonly string[] = []): JsonSchema => ({
  type: 'object',
  properties,
  required: Object.keys(properties).filter((key) => !optional.includes(key)),
  additionalProperties: false,
});

export const adminSchemas: Record<string, JsonSchema> = {
  CreateDashboardRequest: closed({ name }),
  Dashboard: closed({ id, name, createdAt: schemaRef('UtcDateTime') }),
  DashboardResponse: closed({ dashboard: schemaRef('Dashboard') }),
  CreateTokenRequest: { ...closed({ name }, ['name']), description: 'An empty object is a valid request: the name is optional.' },
  IssuedToken: closed({
    id,
    dashboardId: { type: 'string' },
    name: nullableName,
    token: {
      type: 'string',
      pattern: '^ok_live_[0-9A-Za-z]{43}$',
      description: 'The bearer token for /api/v1. Shown only in this response; only its SHA-256 hash is stored.',
    },
    createdAt: schemaRef('UtcDateTime'),
  }),
  IssuedTokenResponse: closed({ token: schemaRef('IssuedToken') }),
  TokenSummary: closed({
    id,
    name: nullableName,
    createdAt: schemaRef('UtcDateTime'),
    revokedAt: { anyOf: [schemaRef('UtcDateTime'), { type: 'null' }] },
  }),
  TokenList: closed({ tokens: { type: 'array', items: schemaRef('TokenSummary') } }),
  RevokedToken: closed({ id, revokedAt: { ...schemaRef('UtcDateTime'), description: 'The first revocation time; revoking again keeps it.' } }),
  RevokedTokenResponse: closed({ token: schemaRef('RevokedToken') }),
  Health: closed({ status: { const: 'ok' } }),
  Readiness: closed({ status: { const: 'ready' } }),
};
