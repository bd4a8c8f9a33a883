import { sinkDestination } from '../../src/adapters/logging/log-destinations';
import { PinoLogger } from '../../src/adapters/logging/pino-logger';

/** A real PinoLogger writing each line into an array as it is logged, so tests can read what would reach stdout. */
export const memoryLogger = (): { logger: PinoLogger; lines: string[] } => {
  const lines: string[] = [];
  return {
    logger: new PinoLogger(
      'debug',
      sinkDestination((line) => lines.push(line)),
    ),
    lines,
  };
};
