export type LogFields = Readonly<Record<string, string | number | boolean | undefined>>;

/**
 * Structured logging. Callers pass plain fields; never a token, a request body or a stack trace
 * (decision 0011). `time`, `level` and `msg` are the logger's own keys, not fields.
 */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /**
   * Runs `run` and returns what it returns. Every line written by `run` and by everything it awaits
   * or schedules carries `fields`, whoever writes it: a storage adapter that got its logger at
   * start-up included. A field passed to the log call wins over the same field of the context, and
   * the line holds it once; a nested context adds to the one around it.
   */
  withContext<T>(fields: LogFields, run: () => T): T;
  /**
   * Resolves once every line written so far has reached its destination; the process calls it before
   * it exits, since lines may be written asynchronously. Never rejects: losing the log must not
   * change how the process ends.
   */
  flush(): Promise<void>;
}
