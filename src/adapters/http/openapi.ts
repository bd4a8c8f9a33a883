import { buildOpenApiDocument } from './openapi/document';
import { ROUTES } from './routes/route-table';

/** The OpenAPI 3.1 document of the whole public interface, served at /api/v1/openapi.json. */
export const openApiDocument = buildOpenApiDocument(ROUTES);
