export type LogFields = Readonly<Record<string, string | number | boolean | undefined>>;

/**
 * Structured logging. Callers pass plain fields; never a token, a request body or a stack trace
 * (DECISIONS D11).
 */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

export const LOGGER = Symbol('Logger');
