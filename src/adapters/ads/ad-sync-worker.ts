import * as O from 'fp-ts/Option';
import type { AdSyncNudge } from '../../application/ads/ad-sync-nudge';
import type { AdSyncReport } from '../../application/ads/sync-ad-accounts';
import type { BackgroundWorker } from '../../application/ports/background-worker';
import type { ClaimedAdAccount } from '../../application/ports/ad-account-repository';
import type { Logger } from '../../application/ports/logger';
import type { UseCases } from '../../application/use-cases';
import { Doorbell } from '../system/doorbell';
import { failure, RepeatedFailureLog } from '../system/repeated-failure-log';

export interface AdSyncWorkerSettings {
  /** AD_SYNC_CONCURRENCY: the most syncs in flight in this process. */
  readonly concurrency: number;
  /** AD_SYNC_POLL_INTERVAL_MS: how often the store is looked at without a nudge (accounts falling due, other instances' requests). */
  readonly pollIntervalMs: number;
}

/** The nudges of the use cases, as the doorbell of the sync loop. */
export class AdSyncDoorbell implements AdSyncNudge {
  readonly bell = new Doorbell();

  syncDue(): void {
    this.bell.ring();
  }
}

/**
 * The ad accounts' sync of the process: claims due accounts and runs their syncs side by side, at
 * most AD_SYNC_CONCURRENCY at once and one per dashboard at a time, so that a dashboard with many
 * accounts (or a slow platform) takes its turns while the others' accounts keep being read. At the
 * shutdown deadline the syncs in flight are cut off and their accounts left due, for whichever
 * instance claims them.
 */
export class AdSyncWorker implements BackgroundWorker {
  readonly name = 'ad-sync';
  private running = false;
  private loop: Promise<void> = Promise.resolve();
  private readonly inFlight = new Map<Promise<void>, string>();
  private readonly cutOff = new AbortController();
  private readonly claimFailures: RepeatedFailureLog;

  constructor(
    private readonly useCases: Pick<UseCases, 'syncAdAccounts'>,
    private readonly doorbell: AdSyncDoorbell,
    private readonly settings: AdSyncWorkerSettings,
    private readonly logger: Logger,
    /** Told of every sync's outcome (tests wait for them). */
    private readonly onSync: (report: AdSyncReport) => void = () => undefined,
  ) {
    this.claimFailures = new RepeatedFailureLog(logger, 'claiming ad account syncs');
  }

  start(): void {
    this.running = true;
    // The loop catches what its claims throw; anything else is logged here rather than left unhandled
    // until stop awaits it.
    this.loop = this.claimLoop().catch((err: unknown) => this.logger.error('the ad sync loop stopped', failure(err)));
  }

  async stop(deadline: AbortSignal): Promise<void> {
    this.running = false;
    this.doorbell.bell.ring();
    const cut = (): void => this.cutOff.abort();
    if (deadline.aborted) cut();
    else deadline.addEventListener('abort', cut, { once: true });
    await this.loop;
    await Promise.allSettled([...this.inFlight.keys()]);
    deadline.removeEventListener('abort', cut);
  }

  private async claimLoop(): Promise<void> {
    while (this.running) {
      if (this.inFlight.size < this.settings.concurrency) {
        let claimed: O.Option<ClaimedAdAccount> = O.none;
        try {
          claimed = await this.useCases.syncAdAccounts.claim([...new Set(this.inFlight.values())]);
          this.claimFailures.succeeded();
        } catch (err) {
          this.claimFailures.failed(err);
        }
        if (O.isSome(claimed)) {
          this.launch(claimed.value);
          continue;
        }
      }
      await this.doorbell.bell.wait(this.settings.pollIntervalMs);
    }
  }

  private launch(claimed: ClaimedAdAccount): void {
    const sync = this.useCases.syncAdAccounts
      .run(claimed, this.cutOff.signal)
      .then((report) => {
        this.report(report);
        this.onSync(report);
      })
      // After the report too: a throw there would otherwise wait in `inFlight` without a handler.
      .catch((err: unknown) => this.logger.error('ad account sync failed', { adAccountId: claimed.account.id, ...failure(err) }))
      .finally(() => {
        this.inFlight.delete(sync);
        this.doorbell.bell.ring();
      });
    this.inFlight.set(sync, claimed.account.dashboardId);
  }

  /** Never a credential, a URL or a body: the account, the outcome, and the platform's message. */
  private report(report: AdSyncReport): void {
    const { kind, adAccountId, dashboardId, platform } = report;
    if (report.kind === 'synced') {
      this.logger.info('ad account synced', {
        adAccountId,
        dashboardId,
        platform,
        entries: report.entries,
        from: report.from,
        to: report.to,
      });
    } else if (report.kind === 'failed') {
      this.logger.warn('ad account sync failed', {
        adAccountId,
        dashboardId,
        platform,
        failure: report.failure.kind,
        message: report.failure.message,
      });
    } else {
      this.logger.info(`ad account sync ${kind}`, { adAccountId, dashboardId, platform });
    }
  }
}
