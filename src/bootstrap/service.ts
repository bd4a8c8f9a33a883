import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../application/ports/clock';
import type { IdGenerator } from '../application/ports/id-generator';
import type { Logger } from '../application/ports/logger';
import { createHttpApp } from '../adapters/http/app';
import { asyncFileDestination } from '../adapters/logging/log-destinations';
import { PinoLogger } from '../adapters/logging/pino-logger';
import type { Config } from './config';
import { compose } from './container';
import { openStorage } from './open-storage';
import type { Storage } from '../application/ports/storage';

export interface RunningService {
  readonly server: Server;
  /** `http://host:port`, with the port actually bound (PORT=0 picks a free one). */
  readonly url: string;
  readonly storage: Storage;
  /** Stops accepting connections, lets requests in flight finish, closes storage, then flushes the log. */
  stop(): Promise<void>;
}

export interface ServiceOverrides {
  readonly logger?: Logger;
  readonly clock?: Clock;
  readonly ids?: IdGenerator;
  readonly storage?: Storage;
}

/** Starts the HTTP service on `config.host:config.port`. */
export const startService = async (config: Config, overrides: ServiceOverrides = {}): Promise<RunningService> => {
  const logger = overrides.logger ?? new PinoLogger(config.logLevel, asyncFileDestination());
  const storage = overrides.storage ?? (await openStorage(config, logger));
  logger.info(`orders service starting on the ${storage.description}`, {
    transitionsFile: config.transitionsFile ?? '(none: every status change is refused)',
  });
  const { useCases, ids } = compose({
    storage,
    logger,
    transitions: config.transitions,
    rateLimit: { max: config.rateLimitMax, windowSeconds: config.rateLimitWindowSeconds },
    idempotency: { ttlMs: config.idempotencyTtlSeconds * 1000, leaseMs: config.idempotencyLeaseSeconds * 1000 },
    clock: overrides.clock,
    ids: overrides.ids,
  });
  const { app } = createHttpApp({ useCases, health: storage.health, logger, ids }, { bodyLimitBytes: config.bodyLimitBytes, adminToken: config.adminToken });
  const server = app.listen(config.port, config.host);
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { address, port } = server.address() as AddressInfo;
  const url = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  logger.info('listening', { url });

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), config.shutdownTimeoutMs);
      await closed;
      clearTimeout(timer);
      await storage.health.close();
      logger.info('stopped');
      await logger.flush();
    })());
  return { server, url, storage, stop };
};
