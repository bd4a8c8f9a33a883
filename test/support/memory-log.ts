import { JsonLogger } from '../../src/adapters/logging/json-logger';

/** A real JsonLogger writing into an array, so tests can read what would reach stdout. */
export const memoryLogger = (): { logger: JsonLogger; lines: string[] } => {
  const lines: string[] = [];
  return { logger: new JsonLogger('debug', (line) => lines.push(line)), lines };
};
