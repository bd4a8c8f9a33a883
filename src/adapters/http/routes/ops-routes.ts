import type Router from '@koa/router';
import type { StorageHealth } from '../../../application/ports/storage-health';
import { ProblemError } from '../http-errors';

export interface OpsRouteDeps {
  readonly storage: StorageHealth;
  readonly openApiDocument: object;
}

/** Probes and the API description, without authentication (DECISIONS D11). */
export const registerOpsRoutes = (router: Router, deps: OpsRouteDeps): void => {
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });

  router.get('/readyz', async (ctx) => {
    if (!(await deps.storage.ping())) throw new ProblemError({ _tag: 'ServiceUnavailable' });
    ctx.body = { status: 'ready' };
  });

  router.get('/api/v1/openapi.json', (ctx) => {
    ctx.body = deps.openApiDocument;
  });
};
