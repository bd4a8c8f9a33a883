import type { AttemptReport } from '../../application/webhooks/deliver-webhooks';
import type { BackgroundWorker } from '../../application/ports/background-worker';
import type { ClaimedDelivery } from '../../application/ports/delivery-repository';
import type { Logger } from '../../application/ports/logger';
import type { UseCases } from '../../application/use-cases';
import type { WebhookDoorbells } from './doorbell';
import { failure, RepeatedFailureLog } from '../system/repeated-failure-log';

export interface WebhookWorkerSettings {
  /** WEBHOOK_CONCURRENCY: the most attempts in flight in this process. */
  readonly concurrency: number;
  /** WEBHOOK_POLL_INTERVAL_MS: how often the store is looked at without a nudge (other instances' work, retries falling due). */
  readonly pollIntervalMs: number;
  /** How many orders' outboxes one relay step takes. Default 100. */
  readonly relayBatch?: number;
  /** How often deliveries past their 30 days are deleted (MongoDB's TTL index does it too). Default 1 h. */
  readonly purgeEveryMs?: number;
}

/**
 * The most attempts one dashboard may have in flight in this process: half the slots (at least one),
 * so that a dashboard whose endpoints are slow or hang (answering only at WEBHOOK_TIMEOUT_MS, if
 * ever) holds at most half of them, and another dashboard's due delivery finds a slot free at once.
 */
export const perDashboardLimit = (concurrency: number): number => Math.max(1, Math.floor(concurrency / 2));

/**
 * The most attempts one endpoint may have in flight in this process: half of its dashboard's share
 * (at least one), so that a slow endpoint leaves its dashboard's other endpoints the other half.
 */
export const perEndpointLimit = (concurrency: number): number => Math.max(1, Math.floor(perDashboardLimit(concurrency) / 2));

/** Counts of attempts in flight by key, a key dropped at zero. */
class InFlightCounts {
  private readonly counts = new Map<string, number>();

  add(key: string): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  remove(key: string): void {
    const left = (this.counts.get(key) ?? 1) - 1;
    if (left === 0) this.counts.delete(key);
    else this.counts.set(key, left);
  }

  /** The keys with `limit` or more in flight. */
  atLeast(limit: number): string[] {
    return [...this.counts].filter(([, count]) => count >= limit).map(([key]) => key);
  }
}

/**
 * The webhook workers of the process (decision 0012): the relay turns outbox events into deliveries,
 * the delivery loop runs due attempts side by side (WEBHOOK_CONCURRENCY in flight, at most half of
 * them for one dashboard, half of that for one endpoint). Each loop runs at once when nudged and
 * otherwise polls. At the shutdown deadline the attempts in flight are cut off and handed back, due
 * as they were, to whichever instance claims them.
 */
export class WebhookWorker implements BackgroundWorker {
  readonly name = 'webhooks';
  private running = false;
  private loops: Promise<void>[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private readonly perEndpoint = new InFlightCounts();
  private readonly perDashboard = new InFlightCounts();
  private readonly cutOff = new AbortController();
  private purgeTimer: NodeJS.Timeout | undefined;
  private readonly relayFailures: RepeatedFailureLog;
  private readonly claimFailures: RepeatedFailureLog;

  constructor(
    private readonly useCases: Pick<UseCases, 'relayOrderEvents' | 'deliverWebhooks'>,
    private readonly doorbells: WebhookDoorbells,
    private readonly settings: WebhookWorkerSettings,
    private readonly logger: Logger,
    /** Told of every claimed delivery's outcome (metrics will count them). */
    private readonly onAttempt: (report: AttemptReport) => void = () => undefined,
    /** The time, in ms, for spacing out the lines of a failure that repeats at every poll. */
    now: () => number = Date.now,
  ) {
    this.relayFailures = new RepeatedFailureLog(logger, 'webhook relay', now);
    this.claimFailures = new RepeatedFailureLog(logger, 'claiming webhook deliveries', now);
  }

  start(): void {
    this.running = true;
    // Each loop catches what its store calls throw; anything else is logged here rather than left
    // unhandled until stop awaits the loops.
    this.loops = [this.relayLoop(), this.deliveryLoop()].map((loop) =>
      loop.catch((err: unknown) => this.logger.error('a webhook worker loop stopped', failure(err))),
    );
    this.purge();
    this.purgeTimer = setInterval(() => this.purge(), this.settings.purgeEveryMs ?? 3_600_000);
  }

  async stop(deadline: AbortSignal): Promise<void> {
    this.running = false;
    clearInterval(this.purgeTimer);
    this.doorbells.relay.ring();
    this.doorbells.delivery.ring();
    const cut = (): void => this.cutOff.abort();
    if (deadline.aborted) cut();
    else deadline.addEventListener('abort', cut, { once: true });
    await Promise.all(this.loops);
    await Promise.allSettled([...this.inFlight]);
    deadline.removeEventListener('abort', cut);
  }

  private async relayLoop(): Promise<void> {
    while (this.running) {
      try {
        const relayed = await this.useCases.relayOrderEvents.execute(this.settings.relayBatch ?? 100);
        this.relayFailures.succeeded();
        if (relayed > 0) continue;
      } catch (err) {
        this.relayFailures.failed(err);
      }
      await this.doorbells.relay.wait(this.settings.pollIntervalMs);
    }
  }

  private async deliveryLoop(): Promise<void> {
    const { concurrency } = this.settings;
    while (this.running) {
      let claimed: readonly ClaimedDelivery[] = [];
      if (this.inFlight.size < concurrency) {
        const busy = {
          endpoints: this.perEndpoint.atLeast(perEndpointLimit(concurrency)),
          dashboards: this.perDashboard.atLeast(perDashboardLimit(concurrency)),
        };
        try {
          claimed = await this.useCases.deliverWebhooks.claim(1, busy);
          this.claimFailures.succeeded();
        } catch (err) {
          this.claimFailures.failed(err);
        }
        for (const delivery of claimed) this.launch(delivery);
        if (claimed.length > 0) continue;
      }
      await this.doorbells.delivery.wait(this.settings.pollIntervalMs);
    }
  }

  private launch(claimed: ClaimedDelivery): void {
    const { endpointId, dashboardId } = claimed.delivery;
    this.perEndpoint.add(endpointId);
    this.perDashboard.add(dashboardId);
    const attempt = this.useCases.deliverWebhooks
      .attempt(claimed, this.cutOff.signal)
      .then((report) => {
        this.report(report);
        this.onAttempt(report);
      })
      // After the report too: a throw there would otherwise wait in `inFlight` without a handler.
      .catch((err: unknown) => this.logger.error('webhook attempt failed', { deliveryId: claimed.delivery.id, ...failure(err) }))
      .finally(() => {
        this.perEndpoint.remove(endpointId);
        this.perDashboard.remove(dashboardId);
        this.inFlight.delete(attempt);
        this.doorbells.delivery.ring();
      });
    this.inFlight.add(attempt);
  }

  private report(report: AttemptReport): void {
    const { kind, deliveryId, endpointId } = report;
    if (report.kind !== 'attempted') {
      this.logger.info(`webhook delivery ${kind}`, { deliveryId, endpointId });
      return;
    }
    const { result } = report;
    this.logger.info('webhook attempt', {
      deliveryId,
      endpointId,
      status: report.status,
      durationMs: report.durationMs,
      ...(result.kind === 'response' ? { responseStatus: result.status } : { error: result.message }),
      ...(report.recorded ? {} : { recorded: false }),
      ...(report.disabledEndpoint ? { endpointDisabled: true } : {}),
    });
  }

  private purge(): void {
    this.useCases.deliverWebhooks
      .purgeExpired()
      .then((purged) => {
        if (purged > 0) this.logger.info('webhook deliveries past their 30 days deleted', { purged });
      })
      .catch((err: unknown) => this.logger.error('deleting old webhook deliveries failed', failure(err)));
  }
}
