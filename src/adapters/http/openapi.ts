import { adminPaths } from './openapi/admin-paths';
import { adminSchemas } from './openapi/admin-schemas';
import { opsPaths } from './openapi/ops-paths';
import { orderPaths } from './openapi/order-paths';
import { orderSchemas } from './openapi/order-schemas';
import { guardHeaders, idempotencyKeyParameter } from './openapi/order-guards';
import { headers, problemResponses, problemSchemas, requestIdParameter } from './openapi/problems';
import type { OpenApiDocument } from './openapi/types';

const description = `An order-recording service: orders are created and listed through /api/v1 with a bearer token that names the dashboard (account) they belong to.

- Money is an integer count of cents. Request bodies are JSON (\`Content-Type: application/json\`). Dates in requests are ISO 8601 with a timezone; dates in responses are UTC with milliseconds.
- Every response carries \`X-Request-Id\`. Every error is an RFC 9457 problem (\`application/problem+json\`) with \`code\` and \`requestId\`, and \`details\` for \`VALIDATION_FAILED\`.
- A path that is not documented here answers 404 \`NOT_FOUND\`. A documented path called with a method it does not have answers 405 \`METHOD_NOT_ALLOWED\` with \`Allow\` (components/responses/MethodNotAllowed). \`HEAD\` is answered wherever \`GET\` is, and \`OPTIONS\` answers 200 with \`Allow\`.
- Every request to an /api/v1/orders operation with a valid token is counted against that token: RATE_LIMIT_MAX requests per fixed window of RATE_LIMIT_WINDOW_SECONDS (600 per 60 s by default), shared by every instance on one MongoDB. Each response after authentication, errors included, carries \`RateLimit-Policy\` and \`RateLimit\` (draft-ietf-httpapi-ratelimit-headers); past the quota the answer is 429 \`RATE_LIMIT_EXCEEDED\` with \`Retry-After\`. The probes, this document and the admin API are not limited.
- \`POST\` and \`PATCH\` on /api/v1/orders accept an optional \`Idempotency-Key\` header that makes retries safe: a completed request is replayed with \`Idempotent-Replayed: true\` instead of being executed again (components/parameters/IdempotencyKey).
- Order status changes follow the operator's transition table; the service ships none, so without one every status change is refused (see PATCH /api/v1/orders/{externalId}).`;

/** The OpenAPI 3.1 document of the whole public interface (DECISIONS D11), served at /api/v1/openapi.json. */
export const openApiDocument: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 'Orders service', version: '0.1.0', description },
  tags: [
    { name: 'orders', description: "Orders of the bearer token's dashboard." },
    { name: 'admin', description: 'Dashboards and API tokens, behind ADMIN_TOKEN; disabled (404) when it is not set.' },
    { name: 'operations', description: 'Probes and this document, without authentication.' },
  ],
  paths: { ...orderPaths, ...adminPaths, ...opsPaths },
  components: {
    schemas: { ...orderSchemas, ...adminSchemas, ...problemSchemas },
    responses: problemResponses,
    parameters: { RequestId: requestIdParameter, IdempotencyKey: idempotencyKeyParameter },
    headers: { ...headers, ...guardHeaders },
    securitySchemes: {
      bearerAuth: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'ok_live_<43 base62 characters>',
        description: "An API token issued through the admin API; it names the dashboard whose orders are created and read.",
      },
      adminToken: {
        type: 'http',
        scheme: 'bearer',
        description: 'The ADMIN_TOKEN secret of the deployment. Without it configured, the admin API answers 404.',
      },
    },
  },
};
