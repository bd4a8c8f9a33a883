import Router from '@koa/router';
import Koa from 'koa';
import type { DependencyContainer } from 'tsyringe';
import { AuthenticateToken } from '../../application/authenticate-token';
import { CheckRateLimit } from '../../application/check-rate-limit';
import { CreateDashboard } from '../../application/create-dashboard';
import { CreateOrder } from '../../application/create-order';
import { CreateToken } from '../../application/create-token';
import { GetOrder } from '../../application/get-order';
import { IdempotencyGate } from '../../application/idempotency-gate';
import { ListOrders } from '../../application/list-orders';
import { ListTokens } from '../../application/list-tokens';
import { ID_GENERATOR, type IdGenerator } from '../../application/ports/id-generator';
import { LOGGER, type Logger } from '../../application/ports/logger';
import { STORAGE_HEALTH, type StorageHealth } from '../../application/ports/storage-health';
import { RevokeToken } from '../../application/revoke-token';
import { UpdateOrder } from '../../application/update-order';
import { accessLog } from './middleware/access-log';
import { adminGuard } from './middleware/admin-guard';
import { authenticate } from './middleware/authenticate';
import { errorHandler } from './middleware/error-handler';
import { idempotency } from './middleware/idempotency';
import { jsonBody } from './middleware/json-body';
import { rateLimit } from './middleware/rate-limit';
import { requestId } from './middleware/request-id';
import { routeFallback } from './middleware/route-fallback';
import { openApiDocument } from './openapi';
import type { RequestState } from './request-state';
import { registerAdminRoutes } from './routes/admin-routes';
import { registerOpsRoutes } from './routes/ops-routes';
import { registerOrderRoutes } from './routes/order-routes';

export interface HttpOptions {
  /** Largest accepted body (DECISIONS D1: 256 KiB by default). */
  readonly bodyLimitBytes: number;
  /** The admin API's secret; without it the admin API answers 404. */
  readonly adminToken?: string;
}

export interface HttpApp {
  readonly app: Koa<RequestState>;
  readonly router: Router<RequestState>;
}

/**
 * The Koa application over the use cases of `container`. Middleware order matters: the request id
 * first so every line and body carries it, then the access log around the error handler so the log
 * sees the final status, then routing.
 */
export const createHttpApp = (container: DependencyContainer, options: HttpOptions): HttpApp => {
  const logger = container.resolve<Logger>(LOGGER);
  const router = new Router<RequestState>();
  const body = jsonBody(options.bodyLimitBytes);

  registerOpsRoutes(router, {
    storage: container.resolve<StorageHealth>(STORAGE_HEALTH),
    openApiDocument,
  });
  registerOrderRoutes(router, {
    createOrder: container.resolve(CreateOrder),
    listOrders: container.resolve(ListOrders),
    getOrder: container.resolve(GetOrder),
    updateOrder: container.resolve(UpdateOrder),
    guards: [authenticate(container.resolve(AuthenticateToken)), rateLimit(container.resolve(CheckRateLimit))],
    writeGuards: [body, idempotency(container.resolve(IdempotencyGate))],
  });
  registerAdminRoutes(router, {
    createDashboard: container.resolve(CreateDashboard),
    createToken: container.resolve(CreateToken),
    listTokens: container.resolve(ListTokens),
    revokeToken: container.resolve(RevokeToken),
    guard: adminGuard(options.adminToken),
    jsonBody: body,
  });

  const app = new Koa<RequestState>();
  app.silent = true;
  app.on('error', (err: unknown) => {
    logger.error('koa error outside a request', { errorName: err instanceof Error ? err.name : typeof err });
  });
  app.use(requestId(container.resolve<IdGenerator>(ID_GENERATOR)));
  app.use(accessLog(logger));
  app.use(errorHandler(logger));
  app.use(routeFallback);
  app.use(router.routes());
  app.use(router.allowedMethods());
  return { app, router };
};
