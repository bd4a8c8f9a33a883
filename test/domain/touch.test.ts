import { expect } from 'chai';
import { decodeTouch, encodeTouch, TOUCH_MAX_LENGTH, trackingOf } from '../../src/domain/touch';

describe('the compact touch (decision 0021)', () => {
  it('writes letters and digits as they are, everything else as _XX of its UTF-8 bytes, only [A-Za-z0-9_-]', () => {
    const text = encodeTouch({ utmSource: 'facebook', utmMedium: 'paid social', utmCampaign: 'verão-24', utmTerm: 'a_b' });
    expect(text).to.equal('t1-facebook-paid_20social-ver_C3_A3o_2D24--a_5Fb');
    expect(text).to.match(/^[A-Za-z0-9_-]+$/);
  });

  it('reads back what it wrote, absent fields absent', () => {
    const touch = { utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'Black Friday 🎉', utmContent: 'ad|1' };
    expect(decodeTouch(encodeTouch(touch))).to.deep.equal(touch);
  });

  it('reads nothing from another version, another shape, a bad escape or bytes that are not UTF-8', () => {
    for (const text of ['t2-a-b-c--', 't1-a-b-c', 'order-1234', 't1-a_2-b-c--', 't1-_FF-b-c--', 't1-a b-b-c--']) {
      expect(decodeTouch(text), text).to.equal(undefined);
    }
  });

  it('fills the three fields an order requires with (not set), and cuts a field to 255 characters', () => {
    expect(trackingOf({ utmSource: ' ', utmContent: 'x'.repeat(300) })).to.deep.equal({
      utmSource: '(not set)',
      utmMedium: '(not set)',
      utmCampaign: '(not set)',
      utmContent: 'x'.repeat(255),
    });
  });

  it('keeps within 200 characters by shortening the last fields first, a whole character at a time', () => {
    expect(TOUCH_MAX_LENGTH).to.equal(200);
    const touch = { utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'c'.repeat(120), utmContent: 'ção'.repeat(20), utmTerm: 'term' };
    const text = encodeTouch(touch);
    expect(text).to.have.length.at.most(200);
    const read = decodeTouch(text)!;
    expect(read).to.include({ utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'c'.repeat(120) });
    expect(read.utmTerm).to.equal(undefined);
    // "ç" is _C3_A7 and "ã" _C3_A3: the content keeps whole characters of its start.
    expect(touch.utmContent.startsWith(read.utmContent!)).to.equal(true);
    expect(text.length).to.be.greaterThan(200 - 6);
    const long = encodeTouch({ utmSource: '🎉'.repeat(100) });
    expect(long).to.have.length.at.most(200);
    expect(decodeTouch(long)!.utmSource).to.equal('🎉'.repeat(16));
    expect(encodeTouch(touch, 30)).to.equal('t1-google-cpc-cccccccccccccc--');
  });
});
