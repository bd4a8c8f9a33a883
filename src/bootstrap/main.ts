import 'reflect-metadata';
import { JsonLogger } from '../adapters/logging/json-logger';
import { loadConfig } from './config';
import { startService } from './service';

/** Starts the service; SIGTERM or SIGINT stop it gracefully and exit 0 (DECISIONS D11). */
const main = async (): Promise<void> => {
  const loaded = loadConfig(process.env);
  if (!loaded.ok) {
    for (const problem of loaded.problems) process.stderr.write(`invalid configuration: ${problem}\n`);
    process.exit(1);
  }
  const logger = new JsonLogger(loaded.config.logLevel);
  const service = await startService(loaded.config, { logger });
  const shutdown = (signal: string): void => {
    logger.info('shutting down', { signal });
    service.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error('shutdown failed', { errorName: err instanceof Error ? err.name : typeof err });
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
};

main().catch((err: unknown) => {
  process.stderr.write(`orders service failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
