import { expect } from 'chai';
import * as O from 'fp-ts/Option';
import type { ClaimedAdAccount } from '../../../src/application/ports/ad-account-repository';
import type { AdSyncReport } from '../../../src/application/ads/sync-ad-accounts';
import type { UseCases } from '../../../src/application/use-cases';
import { AdSyncDoorbell, AdSyncWorker } from '../../../src/adapters/ads/ad-sync-worker';
import { memoryLogger } from '../../support/memory-log';
import { eventually } from '../../support/webhook-receiver';

/** The worker's own bookkeeping around a sync, with the use case played by a stand-in. */
describe('AdSyncWorker', () => {
  const unhandled: unknown[] = [];
  const collect = (reason: unknown): void => {
    unhandled.push(reason);
  };
  beforeEach(() => {
    unhandled.length = 0;
    process.on('unhandledRejection', collect);
  });
  afterEach(() => {
    process.off('unhandledRejection', collect);
  });

  it('logs a sync whose report throws, frees its slot for the next, and leaves no rejection without a handler', async () => {
    const { logger, lines } = memoryLogger();
    const due = ['ads_1', 'ads_2', 'ads_3'].map(
      (id) =>
        ({
          account: { id, dashboardId: `dsh_${id}`, platform: 'meta' },
          lease: { adAccountId: id, leaseId: 'l' },
        }) as unknown as ClaimedAdAccount,
    );
    const run: string[] = [];
    const useCases = {
      syncAdAccounts: {
        claim: async () => O.fromNullable(due.shift()),
        run: async ({ account }: ClaimedAdAccount): Promise<AdSyncReport> => {
          run.push(account.id);
          return { kind: 'aborted', adAccountId: account.id, dashboardId: account.dashboardId, platform: account.platform };
        },
      },
    } as unknown as Pick<UseCases, 'syncAdAccounts'>;
    // One slot: the next account is claimed only once the first sync has let its slot go.
    const worker = new AdSyncWorker(useCases, new AdSyncDoorbell(), { concurrency: 1, pollIntervalMs: 5 }, logger, () => {
      throw new Error('the test hook could not count it');
    });
    worker.start();
    await eventually('the three accounts synced', async () => run.length === 3);
    await worker.stop(new AbortController().signal);
    await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled).to.deep.equal([]);
    const failed = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line['msg'] === 'ad account sync failed');
    expect(failed.map((line) => line['adAccountId'])).to.deep.equal(['ads_1', 'ads_2', 'ads_3']);
  });
});
