// First: an older Node stops here with one line, before a native module can crash it.
import './node-preflight';
import 'reflect-metadata';
import { asyncFileDestination } from '../adapters/logging/log-destinations';
import { PinoLogger } from '../adapters/logging/pino-logger';
import { loadConfig } from './config';
import { startService } from './service';

const loaded = loadConfig(process.env);
if (!loaded.ok) {
  for (const problem of loaded.problems) process.stderr.write(`invalid configuration: ${problem}\n`);
  process.exit(1);
}
const logger = new PinoLogger(loaded.config.logLevel, asyncFileDestination());

/**
 * The last line behind every handler of the code: a promise rejected with nobody to handle it is
 * logged and the process goes on serving the other requests and dashboards. The line names the
 * error and its code only: a message may quote a body or a value. One that reaches here is a bug to
 * fix; the tests run without this net, so that there it fails the run.
 */
process.on('unhandledRejection', (reason: unknown) => {
  const code = (reason as { code?: unknown } | null)?.code;
  logger.error('unhandled rejection', {
    errorName: reason instanceof Error ? reason.name : typeof reason,
    ...(typeof code === 'string' || typeof code === 'number' ? { errorCode: code } : {}),
  });
});

/** Log lines leave asynchronously: the last ones are still on their way when the process decides to end. */
const exit = (code: number): Promise<never> => logger.flush().then(() => process.exit(code));

/**
 * Starts the service; SIGTERM or SIGINT stop it gracefully and exit 0 (decision 0011). The signals are
 * taken before the start, so one that arrives while storage opens or the port is bound waits for the
 * start to finish and then stops the service, instead of killing the process half-started.
 */
const main = (): void => {
  const starting = startService(loaded.config, { logger });
  const shutdown = (signal: string): void => {
    logger.info('shutting down', { signal });
    starting
      .then((service) => service.stop())
      .then(
        () => exit(0),
        (err: unknown) => {
          logger.error('shutdown failed', { errorName: err instanceof Error ? err.name : typeof err });
          return exit(1);
        },
      );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
  starting.catch((err: unknown) => {
    process.stderr.write(`orders service failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
    return exit(1);
  });
};

main();
