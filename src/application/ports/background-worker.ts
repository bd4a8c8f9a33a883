/**
 * Work the service runs beside its requests (the delivery of webhooks, say), started and stopped by
 * the service's lifecycle: started once the service listens, stopped before storage is closed.
 */
export interface BackgroundWorker {
  /** Said in the logs. */
  readonly name: string;
  /** Starts taking work. Called once. */
  start(): void;
  /**
   * Stops taking new work and resolves once the work in flight is done. `deadline` aborts when the
   * shutdown timeout has passed: work still in flight must then give up promptly, leaving it in a
   * state another run can take again.
   */
  stop(deadline: AbortSignal): Promise<void>;
}
