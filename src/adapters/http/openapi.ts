import { buildOpenApiDocument } from './kit/openapi/document';
import { ROUTES } from './route-table';
import { WEBHOOK_REQUESTS } from './webhooks/webhook-requests';

/** The OpenAPI 3.1 document of the whole public interface, served at /api/v1/openapi.json. */
export const openApiDocument = buildOpenApiDocument(ROUTES, WEBHOOK_REQUESTS);
