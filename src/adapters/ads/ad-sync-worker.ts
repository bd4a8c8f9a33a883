import * as O from 'fp-ts/Option';
import type { AdSyncNudge } from '../../application/ads/ad-sync-nudge';
import type { AdSyncReport } from '../../application/ads/sync-ad-accounts';
import type { BackgroundWorker } from '../../application/ports/background-worker';
import type { ClaimedAdAccount } from '../../application/ports/ad-account-repository';
import type { Logger } from '../../application/ports/logger';
import type { UseCases } from '../../application/use-cases';
import { Doorbell } from '../system/doorbell';
import { ClaimPool } from '../system/claim-pool';
import { failure } from '../system/repeated-failure-log';

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
  private readonly pool: ClaimPool<ClaimedAdAccount, AdSyncReport>;

  constructor(
    useCases: Pick<UseCases, 'syncAdAccounts'>,
    doorbell: AdSyncDoorbell,
    settings: AdSyncWorkerSettings,
    private readonly logger: Logger,
    /** Told of every sync's outcome (tests wait for them). */
    onSync: (report: AdSyncReport) => void = () => undefined,
  ) {
    this.pool = new ClaimPool(
      settings,
      doorbell.bell,
      {
        claim: async (inFlight) =>
          O.toUndefined(await useCases.syncAdAccounts.claim([...new Set(inFlight.map((claimed) => claimed.account.dashboardId))])),
        run: (claimed, cutOff) => useCases.syncAdAccounts.run(claimed, cutOff),
        report: (report) => {
          this.report(report);
          onSync(report);
        },
        runFailed: (claimed, err) => this.logger.error('ad account sync failed', { adAccountId: claimed.account.id, ...failure(err) }),
        claiming: 'claiming ad account syncs',
        loopStopped: 'the ad sync loop stopped',
      },
      logger,
    );
  }

  start(): void {
    this.pool.start();
  }

  stop(deadline: AbortSignal): Promise<void> {
    return this.pool.stop(deadline);
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
