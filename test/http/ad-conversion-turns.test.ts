import { expect } from 'chai';
import { FakeConversionPlatforms } from '../support/fake-conversion-platforms';
import { anOrderPayload } from '../support/order-builder';
import { TestApi } from '../support/test-api';
import { TEST_CREDENTIALS_KEY, testConfig } from '../support/test-config';
import { eventually, WebhookReceiver } from '../support/webhook-receiver';

/**
 * One dashboard's platform that hangs holds at most half of the conversion slots: another dashboard's
 * paid order reaches its platform, and its webhook its receiver, while the first one's requests hang.
 */
describe('conversions take turns between dashboards', () => {
  let fake: FakeConversionPlatforms;
  let receiver: WebhookReceiver;
  let api: TestApi;

  beforeEach(async () => {
    fake = await FakeConversionPlatforms.start();
    receiver = await WebhookReceiver.start();
    const base = testConfig();
    api = await TestApi.start({
      ads: {
        ...base.ads,
        ...fake.settings,
        credentialsKey: TEST_CREDENTIALS_KEY,
        timeoutMs: 60_000,
        conversionConcurrency: 4,
        conversionPollIntervalMs: 20,
      },
    });
  });
  afterEach(async () => {
    await api.stop();
    await receiver.stop();
    await fake.stop();
  });

  const paid = (externalId: string) =>
    anOrderPayload({ externalId, status: 'paid', createdAt: new Date().toISOString(), customer: { email: `${externalId}@example.com` } });

  it("keeps sending another dashboard's conversions and webhooks while one dashboard's platform hangs, holding half of the slots", async function () {
    this.timeout(30_000);
    const slow = await api.newDashboard();
    const quick = await api.newDashboard();
    const connect = (token: string, body: Record<string, unknown>) =>
      api.request('POST', '/api/v1/ad-accounts', { token, body: { name: 'ads', campaignKey: 'name', ...body } });
    expect(
      (
        await connect(slow.token, {
          platform: 'meta',
          accountId: 'act_1',
          credentials: { accessToken: fake.credentials.meta },
          conversions: { enabled: true, pixelId: '1' },
        })
      ).status,
    ).to.equal(201);
    expect(
      (
        await connect(quick.token, {
          platform: 'tiktok',
          accountId: '2',
          credentials: { accessToken: fake.credentials.tiktok },
          conversions: { enabled: true, pixelCode: 'C2' },
        })
      ).status,
    ).to.equal(201);
    expect(
      (await api.request('POST', '/api/v1/webhooks', { token: quick.token, body: { url: receiver.url(), events: ['order.paid'] } })).status,
    ).to.equal(201);
    fake.canned.meta.push(...Array.from({ length: 10 }, () => 'hang' as const));
    for (let i = 0; i < 10; i++)
      expect((await api.request('POST', '/api/v1/orders', { token: slow.token, body: paid(`slow-${i}`) })).status).to.equal(201);
    await eventually('the slow platform holding its half', async () => fake.of('meta').length >= 2);

    expect((await api.request('POST', '/api/v1/orders', { token: quick.token, body: paid('quick-1') })).status).to.equal(201);
    await eventually("the other dashboard's conversion sent", async () => fake.of('tiktok').length === 1, 5_000);
    await receiver.waitFor(1, 5_000);
    expect(fake.of('meta'), 'the hanging dashboard holds at most half of the 4 slots').to.have.length(2);
  });
});
