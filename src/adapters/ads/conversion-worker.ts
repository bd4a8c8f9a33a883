import type { ConversionNudge } from '../../application/conversions/conversion-nudge';
import type { ConversionReport } from '../../application/conversions/send-conversions';
import type { BackgroundWorker } from '../../application/ports/background-worker';
import type { ClaimedConversion } from '../../application/ports/conversion-repository';
import type { Logger } from '../../application/ports/logger';
import type { UseCases } from '../../application/use-cases';
import { Doorbell } from '../system/doorbell';
import { ClaimPool, keysAtLeast, perDashboardLimit } from '../system/claim-pool';
import { PeriodicPurge } from '../system/periodic-purge';
import { failure } from '../system/repeated-failure-log';

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
 * The conversion senders of the process: claims due deliveries and sends them side by side, at most
 * AD_CONVERSIONS_CONCURRENCY at once and half of them per dashboard. They have slots of their own,
 * apart from the webhook workers', so a platform that hangs delays no webhook. At the shutdown
 * deadline the requests in flight are cut off and handed back, due as they were.
 */
export class ConversionWorker implements BackgroundWorker {
  readonly name = 'ad-conversions';
  private readonly pool: ClaimPool<ClaimedConversion, ConversionReport>;
  private readonly purge: PeriodicPurge;

  constructor(
    useCases: Pick<UseCases, 'sendConversions'>,
    doorbell: ConversionDoorbell,
    settings: ConversionWorkerSettings,
    private readonly logger: Logger,
    /** Told of every claimed delivery's outcome (tests wait for them). */
    onAttempt: (report: ConversionReport) => void = () => undefined,
  ) {
    const limit = perDashboardLimit(settings.concurrency);
    this.pool = new ClaimPool(
      settings,
      doorbell.bell,
      {
        claim: (inFlight) =>
          useCases.sendConversions.claim(
            keysAtLeast(
              inFlight.map((claimed) => claimed.delivery.dashboardId),
              limit,
            ),
          ),
        run: (claimed, cutOff) => useCases.sendConversions.attempt(claimed, cutOff),
        report: (report) => {
          this.report(report);
          onAttempt(report);
        },
        runFailed: (claimed, err) => this.logger.error('conversion attempt failed', { deliveryId: claimed.delivery.id, ...failure(err) }),
        claiming: 'claiming conversions',
        loopStopped: 'the conversion loop stopped',
      },
      logger,
    );
    this.purge = new PeriodicPurge(
      () => useCases.sendConversions.purgeExpired(),
      settings.purgeEveryMs ?? 3_600_000,
      logger,
      'conversions',
    );
  }

  start(): void {
    this.pool.start();
    this.purge.start();
  }

  stop(deadline: AbortSignal): Promise<void> {
    this.purge.stop();
    return this.pool.stop(deadline);
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
}
