import { expect } from 'chai';
import type { ClaimedDelivery } from '../../../src/application/ports/delivery-repository';
import type { AttemptReport } from '../../../src/application/webhooks/deliver-webhooks';
import type { UseCases } from '../../../src/application/use-cases';
import { WebhookDoorbells } from '../../../src/adapters/webhooks/doorbell';
import { WebhookWorker } from '../../../src/adapters/webhooks/webhook-worker';
import { memoryLogger } from '../../support/memory-log';
import { aDelivery } from '../../support/webhook-builders';
import { eventually } from '../../support/webhook-receiver';

/** The worker's own bookkeeping around an attempt, with the use case played by a stand-in. */
describe('WebhookWorker', () => {
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
    const due = ['dlv_1', 'dlv_2', 'dlv_3'].map((id): ClaimedDelivery => ({
      delivery: aDelivery(id),
      lease: { deliveryId: id, leaseId: 'l' },
    }));
    const attempted: string[] = [];
    const useCases = {
      relayOrderEvents: { execute: async () => 0 },
      deliverWebhooks: {
        claim: async () => due.splice(0, 1),
        attempt: async ({ delivery }: ClaimedDelivery): Promise<AttemptReport> => {
          attempted.push(delivery.id);
          return { kind: 'dropped', deliveryId: delivery.id, endpointId: delivery.endpointId };
        },
        purgeExpired: async () => 0,
      },
    } as unknown as Pick<UseCases, 'relayOrderEvents' | 'deliverWebhooks'>;
    // One slot: the next delivery is claimed only once the first attempt has let its slot go.
    const worker = new WebhookWorker(useCases, new WebhookDoorbells(), { concurrency: 1, pollIntervalMs: 5 }, logger, () => {
      throw new Error('the metrics could not count it');
    });
    worker.start();
    await eventually('the three deliveries attempted', async () => attempted.length === 3);
    await worker.stop(new AbortController().signal);
    await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled).to.deep.equal([]);
    const failed = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line['msg'] === 'webhook attempt failed');
    expect(failed.map((line) => line['deliveryId'])).to.deep.equal(['dlv_1', 'dlv_2', 'dlv_3']);
    expect(failed[0]).to.include({ errorName: 'Error', errorMessage: 'the metrics could not count it' });
  });
});
