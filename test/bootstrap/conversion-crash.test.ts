import { expect } from 'chai';
import { FakeConversionPlatforms } from '../support/fake-conversion-platforms';
import { describeWithMongo } from '../support/mongo-server';
import { anOrderPayload } from '../support/order-builder';
import { temporaryFolder } from '../support/sqlite-files';
import { TEST_CREDENTIALS_KEY } from '../support/test-config';
import { RunningMain } from './running-main';
import { freePort } from './service-process';

/**
 * Nothing lost across kill -9: paid orders acknowledged while Meta cannot be reached, the process
 * killed with SIGKILL in the middle of the payments, a new process on the same store, then Meta up:
 * every acknowledged paid order reaches Meta's Conversions API, by its event id.
 */
const crashScenario = (env: () => Record<string, string>) => {
  const running: RunningMain[] = [];
  let fake: FakeConversionPlatforms | undefined;
  afterEach(async () => {
    await Promise.all(running.splice(0).map((main) => main.proc.dispose()));
    await fake?.stop();
    fake = undefined;
  });

  it('sends every acknowledged paid order to the platform after kill -9 and a restart, once the platform is up', async function () {
    this.timeout(120_000);
    const port = await freePort();
    const adEnv = {
      CREDENTIALS_KEY: TEST_CREDENTIALS_KEY.toString('hex'),
      META_API_URL: `http://127.0.0.1:${port}/meta`,
      AD_CONVERSIONS_RETRY_SCHEDULE: Array(20).fill('1').join(','),
      AD_CONVERSIONS_POLL_INTERVAL_MS: '200',
      AD_PLATFORM_TIMEOUT_MS: '1000',
      RATE_LIMIT_MAX: '1000000',
    };
    const first = await RunningMain.start({ ...env(), ...adEnv });
    running.push(first);
    const { token } = await first.newDashboard('Crash shop');
    const connected = await first.call('POST', '/api/v1/ad-accounts', token, {
      platform: 'meta',
      name: 'Meta',
      accountId: 'act_42',
      credentials: { accessToken: 'EAAB-meta-conversions-token' },
      campaignKey: 'name',
      conversions: { enabled: true, pixelId: '777' },
    });
    expect(connected.status).to.equal(201);

    const expected = new Set<string>();
    let killed = false;
    const lane = async (n: number): Promise<void> => {
      for (let i = 0; !killed; i++) {
        const payload = anOrderPayload({
          externalId: `crash-${n}-${i}`,
          status: 'paid',
          createdAt: new Date().toISOString(),
          customer: { email: `buyer-${n}-${i}@example.com` },
        });
        try {
          const res = await first.call('POST', '/api/v1/orders', token, payload);
          if (res.status !== 201) throw new Error(`unexpected ${res.status}`);
          expected.add(res.body.order.id as string);
        } catch (err) {
          if (!killed) throw err;
        }
      }
    };
    const lanes = Array.from({ length: 8 }, (_, n) => lane(n));
    while (expected.size < 150) await new Promise((resolve) => setTimeout(resolve, 10));
    first.proc.kill('SIGKILL');
    killed = true;
    await first.proc.exited;
    await Promise.all(lanes);

    const second = await RunningMain.start({ ...env(), ...adEnv });
    running.push(second);
    fake = await FakeConversionPlatforms.start(port);
    const deadline = Date.now() + 90_000;
    let missing: string[] = [...expected];
    while (missing.length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const received = new Set(fake.of('meta').flatMap((request) => (request.body.data as { event_id: string }[]).map((e) => e.event_id)));
      missing = [...expected].filter((id) => !received.has(id));
    }
    expect(missing, `${missing.length} of ${expected.size} paid orders never reached Meta`).to.deep.equal([]);
    const ids = fake.of('meta').map((request) => request.body.data[0].event_id as string);
    console.log(
      `      ${expected.size} acknowledged paid orders, ${new Set(ids).size} distinct events received, ${ids.length - new Set(ids).size} sent twice`,
    );
  });
};

describe('conversions across kill -9 on SQLite', function () {
  this.timeout(120_000);
  let folder: ReturnType<typeof temporaryFolder>;
  beforeEach(() => {
    folder = temporaryFolder();
  });
  afterEach(() => folder.remove());
  crashScenario(() => ({ SQLITE_PATH: folder.path }));
});

describeWithMongo('conversions across kill -9 on MongoDB', (mongo) => {
  crashScenario(() => ({ MONGODB_URI: mongo.uri, MONGODB_DB: mongo.dbName }));
});
