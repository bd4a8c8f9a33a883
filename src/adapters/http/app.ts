import Router from '@koa/router';
import Koa, { type Context } from 'koa';
import type { IdGenerator } from '../../application/ports/id-generator';
import type { Logger } from '../../application/ports/logger';
import type { Metrics } from '../../application/ports/metrics';
import type { UseCases } from '../../application/use-cases';
import { accessLog } from './kit/middleware/access-log';
import { adminGuard } from './kit/middleware/admin-guard';
import { closeWhenBodyUnread } from './kit/middleware/close-unread';
import { authenticate } from './kit/middleware/authenticate';
import { errorHandler } from './kit/middleware/error-handler';
import { heavyTurn } from './kit/middleware/heavy-turn';
import { idempotency } from './kit/middleware/idempotency';
import { jsonBody } from './kit/middleware/json-body';
import { rateLimit } from './kit/middleware/rate-limit';
import { rawBody } from './kit/middleware/raw-body';
import { requestId } from './kit/middleware/request-id';
import { routeFallback } from './kit/middleware/route-fallback';
import { openApiDocument } from './openapi';
import { principalOf, type RequestState } from './kit/request-state';
import { registerRoutes } from './kit/register-routes';
import type { ReadinessReport, RouteOff } from './kit/http-errors';
import { ROUTES } from './route-table';
import { prepareAsset } from './kit/static-asset';
import type { HeavyRequestTurns } from '../system/heavy-request-turns';
import type { DashboardShares } from '../system/dashboard-shares';
import { dashboardShare } from './kit/middleware/dashboard-share';

export interface HttpOptions {
  /** Largest accepted body (decision 0001: 256 KiB by default). */
  readonly bodyLimitBytes: number;
  /** Largest accepted body of a batch (decision 0019: 4 MiB by default). */
  readonly batchBodyLimitBytes: number;
  /** The admin API's secret; without it the admin API answers 404. */
  readonly adminToken?: string;
  /** CONSOLE=off: /console answers a 404 that says so. */
  readonly consoleOff?: boolean;
  /**
   * TRUST_PROXY: how many proxies stand in front (0: none). Koa then takes the protocol from
   * X-Forwarded-Proto and the client's address that many entries from the right of X-Forwarded-For:
   * the entries further left are whatever the client wrote (decision 0023).
   */
  readonly trustProxy: number;
}

/** What the HTTP app drives and uses; bootstrap hands it over, the app resolves nothing itself. */
export interface HttpDependencies {
  readonly useCases: UseCases;
  /** The state of the service's parts, for GET /readyz. */
  readonly readiness: () => Promise<ReadinessReport>;
  readonly logger: Logger;
  readonly ids: IdGenerator;
  readonly metrics: Metrics;
  /** The browser tracking script as built (dist/browser/tracker.js), served at /tracker.js. */
  readonly trackerScript: Buffer;
  /** Where short links live (PUBLIC_BASE_URL, else the service's own address once it listens); no trailing `/`. */
  readonly publicBaseUrl: () => string;
  /** The turns of each dashboard's heavy requests, shared with the console (decision 0023). */
  readonly heavyTurns: HeavyRequestTurns;
  /** Each dashboard's share of the requests in progress while others have some. */
  readonly shares: DashboardShares;
}

export interface HttpApp {
  readonly app: Koa<RequestState>;
  readonly router: Router<RequestState>;
}

/**
 * The one lane of the large deliveries to sources that do not exist: a flood of them waits there
 * and is refused there, whatever ids it makes up, and leaves every dashboard's lane alone.
 */
const UNKNOWN_SOURCES = 'deliveries to unknown sources';

/** The `{sourceId}` of /in/v1/{sourceId} as the router read it; a malformed one finds no source, and takes the unknown sources' lane. */
const sourceIdOf = (ctx: Context): string => (ctx as Context & { params?: Readonly<Record<string, string>> }).params?.['sourceId'] ?? '';

/** The part of the service the configuration switched off that `path` asks for, if any. */
const switchedOff = (path: string, options: HttpOptions): RouteOff | undefined => {
  if (options.consoleOff === true && (path === '/console' || path.startsWith('/console/'))) return 'console';
  return path === '/metrics' ? 'metrics' : undefined;
};

/**
 * The Koa application over the route table. Middleware order matters: the request id first so every
 * line and body carries it, then the access log around the error handler so the log sees the final
 * status, then routing.
 */
export const createHttpApp = (
  { useCases, readiness, logger, ids, metrics, trackerScript, publicBaseUrl, heavyTurns, shares }: HttpDependencies,
  options: HttpOptions,
): HttpApp => {
  const router = new Router<RequestState>();
  const tokenDashboard = async (ctx: Context): Promise<string> => principalOf(ctx.state).dashboardId;
  const sourceDashboard = async (ctx: Context): Promise<string> =>
    (await useCases.receiveSourceDelivery.dashboardOf(sourceIdOf(ctx))) ?? UNKNOWN_SOURCES;
  registerRoutes(
    router,
    ROUTES,
    {
      admin: adminGuard(options.adminToken),
      token: authenticate(useCases.authenticateToken),
      rateLimit: rateLimit(useCases.checkRateLimit, metrics),
      share: dashboardShare(shares, tokenDashboard),
      deliveryShare: dashboardShare(shares, sourceDashboard),
      heavyTurn: heavyTurn(heavyTurns, tokenDashboard),
      deliveryTurn: heavyTurn(heavyTurns, sourceDashboard),
      body: jsonBody(options.bodyLimitBytes),
      largeBody: jsonBody(options.batchBodyLimitBytes),
      rawBody: rawBody(options.bodyLimitBytes),
      idempotency: idempotency(useCases.idempotencyGate),
    },
    { useCases, readiness, openApiDocument: () => openApiDocument, trackerScript: prepareAsset(trackerScript), publicBaseUrl },
  );

  const app = new Koa<RequestState>();
  app.silent = true;
  app.proxy = options.trustProxy > 0;
  app.maxIpsCount = options.trustProxy;
  app.on('error', (err: unknown) => {
    logger.error('koa error outside a request', { errorName: err instanceof Error ? err.name : typeof err });
  });
  app.use(requestId(ids, logger));
  app.use(accessLog(logger, metrics));
  app.use(closeWhenBodyUnread());
  app.use(errorHandler(logger, metrics));
  app.use(routeFallback((path) => switchedOff(path, options)));
  app.use(router.routes());
  app.use(router.allowedMethods());
  return { app, router };
};
