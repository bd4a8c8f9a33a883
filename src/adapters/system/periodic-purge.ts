import type { Logger } from '../../application/ports/logger';
import { failure } from './repeated-failure-log';

/** Deletes what is past its 30 days at start and then every `everyMs`, logging what it deleted. */
export class PeriodicPurge {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    /** Deletes what has expired, answering how many. */
    private readonly purgeExpired: () => Promise<number>,
    private readonly everyMs: number,
    private readonly logger: Logger,
    /** What is deleted, as the log says it: `conversions`, `webhook deliveries`. */
    private readonly what: string,
  ) {}

  start(): void {
    this.purge();
    this.timer = setInterval(() => this.purge(), this.everyMs);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private purge(): void {
    this.purgeExpired()
      .then((purged) => {
        if (purged > 0) this.logger.info(`${this.what} past their 30 days deleted`, { purged });
      })
      .catch((err: unknown) => this.logger.error(`deleting old ${this.what} failed`, failure(err)));
  }
}
