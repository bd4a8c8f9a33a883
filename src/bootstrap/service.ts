import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BackgroundWorker } from '../application/ports/background-worker';
import type { Clock } from '../application/ports/clock';
import type { IdGenerator } from '../application/ports/id-generator';
import type { Logger } from '../application/ports/logger';
import type { Storage } from '../application/ports/storage';
import { createHttpApp } from '../adapters/http/app';
import { createHttpServer } from '../adapters/http/server';
import { asyncFileDestination } from '../adapters/logging/log-destinations';
import { PinoLogger } from '../adapters/logging/pino-logger';
import type { AttemptReport } from '../application/deliver-webhooks';
import { WebhookDoorbells } from '../adapters/webhooks/doorbell';
import type { Resolver } from '../adapters/webhooks/outbound-addresses';
import { WebhookWorker } from '../adapters/webhooks/webhook-worker';
import type { Config } from './config';
import { compose } from './container';
import { openStorage } from './open-storage';

export interface RunningService {
  readonly server: Server;
  /** `http://host:port`, with the port actually bound (PORT=0 picks a free one). */
  readonly url: string;
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
  readonly storage?: Storage;
  /** Background work to run beside the webhook workers (tests add their own). */
  readonly workers?: readonly BackgroundWorker[];
  /** Resolves the host names of webhook URLs instead of the system's resolver (tests, without the network). */
  readonly resolver?: Resolver;
  /** Told of every webhook attempt (tests count them). */
  readonly onWebhookAttempt?: (report: AttemptReport) => void;
}

/** Starts the HTTP service on `config.host:config.port`, then its background workers. */
export const startService = async (config: Config, overrides: ServiceOverrides = {}): Promise<RunningService> => {
  const logger = overrides.logger ?? new PinoLogger(config.logLevel, asyncFileDestination());
  const storage = overrides.storage ?? (await openStorage(config, logger));
  logger.info(`orders service starting on the ${storage.description}`, {
    transitionsFile: config.transitionsFile ?? '(none: every status change is refused)',
  });
  const doorbells = new WebhookDoorbells();
  const { useCases, ids, webhookSender } = compose({
    storage,
    logger,
    transitions: config.transitions,
    rateLimit: { max: config.rateLimitMax, windowSeconds: config.rateLimitWindowSeconds },
    idempotency: { ttlMs: config.idempotencyTtlSeconds * 1000, leaseMs: config.idempotencyLeaseSeconds * 1000 },
    webhooks: { ...config.webhooks, resolver: overrides.resolver, nudge: doorbells },
    clock: overrides.clock,
    ids: overrides.ids,
  });
  const { app } = createHttpApp({ useCases, health: storage.health, logger, ids }, { bodyLimitBytes: config.bodyLimitBytes, adminToken: config.adminToken });
  const server = createHttpServer(app, config.http, ids, logger);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { address, port } = server.address() as AddressInfo;
  const url = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  logger.info('listening', { url });
  const webhookWorker = new WebhookWorker(useCases, doorbells, config.webhooks, logger, overrides.onWebhookAttempt);
  const workers = [webhookWorker, ...(overrides.workers ?? [])];
  for (const worker of workers) {
    worker.start();
    logger.info('worker started', { worker: worker.name });
  }

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      const deadline = new AbortController();
      const timer = setTimeout(() => {
        server.closeAllConnections();
        deadline.abort();
      }, config.shutdownTimeoutMs);
      const deadlinePassed = new Promise<void>((resolve) => deadline.signal.addEventListener('abort', () => resolve()));
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const workersStopped = Promise.allSettled(workers.map((worker) => worker.stop(deadline.signal))).then((results) => {
        results.forEach((result, index) => {
          if (result.status === 'rejected') logger.error('worker failed to stop', { worker: workers[index]!.name });
        });
      });
      await closed;
      // A worker that ignores the deadline must not keep storage open forever.
      await Promise.race([workersStopped, deadlinePassed]);
      clearTimeout(timer);
      webhookSender.close();
      await storage.health.close();
      logger.info('stopped');
      await logger.flush();
    })());
  return { server, url, storage, stop };
};
