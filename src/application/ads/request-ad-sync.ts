import * as E from 'fp-ts/Either';
import type { AdAccountRepository } from '../ports/ad-account-repository';
import type { Clock } from '../ports/clock';
import { adAccountNotFound, type AdAccountNotFound } from '../shared/errors';
import type { AdSyncNudge } from './ad-sync-nudge';

export class RequestAdSync {
  constructor(
    private readonly accounts: AdAccountRepository,
    private readonly clock: Clock,
    private readonly nudge: AdSyncNudge,
  ) {}

  /** Makes the account due now; a worker takes it off the request's path. Asking twice syncs once. */
  async execute(dashboardId: string, id: string): Promise<E.Either<AdAccountNotFound, void>> {
    if (!(await this.accounts.requestSync(dashboardId, id, this.clock.now()))) return E.left(adAccountNotFound(id));
    this.nudge.syncDue();
    return E.right(undefined);
  }
}
