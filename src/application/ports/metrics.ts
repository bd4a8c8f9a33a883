import type { AttemptReport } from '../webhooks/deliver-webhooks';

/**
 * What the service counts for its operators (Prometheus, GET /metrics on METRICS_PORT). Adapters
 * report through it as things happen; an implementation must be cheap and never throw.
 */
export interface Metrics {
  /** One HTTP request answered: the route pattern (`(unmatched)` when none), method, status, seconds. */
  request(route: string, method: string, status: number, seconds: number): void;
  /** A request refused by its token's rate limit (429). */
  rateLimited(): void;
  /** A request that failed because the store could not be reached (503). */
  storeUnavailable(): void;
  /** What became of one webhook delivery the workers took up. */
  webhookAttempt(report: AttemptReport): void;
}
