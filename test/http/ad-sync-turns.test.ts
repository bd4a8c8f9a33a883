import { expect } from 'chai';
import { inMemoryStorage } from '../../src/adapters/memory/in-memory-storage';
import type { AdSyncReport } from '../../src/application/ads/sync-ad-accounts';
import type { Storage } from '../../src/application/ports/storage';
import { FakeAdPlatforms, recentDays } from '../support/fake-ad-platforms';
import { TestApi } from '../support/test-api';
import { TEST_CREDENTIALS_KEY, testConfig } from '../support/test-config';
import { eventually } from '../support/webhook-receiver';

const PATH = '/api/v1/ad-accounts';

describe('ad account syncs take turns', () => {
  let fake: FakeAdPlatforms;
  const apis: TestApi[] = [];
  const days = recentDays(new Date(), 28);

  const start = async (storage: Storage, syncs: AdSyncReport[], concurrency: number): Promise<TestApi> => {
    const base = testConfig();
    const api = await TestApi.start(
      { ads: { ...base.ads, ...fake.settings, credentialsKey: TEST_CREDENTIALS_KEY, pollIntervalMs: 20, syncConcurrency: concurrency } },
      { storage, onAdSync: (report) => syncs.push(report) },
    );
    apis.push(api);
    return api;
  };
  const connect = (api: TestApi, token: string, accountId: string) =>
    api.request('POST', PATH, {
      token,
      body: {
        platform: 'meta',
        name: `Meta ${accountId}`,
        accountId,
        credentials: { accessToken: fake.meta.accessToken },
        campaignKey: 'name',
      },
    });

  beforeEach(async () => {
    fake = await FakeAdPlatforms.start();
    for (const id of ['11', '12', '13', '21'])
      fake.meta.accounts.set(id, {
        currency: 'BRL',
        timeZone: 'UTC',
        rows: [{ date: days[27], campaignId: 'c', campaignName: `Campaign ${id}`, adId: 'a', adName: 'Ad', amount: '1.00' }],
      });
  });
  afterEach(async () => {
    fake.releaseHeld();
    for (const api of apis.splice(0)) await api.stop();
    await fake.stop();
  });

  it("syncs one account per dashboard at a time: a dashboard whose platform hangs leaves the other dashboards' syncs running", async () => {
    const syncs: AdSyncReport[] = [];
    const api = await start(inMemoryStorage(), syncs, 2);
    const slow = await api.newDashboard('Slow shop');
    const quick = await api.newDashboard('Quick shop');
    for (const id of ['11', '12', '13']) fake.meta.held.add(id);
    for (const id of ['11', '12', '13']) expect((await connect(api, slow.token, id)).status).to.equal(201);
    await eventually(
      'the slow dashboard holding a slot',
      async () => fake.requests.some((r) => r.path.startsWith('/meta/v25.0/act_1')) || undefined,
    );
    const created = await connect(api, quick.token, '21');
    await eventually('the quick dashboard synced', async () =>
      syncs.find((s) => s.adAccountId === created.body.adAccount.id && s.kind === 'synced'),
    );
    const asked = new Set(fake.requests.filter((r) => /^\/meta\/v25\.0\/act_1\d$/.test(r.path)).map((r) => r.path));
    expect(asked.size, 'one of the slow dashboard’s accounts at a time').to.equal(1);
    fake.releaseHeld();
    await eventually(
      'the slow dashboard synced',
      async () => syncs.filter((s) => s.dashboardId === slow.dashboardId && s.kind === 'synced').length === 3 || undefined,
    );
  });

  it('two instances on one store sync an account once per request, never at the same time', async () => {
    const storage = inMemoryStorage();
    const first: AdSyncReport[] = [];
    const second: AdSyncReport[] = [];
    const a = await start(storage, first, 4);
    const b = await start(storage, second, 4);
    const { token } = await a.newDashboard();
    fake.meta.held.add('21');
    const created = await connect(a, token, '21');
    const id: string = created.body.adAccount.id;
    await eventually('a sync under way', async () => fake.requests.some((r) => r.path === '/meta/v25.0/act_21') || undefined);
    // Asked on the other instance while the sync runs: one more sync after it, by whichever instance.
    expect((await b.request('POST', `${PATH}/${id}/sync`, { token })).status).to.equal(202);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(
      fake.requests.filter((r) => r.path === '/meta/v25.0/act_21'),
      'no second sync while the first holds its lease',
    ).to.have.length(1);
    fake.releaseHeld();
    await eventually('two syncs', async () => [...first, ...second].filter((s) => s.kind === 'synced').length === 2 || undefined);
    const account = await b.request('GET', `${PATH}/${id}`, { token });
    expect(account.body.adAccount.status).to.equal('ok');
    expect(fake.requests.filter((r) => r.path === '/meta/v25.0/act_21/insights')).to.have.length(2);
  });
});
