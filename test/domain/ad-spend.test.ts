import { expect } from 'chai';
import { centsOfDecimal, centsOfMicros, spendEntriesOf, syncFailed, syncSucceeded, type PlatformSpend } from '../../src/domain/ad-spend';
import { normalAccountId } from '../../src/domain/ad-account';
import { MAX_CENTS } from '../../src/domain/money';

const T = new Date('2026-11-20T10:00:00.000Z');
const HOUR = 3_600_000;

describe('ad spend', () => {
  it('reads decimal amounts into cents without floating point, half up past two decimals', () => {
    expect(['12.34', '1234', '0.005', '0.004', '19.999', '0.1', '0', '9007199254740.99'].map(centsOfDecimal)).to.deep.equal([
      1234,
      123400,
      1,
      0,
      2000,
      10,
      0,
      undefined,
    ]);
    expect(['-1', '1e3', '', '1.', '.5', '1,5'].map(centsOfDecimal)).to.deep.equal(Array(6).fill(undefined));
    expect(centsOfDecimal(String(MAX_CENTS / 100))).to.equal(MAX_CENTS);
  });

  it('reads micros into cents, half up', () => {
    expect(['1234567', '5000', '4999', '0', '10000000', '100000000000000000', '100000000000005000'].map(centsOfMicros)).to.deep.equal([
      123,
      1,
      0,
      0,
      1000,
      MAX_CENTS,
      undefined,
    ]);
    expect(['1.5', '-5', ''].map(centsOfMicros)).to.deep.equal([undefined, undefined, undefined]);
  });

  it('takes account ids as people copy them from the platforms', () => {
    expect(normalAccountId('meta', 'act_123')).to.equal('123');
    expect(normalAccountId('meta', ' 123 ')).to.equal('123');
    expect(normalAccountId('google', '123-456-7890')).to.equal('1234567890');
    expect(normalAccountId('google', '12345')).to.equal(undefined);
    expect(normalAccountId('tiktok', 'act_1')).to.equal(undefined);
  });

  it('names rows as the links do, by name or id (an ad without a name by its id), adding up rows that meet', () => {
    const spend: PlatformSpend = {
      currency: 'BRL',
      timeZone: 'UTC',
      from: '2026-11-01',
      to: '2026-11-02',
      rows: [
        { date: '2026-11-01', campaignId: 'c1', campaignName: 'Black Friday', adId: 'a1', adName: 'Video', amountCents: 100 },
        { date: '2026-11-01', campaignId: 'c1', campaignName: 'Black Friday', adId: 'a2', adName: 'Video', amountCents: 50 },
        { date: '2026-11-02', campaignId: 'c2', campaignName: 'Search', adId: 'a3', adName: '', amountCents: 7 },
      ],
    };
    const byName = spendEntriesOf({ campaignKey: 'name', utmSource: 'facebook' }, spend, 'meta:1');
    expect(
      byName.map(
        (e) => `${e.date} ${e.utmSource}/${e.utmMedium}/${e.utmCampaign}/${e.utmContent} ${e.currency} ${e.amountCents} ${e.adAccount}`,
      ),
    ).to.deep.equal([
      '2026-11-01 facebook/(not set)/Black Friday/Video BRL 150 meta:1',
      '2026-11-02 facebook/(not set)/Search/a3 BRL 7 meta:1',
    ]);
    const byId = spendEntriesOf({ campaignKey: 'id', utmSource: 'fb' }, spend, 'meta:1');
    expect(byId.map((e) => `${e.utmCampaign}/${e.utmContent}=${e.amountCents}`)).to.deep.equal(['c1/a1=100', 'c1/a2=50', 'c2/a3=7']);
  });

  it('keeps the figures and says since when after failures; a platform wait is honoured', () => {
    const ok = syncSucceeded({ currency: 'BRL', timeZone: 'UTC', from: 'x', to: 'y', rows: [] }, T, HOUR);
    expect(ok).to.deep.equal({ status: 'ok', lastSyncedAt: T, nextSyncAt: new Date(T.getTime() + HOUR), currency: 'BRL', timeZone: 'UTC' });
    const first = syncFailed(ok, { kind: 'unavailable', message: 'Meta   answered\n500' }, new Date(T.getTime() + HOUR), HOUR);
    expect(first).to.deep.include({ status: 'needsAttention', message: 'Meta answered 500', lastSyncedAt: T, currency: 'BRL' });
    expect(first.failingSince).to.deep.equal(new Date(T.getTime() + HOUR));
    expect(first.nextSyncAt.getTime() - (T.getTime() + HOUR)).to.equal(300_000);
    const later = syncFailed(
      first,
      { kind: 'unavailable', message: 'again', retryAfterMs: 1_800_000 },
      new Date(T.getTime() + 2 * HOUR),
      HOUR,
    );
    expect(later.failingSince).to.deep.equal(first.failingSince);
    expect(later.nextSyncAt.getTime() - (T.getTime() + 2 * HOUR)).to.equal(1_800_000);
    const expired = syncFailed(later, { kind: 'needsAttention', message: 'expired' }, new Date(T.getTime() + 3 * HOUR), HOUR);
    expect(expired.nextSyncAt.getTime() - (T.getTime() + 3 * HOUR)).to.equal(HOUR);
  });
});
