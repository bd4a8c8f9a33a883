import type { Server } from 'node:http';
import type { BackgroundWorker } from '../application/ports/background-worker';
import type { Clock } from '../application/ports/clock';
import type { IdGenerator } from '../application/ports/id-generator';
import type { Logger } from '../application/ports/logger';
import type { PasswordHasher } from '../application/ports/password-hasher';
import type { SlugGenerator } from '../application/ports/slug-generator';
import type { Storage } from '../application/ports/storage';
import { createHttpApp } from '../adapters/http/app';
import { registerConsole } from '../adapters/console/console';
import { HeavyRequestTurns } from '../adapters/system/heavy-request-turns';
import { DASHBOARD_SHARE, DashboardShares } from '../adapters/system/dashboard-shares';
import { createHttpServer, listen, type SharedHttpServer } from '../adapters/http/kit/server';
import { listenForMetrics, PrometheusMetrics } from '../adapters/metrics/prometheus-metrics';
import { asyncFileDestination } from '../adapters/logging/log-destinations';
import { PinoLogger } from '../adapters/logging/pino-logger';
import type { AttemptReport } from '../application/webhooks/deliver-webhooks';
import { WebhookDoorbells } from '../adapters/webhooks/doorbell';
import type { Resolver } from '../adapters/webhooks/outbound-addresses';
import { WebhookWorker } from '../adapters/webhooks/webhook-worker';
import { AdSyncDoorbell, AdSyncWorker } from '../adapters/ads/ad-sync-worker';
import { ConversionDoorbell, ConversionWorker } from '../adapters/ads/conversion-worker';
import type { ConversionReport } from '../application/conversions/send-conversions';
import type { AdSyncReport } from '../application/ads/sync-ad-accounts';
import type { AdPlatformSettings } from '../adapters/ads/registry';
import type { Config } from './config';
import { adsWiringOf, compose, configuredWiring } from './composition';
import { openStorage } from './open-storage';
import { readTrackerScript } from './tracker-script';

export interface RunningService {
  readonly server: Server;
  /** `http://host:port`, with the port actually bound (PORT=0 picks a free one). */
  readonly url: string;
  /** Where GET /metrics answers, when METRICS_PORT is set. */
  readonly metricsUrl?: string;
  readonly storage: Storage;
  /**
   * Stops in the shutdown order: stop accepting connections and taking new work, let the requests and
   * the work in flight finish within SHUTDOWN_TIMEOUT_MS (then cut them off), close storage, then
   * flush the log.
   */
  stop(): Promise<void>;
}

export interface ServiceOverrides {
  readonly logger?: Logger;
  readonly clock?: Clock;
  readonly ids?: IdGenerator;
  readonly slugs?: SlugGenerator;
  readonly storage?: Storage;
  /** Background work to run beside the webhook workers (tests add their own). */
  readonly workers?: readonly BackgroundWorker[];
  /** Resolves the host names of webhook URLs instead of the system's resolver (tests, without the network). */
  readonly resolver?: Resolver;
  /** Told of every webhook attempt (tests count them). */
  readonly onWebhookAttempt?: (report: AttemptReport) => void;
  /** Hashes passwords instead of scrypt at OWASP's cost (tests, cheaper); bounded all the same. */
  readonly passwords?: PasswordHasher;
  /** The turns of heavy requests instead of new ones from the configuration (tests, to watch them). */
  readonly heavyTurns?: HeavyRequestTurns;
  readonly shares?: DashboardShares;
  /** Told of every ad account sync (tests wait for them). */
  readonly onAdSync?: (report: AdSyncReport) => void;
  /** Told of every conversion sent or not (tests wait for them). */
  readonly onConversion?: (report: ConversionReport) => void;
  /** Shorter waits on the ad platforms' rate limits and outages (tests). */
  readonly adPlatformClient?: AdPlatformSettings['client'];
  /**
   * Takes its requests from this server instead of listening on `config.host:config.port` (tests:
   * one port and its keep-alive connections for every service a run starts).
   */
  readonly sharedServer?: SharedHttpServer;
}

/** Starts the HTTP service on `config.host:config.port`, then its background workers. */
export const startService = async (config: Config, overrides: ServiceOverrides = {}): Promise<RunningService> => {
  const logger = overrides.logger ?? new PinoLogger(config.logLevel, asyncFileDestination());
  const trackerScript = readTrackerScript();
  const storage = overrides.storage ?? (await openStorage(config, logger));
  logger.info(`orders service starting on the ${storage.description}`, {
    transitionsFile: config.transitionsFile ?? '(none: every status change is refused)',
  });
  const doorbells = new WebhookDoorbells();
  const adDoorbell = new AdSyncDoorbell();
  const conversionDoorbell = new ConversionDoorbell();
  const ads = adsWiringOf(config);
  const { useCases, ids, webhookSender } = compose({
    ...configuredWiring(config),
    storage,
    webhooks: { ...config.webhooks, resolver: overrides.resolver, nudge: doorbells },
    clock: overrides.clock,
    ids: overrides.ids,
    slugs: overrides.slugs,
    passwords: overrides.passwords,
    ads: {
      ...ads,
      platforms: { ...ads.platforms, client: overrides.adPlatformClient },
      nudge: adDoorbell,
      conversionNudge: conversionDoorbell,
    },
  });
  const metrics = new PrometheusMetrics(() => storage.outbox.backlog(), storage.longestWriteMs);
  const onAttempt = (report: AttemptReport): void => {
    metrics.webhookAttempt(report);
    overrides.onWebhookAttempt?.(report);
  };
  const webhookWorker = new WebhookWorker(useCases, doorbells, config.webhooks, logger, onAttempt);
  const adSyncWorker = new AdSyncWorker(
    useCases,
    adDoorbell,
    { concurrency: config.ads.syncConcurrency, pollIntervalMs: config.ads.pollIntervalMs },
    logger,
    overrides.onAdSync,
  );
  const conversionWorker = new ConversionWorker(
    useCases,
    conversionDoorbell,
    { concurrency: config.ads.conversionConcurrency, pollIntervalMs: config.ads.conversionPollIntervalMs },
    logger,
    overrides.onConversion,
  );
  const workers = [webhookWorker, adSyncWorker, conversionWorker, ...(storage.workers ?? []), ...(overrides.workers ?? [])];
  const workerStates = new Map<string, 'running' | 'stopping' | 'stopped'>(workers.map((worker) => [worker.name, 'stopped']));
  let draining = false;
  const storeState = async (): Promise<'up' | 'read-only' | 'down'> => {
    if (!(await storage.health.ping())) return 'down';
    return (await storage.health.canWrite()) ? 'up' : 'read-only';
  };
  const readiness = async () => ({ draining, components: { store: await storeState(), workers: Object.fromEntries(workerStates) } });
  // Known once the port is bound (PORT=0 picks one); no request arrives before.
  let publicBaseUrl = config.publicBaseUrl ?? '';
  const heavyTurns = overrides.heavyTurns ?? new HeavyRequestTurns(config.heavyRequests);
  const shares = overrides.shares ?? new DashboardShares(DASHBOARD_SHARE);
  const { app, router } = createHttpApp(
    { useCases, readiness, logger, ids, metrics, trackerScript, publicBaseUrl: () => publicBaseUrl, heavyTurns, shares },
    {
      bodyLimitBytes: config.bodyLimitBytes,
      batchBodyLimitBytes: config.batchBodyLimitBytes,
      adminToken: config.adminToken,
      consoleOff: !config.console,
      trustProxy: config.trustProxy,
    },
  );
  if (config.console)
    registerConsole(router, {
      useCases,
      logger,
      publicBaseUrl: () => publicBaseUrl,
      configuredBaseUrl: config.publicBaseUrl,
      heavyTurns,
      shares,
    });
  const serving =
    overrides.sharedServer?.attach(app) ?? (await listen(createHttpServer(app, config.http, ids, logger), config.host, config.port));
  const { server, url } = serving;
  publicBaseUrl = config.publicBaseUrl ?? url;
  logger.info('listening', { url, publicBaseUrl, ...(config.console ? { console: `${publicBaseUrl}/console` } : {}) });
  let metricsListener: Awaited<ReturnType<typeof listenForMetrics>> | undefined;
  try {
    if (config.metricsPort !== undefined)
      metricsListener = await listenForMetrics(metrics.registry, config.metricsHost ?? config.host, config.metricsPort);
  } catch (err) {
    // A start that fails half-way leaves nothing open behind it.
    await serving.close();
    await storage.health.close();
    throw err;
  }
  if (metricsListener !== undefined) logger.info('metrics listening', { url: metricsListener.url });
  for (const worker of workers) {
    worker.start();
    workerStates.set(worker.name, 'running');
    logger.info('worker started', { worker: worker.name });
  }

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      // /readyz answers 503 from now on; for SHUTDOWN_READINESS_DELAY_MS the service still serves
      // everything, so that a load balancer that polls readiness stops sending before the port closes.
      draining = true;
      if (config.shutdownReadinessDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, config.shutdownReadinessDelayMs));
      const deadline = new AbortController();
      const timer = setTimeout(() => {
        serving.cutOff();
        deadline.abort();
      }, config.shutdownTimeoutMs);
      const deadlinePassed = new Promise<void>((resolve) => deadline.signal.addEventListener('abort', () => resolve()));
      const closed = serving.close();
      const workersStopped = Promise.allSettled(
        workers.map(async (worker) => {
          workerStates.set(worker.name, 'stopping');
          await worker.stop(deadline.signal);
          workerStates.set(worker.name, 'stopped');
        }),
      ).then((results) => {
        results.forEach((result, index) => {
          if (result.status === 'rejected') logger.error('worker failed to stop', { worker: workers[index].name });
        });
      });
      await closed;
      // A worker that ignores the deadline must not keep storage open forever.
      await Promise.race([workersStopped, deadlinePassed]);
      clearTimeout(timer);
      webhookSender.close();
      await storage.health.close();
      if (metricsListener !== undefined) {
        const { server: listener } = metricsListener;
        listener.closeAllConnections();
        await new Promise((resolve) => listener.close(resolve));
      }
      logger.info('stopped');
      await logger.flush();
    })());
  return { server, url, metricsUrl: metricsListener?.url, storage, stop };
};
