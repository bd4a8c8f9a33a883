import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import { adPlatformAdapters } from '../../../src/adapters/ads/registry';
import type { AdPlatforms } from '../../../src/application/ports/ad-platform';
import type { PlatformSpend, SyncFailure } from '../../../src/domain/ad-spend';
import {
  FakeAdPlatforms,
  GOOGLE_INVALID_GRANT,
  GOOGLE_UNAVAILABLE,
  googleQuota,
  META_EXPIRED_TOKEN,
  META_OUTAGE,
  metaRateLimit,
  recentDays,
  TIKTOK_RATE_LIMIT,
  TIKTOK_REVOKED,
  type FakeRow,
} from '../../support/fake-ad-platforms';

const NOW = new Date('2026-11-20T15:00:00.000Z');
const DAYS = recentDays(NOW, 28);

const row = (day: number, campaign: string, ad: string, amount: string): FakeRow => ({
  date: DAYS[day],
  campaignId: `c${campaign}`,
  campaignName: `Campaign ${campaign}`,
  adId: `a${ad}`,
  adName: `Ad ${ad}`,
  amount,
});

const spendOf = (read: E.Either<SyncFailure, PlatformSpend>): PlatformSpend => {
  if (E.isLeft(read)) throw new Error(`expected spend, got ${JSON.stringify(read.left)}`);
  return read.right;
};

const failureOf = (read: E.Either<SyncFailure, PlatformSpend>): SyncFailure => {
  if (E.isRight(read)) throw new Error('expected a failure');
  return read.left;
};

const summary = (spend: PlatformSpend): string[] => spend.rows.map((r) => `${r.date} ${r.campaignId}/${r.adId} ${r.amountCents}`).sort();

describe('ad platform adapters against platforms played as their documentation shows', () => {
  let fake: FakeAdPlatforms;
  let platforms: AdPlatforms;
  const signal = new AbortController().signal;

  beforeEach(async () => {
    fake = await FakeAdPlatforms.start();
    platforms = adPlatformAdapters({ ...fake.settings, timeoutMs: 5_000, client: { backoffMs: 10, maxWaitMs: 2_000, attempts: 3 } });
  });
  afterEach(() => fake.stop());

  describe('Meta (Marketing API insights)', () => {
    const query = { accountId: '1234567890', days: 28, now: NOW };
    const credentials = (): { accessToken: string } => ({ accessToken: fake.meta.accessToken });

    beforeEach(() => {
      fake.meta.accounts.set('1234567890', {
        currency: 'BRL',
        timeZone: 'UTC',
        rows: [
          row(0, '1', '1', '12.34'),
          row(0, '1', '2', '0.005'),
          row(13, '2', '3', '1000'),
          row(27, '2', '3', '7.5'),
          row(27, '1', '1', '0.01'),
        ],
      });
      fake.meta.pageSize = 2;
    });

    it('reads every page of daily spend per ad through the after cursor, decimal strings into cents, on the account days', async () => {
      const spend = spendOf(await platforms.meta.readSpend(query, credentials(), signal));
      expect(spend).to.include({ currency: 'BRL', timeZone: 'UTC', from: DAYS[0], to: DAYS[27] });
      expect(summary(spend)).to.deep.equal(
        [`${DAYS[0]} c1/a1 1234`, `${DAYS[0]} c1/a2 1`, `${DAYS[13]} c2/a3 100000`, `${DAYS[27]} c2/a3 750`, `${DAYS[27]} c1/a1 1`].sort(),
      );
      const insights = fake.requests.filter((r) => r.path === '/meta/v25.0/act_1234567890/insights');
      expect(insights).to.have.length(3);
      expect(insights.map((r) => r.query.get('after'))).to.deep.equal([null, 'Mg==', 'NA==']);
      expect(insights[0].query.get('time_range')).to.equal(JSON.stringify({ since: DAYS[0], until: DAYS[27] }));
    });

    it('says an expired token needs attention, in Meta own words', async () => {
      fake.meta.canned.push(META_EXPIRED_TOKEN);
      const failure = failureOf(await platforms.meta.readSpend(query, credentials(), signal));
      expect(failure.kind).to.equal('needsAttention');
      expect(failure.message).to.contain('Session has expired').and.contain('code 190, subcode 463');
    });

    it('waits as long as the business use case header asks, and stops waiting past the longest wait of a sync', async () => {
      fake.meta.canned.push(metaRateLimit(0), META_OUTAGE);
      expect(summary(spendOf(await platforms.meta.readSpend(query, credentials(), signal)))).to.have.length(5);
      fake.meta.canned.push(metaRateLimit(2));
      const failure = failureOf(await platforms.meta.readSpend(query, credentials(), signal));
      expect(failure).to.deep.include({ kind: 'unavailable', retryAfterMs: 120_000 });
      expect(failure.message).to.contain('too many calls');
    });

    it('reads the day of a zone ahead of UTC as that zone says', async () => {
      fake.meta.accounts.set('1234567890', { currency: 'JPY', timeZone: 'Asia/Tokyo', rows: [] });
      const spend = spendOf(await platforms.meta.readSpend({ ...query, now: new Date('2026-11-20T20:00:00.000Z') }, credentials(), signal));
      expect(spend.to).to.equal('2026-11-21');
    });
  });

  describe('Google Ads (searchStream over ad_group_ad)', () => {
    const query = { accountId: '1234567890', days: 28, now: NOW };
    const credentials = () => ({
      developerToken: fake.google.developerToken,
      clientId: fake.google.clientId,
      clientSecret: fake.google.clientSecret,
      refreshToken: fake.google.refreshToken,
    });

    beforeEach(() => {
      fake.google.accounts.set('1234567890', {
        currency: 'USD',
        timeZone: 'America/New_York',
        rows: [
          row(0, '1', '1', '1234567'),
          row(5, '1', '2', '5000'),
          row(5, '2', '3', '4999'),
          row(27, '2', '3', '0'),
          { ...row(20, '3', '4', '10000000'), adName: '' },
        ],
      });
    });

    it('refreshes the access token, then reads every batch, micros rounded to cents, with the developer token', async () => {
      const spend = spendOf(await platforms.google.readSpend(query, credentials(), signal));
      expect(spend).to.include({ currency: 'USD', timeZone: 'America/New_York', to: '2026-11-20' });
      expect(summary(spend)).to.deep.equal(
        [`${DAYS[0]} c1/a1 123`, `${DAYS[5]} c1/a2 1`, `${DAYS[5]} c2/a3 0`, `${DAYS[20]} c3/a4 1000`].sort(),
      );
      expect(spend.rows.find((r) => r.adId === 'a4')?.adName).to.equal('');
      const searches = fake.requests.filter((r) => r.path === '/google/v25/customers/1234567890/googleAds:searchStream');
      expect(searches[0].headers['developer-token']).to.equal(fake.google.developerToken);
      expect(searches[0].headers['login-customer-id']).to.equal(undefined);
      const queries = searches.slice(1).map((r) => (JSON.parse(r.body) as { query: string }).query);
      for (const query of queries)
        expect(query).to.contain('FROM ad_group_ad').and.contain('metrics.cost_micros').and.contain('segments.date');
      expect(queries.map((query) => /BETWEEN '([\d-]+)' AND '([\d-]+)'/.exec(query)!.slice(1).join('..'))).to.deep.equal([
        `${DAYS[0]}..${DAYS[6]}`,
        `${DAYS[7]}..${DAYS[13]}`,
        `${DAYS[14]}..${DAYS[20]}`,
        `${DAYS[21]}..${DAYS[27]}`,
      ]);
    });

    it('sends the manager account as login-customer-id, without its dashes', async () => {
      fake.google.loginCustomerId = '9876543210';
      spendOf(await platforms.google.readSpend(query, { ...credentials(), loginCustomerId: '987-654-3210' }, signal));
    });

    it('says a revoked refresh token needs attention, in Google own words', async () => {
      fake.google.oauthCanned.push(GOOGLE_INVALID_GRANT);
      const failure = failureOf(await platforms.google.readSpend(query, credentials(), signal));
      expect(failure).to.deep.equal({
        kind: 'needsAttention',
        message: "Google's sign-in refused the refresh token: Token has been expired or revoked. (invalid_grant)",
      });
    });

    it('waits the retry delay Google names on RESOURCE_EXHAUSTED, and retries an outage', async () => {
      fake.google.canned.push(googleQuota('1s'), GOOGLE_UNAVAILABLE);
      const started = Date.now();
      expect(summary(spendOf(await platforms.google.readSpend(query, credentials(), signal)))).to.have.length(4);
      expect(Date.now() - started).to.be.at.least(950);
      fake.google.canned.push(googleQuota('600s'));
      expect(failureOf(await platforms.google.readSpend(query, credentials(), signal))).to.deep.include({
        kind: 'unavailable',
        retryAfterMs: 600_000,
      });
    });

    it('says a customer the credentials cannot reach needs attention', async () => {
      const failure = failureOf(await platforms.google.readSpend({ ...query, accountId: '1111111111' }, credentials(), signal));
      expect(failure.kind).to.equal('needsAttention');
      expect(failure.message).to.contain("doesn't have permission").and.contain('PERMISSION_DENIED');
    });
  });

  describe('TikTok (report/integrated/get)', () => {
    const query = { accountId: '7012345678901234567', days: 28, now: NOW };
    const credentials = (): { accessToken: string } => ({ accessToken: fake.tiktok.accessToken });

    beforeEach(() => {
      fake.tiktok.accounts.set('7012345678901234567', {
        currency: 'EUR',
        timeZone: 'Europe/Paris',
        rows: [row(0, '1', '1', '3.21'), row(1, '1', '1', '0.0'), row(2, '2', '2', '19.999'), row(27, '2', '3', '100')],
      });
      fake.tiktok.pageSize = 2;
    });

    it('reads page after page up to total_page, decimal spend into cents, the day of stat_time_day, with the Access-Token header', async () => {
      const spend = spendOf(await platforms.tiktok.readSpend(query, credentials(), signal));
      expect(spend).to.include({ currency: 'EUR', timeZone: 'Europe/Paris' });
      expect(summary(spend)).to.deep.equal([`${DAYS[0]} c1/a1 321`, `${DAYS[2]} c2/a2 2000`, `${DAYS[27]} c2/a3 10000`].sort());
      const reports = fake.requests.filter((r) => r.path === '/tiktok/open_api/v1.3/report/integrated/get/');
      expect(reports.map((r) => r.query.get('page'))).to.deep.equal(['1', '2']);
      expect(JSON.parse(reports[0].query.get('dimensions')!)).to.deep.equal(['ad_id', 'stat_time_day']);
    });

    it('retries code 40100 (too many requests) and says a revoked token needs attention', async () => {
      fake.tiktok.canned.push(TIKTOK_RATE_LIMIT);
      expect(summary(spendOf(await platforms.tiktok.readSpend(query, credentials(), signal)))).to.have.length(3);
      fake.tiktok.canned.push(TIKTOK_REVOKED);
      expect(failureOf(await platforms.tiktok.readSpend(query, credentials(), signal))).to.deep.equal({
        kind: 'needsAttention',
        message: 'TikTok: Access token is incorrect or has been revoked. (code 40105)',
      });
    });

    it('gives up on a platform that keeps failing after its attempts, as unavailable', async () => {
      fake.tiktok.canned.push(TIKTOK_RATE_LIMIT, TIKTOK_RATE_LIMIT, TIKTOK_RATE_LIMIT);
      const failure = failureOf(await platforms.tiktok.readSpend(query, credentials(), signal));
      expect(failure.kind).to.equal('unavailable');
      expect(failure.message).to.contain('tried 3 times');
    });
  });

  it('reaches no platform at an address where none listens, and says so without the request', async () => {
    const nowhere = adPlatformAdapters({
      metaApiUrl: 'http://127.0.0.1:9',
      googleAdsApiUrl: 'http://127.0.0.1:9',
      googleOAuthUrl: 'http://127.0.0.1:9/token',
      tiktokApiUrl: 'http://127.0.0.1:9',
      timeoutMs: 1_000,
      client: { backoffMs: 1, attempts: 2 },
    });
    const failure = failureOf(
      await nowhere.meta.readSpend({ accountId: '1', days: 28, now: NOW }, { accessToken: 'secret-token-value' }, signal),
    );
    expect(failure.kind).to.equal('unavailable');
    expect(failure.message).to.contain('Meta could not be reached').and.not.contain('secret-token-value');
  });
});
