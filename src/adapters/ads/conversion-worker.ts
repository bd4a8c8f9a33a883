import type { ConversionNudge } from '../../application/conversions/conversion-nudge';
import type { ConversionReport } from '../../application/conversions/send-conversions';
import type { BackgroundWorker } from '../../application/ports/background-worker';
import type { ClaimedConversion } from '../../application/ports/conversion-repository';
import type { Logger } from '../../application/ports/logger';
import type { UseCases } from '../../application/use-cases';
import { Doorbell } from '../system/doorbell';
import { failure, RepeatedFailureLog } from '../system/repeated-failure-log';

export interface ConversionWorkerSettings {
  /** AD_CONVERSIONS_CONCURRENCY: the most requests to the platforms in flight in this process. */
  readonly concurrency: number;
  /** How often the store is looked at without a nudge (retries falling due, other instances' relays). */
  readonly pollIntervalMs: number;
  /** How often deliveries past their 30 days are deleted (MongoDB's TTL index does it too). Default 1 h. */
  readonly purgeEveryMs?: number;
}

/** The nudges of the use cases, as the doorbell of the sending loop. */
export class ConversionDoorbell implements ConversionNudge {
  readonly bell = new Doorbell();

  conversionsDue(): void {
    this.bell.ring();
  }
}

/**
 * The most requests one dashboard may have in flight in this process: half the slots (at least one),
 * so that a dashboard whose platform is slow or hangs holds at most half of them, and the other
 * dashboards' conversions keep being sent by the other half.
 */
export const perDashboardLimit = (concurrency: number): number => Math.max(1, Math.floor(concurrency / 2));

/**
 * The conversion senders of the process: claims due deliveries and sends them side by side, at most
 * AD_CONVERSIONS_CONCURRENCY at once and half of them per dashboard. They have slots of their own,
 * apart from the webhook workers', so a platform that hangs delays no webhook. At the shutdown
 * deadline the requests in flight are cut off and handed back, due as they were.
 */
export class ConversionWorker implements BackgroundWorker {
  readonly name = 'ad-conversions';
  private running = false;
  private loop: Promise<void> = Promise.resolve();
  private readonly inFlight = new Map<Promise<void>, string>();
  private readonly cutOff = new AbortController();
  private purgeTimer: NodeJS.Timeout | undefined;
  private readonly claimFailures: RepeatedFailureLog;

  constructor(
    private readonly useCases: Pick<UseCases, 'sendConversions'>,
    private readonly doorbell: ConversionDoorbell,
    private readonly settings: ConversionWorkerSettings,
    private readonly logger: Logger,
    /** Told of every claimed delivery's outcome (tests wait for them). */
    private readonly onAttempt: (report: ConversionReport) => void = () => undefined,
  ) {
    this.claimFailures = new RepeatedFailureLog(logger, 'claiming conversions');
  }

  start(): void {
    this.running = true;
    // The loop catches what its claims throw; anything else is logged here rather than left unhandled
    // until stop awaits it.
    this.loop = this.claimLoop().catch((err: unknown) => this.logger.error('the conversion loop stopped', failure(err)));
    this.purge();
    this.purgeTimer = setInterval(() => this.purge(), this.settings.purgeEveryMs ?? 3_600_000);
  }

  async stop(deadline: AbortSignal): Promise<void> {
    this.running = false;
    clearInterval(this.purgeTimer);
    this.doorbell.bell.ring();
    const cut = (): void => this.cutOff.abort();
    if (deadline.aborted) cut();
    else deadline.addEventListener('abort', cut, { once: true });
    await this.loop;
    await Promise.allSettled([...this.inFlight.keys()]);
    deadline.removeEventListener('abort', cut);
  }

  private async claimLoop(): Promise<void> {
    const limit = perDashboardLimit(this.settings.concurrency);
    while (this.running) {
      if (this.inFlight.size < this.settings.concurrency) {
        const counts = new Map<string, number>();
        for (const dashboardId of this.inFlight.values()) counts.set(dashboardId, (counts.get(dashboardId) ?? 0) + 1);
        const busy = [...counts].filter(([, count]) => count >= limit).map(([dashboardId]) => dashboardId);
        let claimed: ClaimedConversion | undefined;
        try {
          claimed = await this.useCases.sendConversions.claim(busy);
          this.claimFailures.succeeded();
        } catch (err) {
          this.claimFailures.failed(err);
        }
        if (claimed !== undefined) {
          this.launch(claimed);
          continue;
        }
      }
      await this.doorbell.bell.wait(this.settings.pollIntervalMs);
    }
  }

  private launch(claimed: ClaimedConversion): void {
    const attempt = this.useCases.sendConversions
      .attempt(claimed, this.cutOff.signal)
      .then((report) => {
        this.report(report);
        this.onAttempt(report);
      })
      // After the report too: a throw there would otherwise wait in `inFlight` without a handler.
      .catch((err: unknown) => this.logger.error('conversion attempt failed', { deliveryId: claimed.delivery.id, ...failure(err) }))
      .finally(() => {
        this.inFlight.delete(attempt);
        this.doorbell.bell.ring();
      });
    this.inFlight.set(attempt, claimed.delivery.dashboardId);
  }

  /** Never a credential, a body or a hash: the delivery, the account, the outcome and the platform's message. */
  private report(report: ConversionReport): void {
    const { kind, deliveryId, adAccountId, dashboardId } = report;
    if (report.kind !== 'attempted') {
      this.logger.info(`conversion ${kind}`, {
        deliveryId,
        adAccountId,
        dashboardId,
        ...(report.kind === 'skipped' ? { reason: report.reason } : {}),
      });
      return;
    }
    const { result } = report;
    const fields = {
      deliveryId,
      adAccountId,
      dashboardId,
      platform: report.platform,
      outcome: result.kind,
      status: report.status,
      durationMs: report.durationMs,
      ...(result.status === undefined ? {} : { responseStatus: result.status }),
      ...(result.kind === 'accepted' ? {} : { message: result.message }),
      ...(report.recorded ? {} : { recorded: false }),
    };
    if (result.kind === 'accepted') this.logger.info('conversion sent', fields);
    else this.logger.warn('conversion not accepted', fields);
  }

  private purge(): void {
    this.useCases.sendConversions
      .purgeExpired()
      .then((purged) => {
        if (purged > 0) this.logger.info('conversions past their 30 days deleted', { purged });
      })
      .catch((err: unknown) => this.logger.error('deleting old conversions failed', failure(err)));
  }
}
