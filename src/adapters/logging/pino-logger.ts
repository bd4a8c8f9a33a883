import { AsyncLocalStorage } from 'node:async_hooks';
import { pino, type Logger as Pino } from 'pino';
import type { LogFields, Logger } from '../../application/ports/logger';
import type { LogDestination } from './log-destinations';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Defence in depth: no caller logs an Authorization header (decision 0011), but if one ever did, its
 * value would not reach the logs. The port's fields are flat (`LogFields` holds no objects), so the
 * top level is all there is; a wildcard path would make pino run the redactor over every field of
 * every line (measured: +70% of the logger's cost).
 */
const REDACTED = ['authorization', 'Authorization'];

/**
 * The fields of `withContext`, shared by every PinoLogger: a line written during a request carries
 * the request's fields even when its writer was given another instance (a store opened on its own).
 */
const context = new AsyncLocalStorage<LogFields>();

/**
 * The Logger port over pino. Lines keep the service's format: one JSON object per line with `level`
 * as its label, `time` in ISO 8601, `msg`, then the fields; no pid or hostname.
 */
export class PinoLogger implements Logger {
  private readonly pino: Pino;

  constructor(
    level: LogLevel,
    private readonly destination: LogDestination,
  ) {
    this.pino = pino(
      {
        level,
        base: undefined,
        timestamp: pino.stdTimeFunctions.isoTime,
        formatters: { level: (label) => ({ level: label }) },
        redact: { paths: REDACTED, censor: '[Redacted]' },
      },
      destination.stream,
    );
  }

  debug(message: string, fields?: LogFields): void {
    this.write('debug', message, fields);
  }

  info(message: string, fields?: LogFields): void {
    this.write('info', message, fields);
  }

  warn(message: string, fields?: LogFields): void {
    this.write('warn', message, fields);
  }

  error(message: string, fields?: LogFields): void {
    this.write('error', message, fields);
  }

  withContext<T>(fields: LogFields, run: () => T): T {
    return context.run({ ...context.getStore(), ...fields }, run);
  }

  flush(): Promise<void> {
    return this.destination.flush();
  }

  private write(level: Exclude<LogLevel, 'silent'>, message: string, fields?: LogFields): void {
    if (!this.pino.isLevelEnabled(level)) return;
    // One object, so that a field both in the context and in the call is written once (pino writes a
    // child logger's bindings and the call's fields side by side); `msg` first, where it always was.
    const line: Record<string, unknown> = { msg: message, ...context.getStore() };
    for (const key in fields) {
      // An undefined field is no field: it must not erase the context's (a request's id, say).
      if (fields[key] !== undefined) line[key] = fields[key];
    }
    this.pino[level](line);
  }
}
