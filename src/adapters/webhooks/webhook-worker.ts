import type { AttemptReport } from '../../application/webhooks/deliver-webhooks';
import type { BackgroundWorker } from '../../application/ports/background-worker';
import type { ClaimedDelivery } from '../../application/ports/delivery-repository';
import type { Logger } from '../../application/ports/logger';
import type { UseCases } from '../../application/use-cases';
import type { WebhookDoorbells } from './doorbell';
import { ClaimPool, keysAtLeast, perDashboardLimit } from '../system/claim-pool';
import { PeriodicPurge } from '../system/periodic-purge';
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
 * The most attempts one endpoint may have in flight in this process: half of its dashboard's share
 * (at least one), so that a slow endpoint leaves its dashboard's other endpoints the other half.
 */
export const perEndpointLimit = (concurrency: number): number => Math.max(1, Math.floor(perDashboardLimit(concurrency) / 2));

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
  private relay: Promise<void> = Promise.resolve();
  private readonly deliveries: ClaimPool<ClaimedDelivery, AttemptReport>;
  private readonly purge: PeriodicPurge;
  private readonly relayFailures: RepeatedFailureLog;

  constructor(
    private readonly useCases: Pick<UseCases, 'relayOrderEvents' | 'deliverWebhooks'>,
    private readonly doorbells: WebhookDoorbells,
    private readonly settings: WebhookWorkerSettings,
    private readonly logger: Logger,
    /** Told of every claimed delivery's outcome (metrics will count them). */
    onAttempt: (report: AttemptReport) => void = () => undefined,
    /** The time, in ms, for spacing out the lines of a failure that repeats at every poll. */
    now: () => number = Date.now,
  ) {
    this.relayFailures = new RepeatedFailureLog(logger, 'webhook relay', now);
    const { concurrency } = settings;
    this.deliveries = new ClaimPool(
      settings,
      doorbells.delivery,
      {
        claim: async (inFlight) => {
          const busy = {
            endpoints: keysAtLeast(
              inFlight.map(({ delivery }) => delivery.endpointId),
              perEndpointLimit(concurrency),
            ),
            dashboards: keysAtLeast(
              inFlight.map(({ delivery }) => delivery.dashboardId),
              perDashboardLimit(concurrency),
            ),
          };
          const [claimed] = await useCases.deliverWebhooks.claim(1, busy);
          return claimed;
        },
        run: (claimed, cutOff) => useCases.deliverWebhooks.attempt(claimed, cutOff),
        report: (report) => {
          this.report(report);
          onAttempt(report);
        },
        runFailed: (claimed, err) => this.logger.error('webhook attempt failed', { deliveryId: claimed.delivery.id, ...failure(err) }),
        claiming: 'claiming webhook deliveries',
        loopStopped: 'a webhook worker loop stopped',
      },
      logger,
      now,
    );
    this.purge = new PeriodicPurge(
      () => useCases.deliverWebhooks.purgeExpired(),
      settings.purgeEveryMs ?? 3_600_000,
      logger,
      'webhook deliveries',
    );
  }

  start(): void {
    this.running = true;
    // The relay loop catches what its store calls throw; anything else is logged here rather than
    // left unhandled until stop awaits it.
    this.relay = this.relayLoop().catch((err: unknown) => this.logger.error('a webhook worker loop stopped', failure(err)));
    this.deliveries.start();
    this.purge.start();
  }

  async stop(deadline: AbortSignal): Promise<void> {
    this.running = false;
    this.purge.stop();
    this.doorbells.relay.ring();
    await Promise.all([this.relay, this.deliveries.stop(deadline)]);
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
}
