import { expect } from 'chai';
import type { ClaimedConversion } from '../../../src/application/ports/conversion-repository';
import type { ConversionReport } from '../../../src/application/conversions/send-conversions';
import type { UseCases } from '../../../src/application/use-cases';
import { ConversionDoorbell, ConversionWorker } from '../../../src/adapters/ads/conversion-worker';
import { memoryLogger } from '../../support/memory-log';
import { eventually } from '../../support/webhook-receiver';

/** The worker's own bookkeeping around an attempt, with the use case played by a stand-in. */
describe('ConversionWorker', () => {
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

  it('logs an attempt whose report throws, frees its slot for the next, and leaves no rejection without a handler', async () => {
    const { logger, lines } = memoryLogger();
    const due = ['cvd_1', 'cvd_2', 'cvd_3'].map(
      (id) =>
        ({
          delivery: { id, dashboardId: `dsh_${id}`, adAccountId: 'ads_1' },
          lease: { deliveryId: id, leaseId: 'l' },
        }) as unknown as ClaimedConversion,
    );
    const attempted: string[] = [];
    const useCases = {
      sendConversions: {
        claim: async () => due.shift(),
        attempt: async ({ delivery }: ClaimedConversion): Promise<ConversionReport> => {
          attempted.push(delivery.id);
          return { kind: 'dropped', deliveryId: delivery.id, adAccountId: 'ads_1', dashboardId: delivery.dashboardId };
        },
        purgeExpired: async () => 0,
      },
    } as unknown as Pick<UseCases, 'sendConversions'>;
    // One slot: the next delivery is claimed only once the first attempt has let its slot go.
    const worker = new ConversionWorker(useCases, new ConversionDoorbell(), { concurrency: 1, pollIntervalMs: 5 }, logger, () => {
      throw new Error('the test hook could not count it');
    });
    worker.start();
    await eventually('the three deliveries attempted', async () => attempted.length === 3);
    await worker.stop(new AbortController().signal);
    await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled).to.deep.equal([]);
    const failed = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line['msg'] === 'conversion attempt failed');
    expect(failed.map((line) => line['deliveryId'])).to.deep.equal(['cvd_1', 'cvd_2', 'cvd_3']);
  });
});
