import type { LogFields, Logger } from '../../application/ports/logger';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/** One JSON object per line, on a sink that defaults to stdout. */
export class JsonLogger implements Logger {
  constructor(
    private readonly level: LogLevel,
    private readonly sink: (line: string) => void = (line) => process.stdout.write(line + '\n'),
  ) {}

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

  private write(level: Exclude<LogLevel, 'silent'>, message: string, fields: LogFields = {}): void {
    if (RANK[level] < RANK[this.level]) return;
    this.sink(JSON.stringify({ time: new Date().toISOString(), level, msg: message, ...fields }));
  }
}
