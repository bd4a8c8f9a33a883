import { expect } from 'chai';
import type { AttemptReport } from '../../src/application/webhooks/deliver-webhooks';
import { memoryLogger } from '../support/memory-log';
import { describeWithMongo } from '../support/mongo-server';
import { anOrderPayload } from '../support/order-builder';
import { TestApi } from '../support/test-api';
import { WebhookReceiver } from '../support/webhook-receiver';

const ORDERS = 120;

/**
 * Two service instances on one MongoDB database, each with its own client and its own webhook
 * workers, as two replicas (decision 0012): they share the relay and the deliveries through the
 * store, and an attempt is made by one instance at a time.
 */
describeWithMongo('webhooks of two service instances on one MongoDB database', (mongo) => {
  const instances: TestApi[] = [];
  let receiver: WebhookReceiver | undefined;
  afterEach(async () => {
    await Promise.all(instances.splice(0).map((api) => api.stop()));
    await receiver?.stop();
  });

  it(`share ${ORDERS} deliveries of two attempts each: one instance at a time per delivery, no send twice, both at work`, async function () {
    this.timeout(60_000);
    await mongo.empty();
    const attemptsBy = [0, 0];
    for (let i = 0; i < 2; i++) {
      const storage = await mongo.connect();
      const onWebhookAttempt = (report: AttemptReport) => {
        if (report.kind === 'attempted') attemptsBy[i] += 1;
      };
      instances.push(
        await TestApi.start(
          {
            rateLimitMax: 1_000_000,
            webhooks: { timeoutMs: 5_000, retrySchedule: [0, 0, 0], allowPrivateUrls: true, concurrency: 8, pollIntervalMs: 50 },
          },
          { storage, logger: memoryLogger().logger, onWebhookAttempt },
        ),
      );
    }
    // Each event fails once, then succeeds: every delivery is attempted twice, by either instance.
    const inFlight = new Map<string, number>();
    const overlaps: string[] = [];
    const seen = new Map<string, number>();
    receiver = await WebhookReceiver.start(async (request) => {
      const id = String(request.headers['webhook-id']);
      if ((inFlight.get(id) ?? 0) > 0) overlaps.push(id);
      inFlight.set(id, (inFlight.get(id) ?? 0) + 1);
      const nth = (seen.get(id) ?? 0) + 1;
      seen.set(id, nth);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight.set(id, inFlight.get(id)! - 1);
      return { status: nth === 1 ? 500 : 204 };
    });
    const { token } = await instances[0].newDashboard('Shared shop');
    const endpoint = (await instances[1].request('POST', '/api/v1/webhooks', { token, body: { url: receiver.url() } })).body.webhook;
    const created = await Promise.all(
      Array.from({ length: ORDERS }, (_, i) =>
        instances[i % 2].request('POST', '/api/v1/orders', { token, body: anOrderPayload({ externalId: `shared-${i}` }) }),
      ),
    );
    expect(created.every((res) => res.status === 201)).to.equal(true);

    await receiver.waitFor(2 * ORDERS, 45_000);
    // Settle: the log shows every delivery succeeded, after exactly two attempts.
    for (let waited = 0; ; waited += 100) {
      const log = (await instances[0].request('GET', `/api/v1/webhooks/${endpoint.id}/deliveries?status=succeeded&pageSize=1`, { token }))
        .body;
      if (log.total === ORDERS) break;
      if (waited > 15_000) throw new Error(`${log.total} of ${ORDERS} deliveries succeeded`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const ids = receiver.received.map((request) => String(request.headers['webhook-id']));
    const duplicates = ids.length - 2 * new Set(ids).size;
    console.log(
      `      ${ids.length} sends for ${new Set(ids).size} deliveries: ${duplicates} beyond the two attempts each; attempts by instance: ${attemptsBy.join(' and ')}`,
    );
    expect(overlaps, 'two instances sending one delivery at once').to.deep.equal([]);
    expect(new Set(ids).size).to.equal(ORDERS);
    expect(duplicates).to.equal(0);
    expect(receiver.verified(endpoint.secret)).to.have.length(2 * ORDERS);
    expect(attemptsBy[0] + attemptsBy[1]).to.equal(2 * ORDERS);
    expect(Math.min(...attemptsBy), 'both instances did some of the work').to.be.greaterThan(0);
  });
});
