import { expect } from 'chai';
import type { Storage } from '../../src/application/ports/storage';
import type { AdSyncReport } from '../../src/application/ads/sync-ad-accounts';
import { FakeAdPlatforms, GOOGLE_INVALID_GRANT, META_EXPIRED_TOKEN, recentDays, type FakeRow } from '../support/fake-ad-platforms';
import { memoryLogger } from '../support/memory-log';
import { TestApi } from '../support/test-api';
import { TEST_CREDENTIALS_KEY, testConfig } from '../support/test-config';
import { eventually } from '../support/webhook-receiver';

const PATH = '/api/v1/ad-accounts';

const metaBody = (fake: FakeAdPlatforms, changes: Record<string, unknown> = {}) => ({
  platform: 'meta',
  name: 'Meta ads',
  accountId: 'act_1234567890',
  credentials: { accessToken: fake.meta.accessToken },
  campaignKey: 'name',
  ...changes,
});

const googleBody = (fake: FakeAdPlatforms) => ({
  platform: 'google',
  name: 'Google Ads',
  accountId: '123-456-7890',
  credentials: {
    developerToken: fake.google.developerToken,
    clientId: fake.google.clientId,
    clientSecret: fake.google.clientSecret,
    refreshToken: fake.google.refreshToken,
  },
  campaignKey: 'id',
});

/** Every secret the fake platforms hold: none may be seen in an answer or a log line. */
const secretsOf = (fake: FakeAdPlatforms): string[] => [
  fake.meta.accessToken,
  fake.google.developerToken,
  fake.google.clientSecret,
  fake.google.refreshToken,
  fake.google.accessToken,
  fake.tiktok.accessToken,
];

/**
 * Ad accounts end to end, on one store: connected through the API, synced by the service's worker from
 * the platforms played on loopback, their spend in the reports without an upload, a failure shown with
 * the platform's words and nothing lost.
 */
export const adAccountsSuite = (store: string, storage: () => Promise<Storage>): void => {
  describe(`ad accounts end to end (${store})`, () => {
    let fake: FakeAdPlatforms;
    let api: TestApi;
    let lines: string[];
    let token: string;
    let syncs: AdSyncReport[];
    const now = new Date();
    const days = recentDays(now, 28);
    const row = (day: number, campaign: string, ad: string, amount: string): FakeRow => ({
      date: days[day],
      campaignId: `c${campaign}`,
      campaignName: `Campaign ${campaign}`,
      adId: `a${ad}`,
      adName: `Ad ${ad}`,
      amount,
    });

    const start = async (credentialsKey: Buffer | 'none' = TEST_CREDENTIALS_KEY): Promise<void> => {
      const log = memoryLogger();
      lines = log.lines;
      syncs = [];
      const base = testConfig();
      api = await TestApi.start(
        { ads: { ...base.ads, ...fake.settings, ...(credentialsKey === 'none' ? {} : { credentialsKey }), pollIntervalMs: 50 } },
        {
          storage: await storage(),
          logger: log.logger,
          onAdSync: (report) => syncs.push(report),
          adPlatformClient: { backoffMs: 5, attempts: 2, maxWaitMs: 1_000 },
        },
      );
      ({ token } = await api.newDashboard());
    };

    beforeEach(async () => {
      fake = await FakeAdPlatforms.start();
      fake.meta.accounts.set('1234567890', {
        currency: 'BRL',
        timeZone: 'UTC',
        rows: [row(0, '1', '1', '10.00'), row(27, '1', '1', '12.34'), row(27, '1', '2', '0.66'), row(27, '2', '3', '100')],
      });
      fake.google.accounts.set('1234567890', { currency: 'BRL', timeZone: 'UTC', rows: [row(27, '9', '8', '2500000')] });
    });
    afterEach(async () => {
      await api?.stop();
      await fake.stop();
    });

    const synced = async (id: string, count = 1): Promise<Record<string, unknown>> =>
      eventually(`sync ${count} of ${id}`, async () => {
        if (syncs.filter((s) => s.adAccountId === id && s.kind !== 'aborted').length < count) return undefined;
        const account = await api.request('GET', `${PATH}/${id}`, { token });
        return account.body.adAccount.status === 'syncing' ? undefined : (account.body.adAccount as Record<string, unknown>);
      });

    it('connects an account, syncs it at once, and its spend is in the reports without an upload', async () => {
      await start();
      const created = await api.request('POST', PATH, { token, body: metaBody(fake) });
      expect(created.status).to.equal(201);
      expect(created.headers.get('location')).to.equal(`${PATH}/${created.body.adAccount.id}`);
      expect(created.body.adAccount).to.include({ platform: 'meta', accountId: '1234567890', utmSource: 'facebook', status: 'syncing' });
      expect(created.body.adAccount).to.not.have.property('credentials');
      const account = await synced(created.body.adAccount.id);
      expect(account).to.include({ status: 'ok', message: null, currency: 'BRL', timeZone: 'UTC', failingSince: null });
      expect(account['lastSyncedAt']).to.be.a('string');

      const from = `${days[0]}T00:00:00Z`;
      const to = `${days[27]}T23:59:59Z`;
      const breakdown = await api.request(
        'GET',
        `/api/v1/reports/breakdown?from=${from}&to=${to}&by=utmSource,utmCampaign&sort=spendCents`,
        { token },
      );
      expect(breakdown.status).to.equal(200);
      const rows = (breakdown.body.rows as { key: Record<string, string>; spendCents: number; orders: number }[]).map(
        (r) => `${r.key['utmSource']}/${r.key['utmCampaign']} ${r.spendCents} ${r.orders}`,
      );
      expect(rows).to.deep.equal(['facebook/Campaign 2 10000 0', 'facebook/Campaign 1 2300 0']);
      const series = await api.request('GET', `/api/v1/reports/timeseries?from=${from}&to=${to}&interval=day&timezone=UTC`, { token });
      const buckets = series.body.series[0].buckets as { start: string; spendCents: number }[];
      expect(buckets.reduce((sum, b) => sum + (b.spendCents ?? 0), 0)).to.equal(12300);
      const listed = await api.request('GET', `/api/v1/spend?from=${days[27]}&to=${days[27]}`, { token });
      expect(
        listed.body.entries.map(
          (e: Record<string, string | number | null>) => `${e['utmCampaign']}/${e['utmContent']} ${e['amountCents']} ${e['adAccount']}`,
        ),
      ).to.deep.equal([
        'Campaign 1/Ad 1 1234 meta:1234567890',
        'Campaign 1/Ad 2 66 meta:1234567890',
        'Campaign 2/Ad 3 10000 meta:1234567890',
      ]);
    });

    it('replaces its own rows on the next sync, and never an upload', async () => {
      await start();
      const created = await api.request('POST', PATH, { token, body: metaBody(fake) });
      await synced(created.body.adAccount.id);
      await api.request('PUT', '/api/v1/spend', {
        token,
        body: {
          entries: [
            { date: days[27], utmSource: 'facebook', utmCampaign: 'Campaign 1', utmContent: 'Ad 1', currency: 'BRL', amountCents: 5 },
          ],
        },
      });
      fake.meta.accounts.get('1234567890')!.rows = [row(27, '1', '1', '20.00')];
      const asked = await api.request('POST', `${PATH}/${created.body.adAccount.id}/sync`, { token });
      expect(asked.status).to.equal(202);
      expect(asked.body.adAccount.status).to.equal('syncing');
      await synced(created.body.adAccount.id, 2);
      const listed = await api.request('GET', `/api/v1/spend?from=${days[0]}&to=${days[27]}`, { token });
      expect(
        listed.body.entries.map(
          (e: Record<string, string | number | null>) => `${e['date']} ${e['utmContent']} ${e['amountCents']} ${e['adAccount']}`,
        ),
      ).to.deep.equal([`${days[27]} Ad 1 5 null`, `${days[27]} Ad 1 2000 meta:1234567890`]);
    });

    it('shows an expired token as needing attention, in the platform words, and keeps the spend it had', async () => {
      await start();
      const created = await api.request('POST', PATH, { token, body: metaBody(fake) });
      const id: string = created.body.adAccount.id;
      const first = await synced(id);
      fake.meta.canned.push(META_EXPIRED_TOKEN);
      await api.request('POST', `${PATH}/${id}/sync`, { token });
      const failed = await synced(id, 2);
      expect(failed).to.include({ status: 'needsAttention', lastSyncedAt: first['lastSyncedAt'] });
      expect(failed['message']).to.contain('Session has expired').and.contain('code 190');
      expect(failed['failingSince']).to.be.a('string');
      const listed = await api.request('GET', `/api/v1/spend?from=${days[0]}&to=${days[27]}`, { token });
      expect(listed.body.total).to.equal(4);

      // A new token: the account is synced again at once, and works.
      const renewed = await api.request('PATCH', `${PATH}/${id}`, { token, body: { credentials: { accessToken: fake.meta.accessToken } } });
      expect(renewed.status).to.equal(200);
      expect(renewed.body.adAccount.status).to.equal('syncing');
      expect(await synced(id, 3)).to.include({ status: 'ok', message: null, failingSince: null });
    });

    it('reads Google Ads by campaign id, through a refreshed token, and says when the refresh token is revoked', async () => {
      await start();
      const created = await api.request('POST', PATH, { token, body: googleBody(fake) });
      expect(created.status).to.equal(201);
      const id: string = created.body.adAccount.id;
      expect(await synced(id)).to.include({ status: 'ok', currency: 'BRL' });
      const listed = await api.request('GET', `/api/v1/spend?from=${days[27]}&to=${days[27]}`, { token });
      expect(
        listed.body.entries.map(
          (e: Record<string, string | number | null>) => `${e['utmSource']} ${e['utmCampaign']}/${e['utmContent']} ${e['amountCents']}`,
        ),
      ).to.deep.equal(['google c9/a8 250']);
      fake.google.oauthCanned.push(GOOGLE_INVALID_GRANT);
      await api.request('POST', `${PATH}/${id}/sync`, { token });
      const failed = await synced(id, 2);
      expect(failed['status']).to.equal('needsAttention');
      expect(failed['message']).to.contain('Token has been expired or revoked.');
    });

    it('never shows or logs a credential, and keeps each dashboard to its own accounts', async () => {
      await start();
      const created = await api.request('POST', PATH, { token, body: metaBody(fake) });
      const google = await api.request('POST', PATH, { token, body: googleBody(fake) });
      await synced(created.body.adAccount.id);
      await synced(google.body.adAccount.id);
      const answers = [
        created.text,
        google.text,
        (await api.request('GET', PATH, { token })).text,
        (await api.request('GET', `${PATH}/${created.body.adAccount.id}`, { token })).text,
        (
          await api.request('PATCH', `${PATH}/${created.body.adAccount.id}`, {
            token,
            body: { credentials: { accessToken: fake.meta.accessToken } },
          })
        ).text,
      ];
      for (const secret of secretsOf(fake)) {
        for (const answer of answers) expect(answer).to.not.contain(secret);
        for (const line of lines) expect(line).to.not.contain(secret);
      }
      expect(lines.some((line) => line.includes('ad account synced'))).to.equal(true);

      const other = await api.newDashboard('Another shop');
      expect((await api.request('GET', `${PATH}/${created.body.adAccount.id}`, { token: other.token })).status).to.equal(404);
      expect((await api.request('POST', `${PATH}/${created.body.adAccount.id}/sync`, { token: other.token })).status).to.equal(404);
      expect((await api.request('DELETE', `${PATH}/${created.body.adAccount.id}`, { token: other.token })).status).to.equal(404);
      expect((await api.request('GET', PATH, { token: other.token })).body.adAccounts).to.deep.equal([]);
    });

    it('refuses what cannot be an account, every problem at once, and a second copy of one', async () => {
      await start();
      const wrong = await api.request('POST', PATH, {
        token,
        body: {
          ...googleBody(fake),
          accountId: '12345',
          credentials: { accessToken: 'x', developerToken: 'y' },
          conversions: { enabled: true, pixelId: '1' },
        },
      });
      expect(wrong.status).to.equal(400);
      expect(wrong.body.details.map((d: { path: string }) => d.path).sort()).to.deep.equal(
        [
          'accountId',
          'credentials.accessToken',
          'credentials.clientId',
          'credentials.clientSecret',
          'credentials.refreshToken',
          'conversions.conversionAction',
          'conversions.pixelId',
        ].sort(),
      );
      const unknown = await api.request('POST', PATH, { token, body: { ...metaBody(fake), extra: 1 } });
      expect(unknown.status).to.equal(400);
      expect(
        (
          await api.request('POST', PATH, {
            token,
            body: metaBody(fake, { conversions: { enabled: false, pixelId: '987', testEventCode: 'TEST42' } }),
          })
        ).status,
      ).to.equal(201);
      const again = await api.request('POST', PATH, { token, body: metaBody(fake, { accountId: '1234567890' }) });
      expect(again.status).to.equal(409);
      expect(again.body.code).to.equal('AD_ACCOUNT_ALREADY_CONNECTED');
      const listed = await api.request('GET', PATH, { token });
      expect(listed.body.adAccounts[0].conversions).to.deep.equal({
        enabled: false,
        pixelId: '987',
        testEventCode: 'TEST42',
        status: 'ok',
        message: null,
        failingSince: null,
      });
    });

    it('refuses to connect without CREDENTIALS_KEY, naming it', async () => {
      await start('none');
      const refused = await api.request('POST', PATH, { token, body: metaBody(fake) });
      expect(refused.status).to.equal(409);
      expect(refused.body.code).to.equal('CREDENTIALS_KEY_MISSING');
      expect(refused.body.detail).to.contain('CREDENTIALS_KEY');
    });

    it('disconnects an account, keeping the spend it wrote', async () => {
      await start();
      const created = await api.request('POST', PATH, { token, body: metaBody(fake) });
      await synced(created.body.adAccount.id);
      expect((await api.request('DELETE', `${PATH}/${created.body.adAccount.id}`, { token })).status).to.equal(204);
      expect((await api.request('GET', `${PATH}/${created.body.adAccount.id}`, { token })).status).to.equal(404);
      expect((await api.request('GET', `/api/v1/spend?from=${days[0]}&to=${days[27]}`, { token })).body.total).to.equal(4);
    });
  });
};
