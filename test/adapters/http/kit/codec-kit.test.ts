import { expect } from 'chai';
import { isLeft } from 'fp-ts/Either';
import { describeErrors } from '../../../../src/adapters/http/kit/codec-kit';
import { isoInstant, parseIsoInstant } from '../../../../src/adapters/http/kit/dates';

describe('ISO 8601 instants', () => {
  it('reads the offset and keeps milliseconds', () => {
    expect(parseIsoInstant('2026-01-02T03:04:05.123-03:00')?.toISOString()).to.equal('2026-01-02T06:04:05.123Z');
    expect(parseIsoInstant('2026-01-02T03:04:05Z')?.toISOString()).to.equal('2026-01-02T03:04:05.000Z');
  });

  it('accepts the last day of February only in leap years', () => {
    expect(parseIsoInstant('2024-02-29T00:00:00Z')).to.be.instanceOf(Date);
    expect(parseIsoInstant('2026-02-29T00:00:00Z')).to.equal(undefined);
    expect(parseIsoInstant('2026-02-30T00:00:00Z')).to.equal(undefined);
  });

  it('refuses times that are not on the clock', () => {
    for (const text of ['2026-01-01T24:00:00Z', '2026-01-01T23:60:00Z', '2026-01-01T23:59:60Z', '2026-01-01T00:00:00+24:00']) {
      expect(parseIsoInstant(text), text).to.equal(undefined);
    }
  });

  it('refuses an offset that pushes the instant out of four-digit years', () => {
    expect(parseIsoInstant('0000-01-01T00:30:00+01:00')).to.equal(undefined);
    expect(parseIsoInstant('9999-12-31T23:30:00-01:00')).to.equal(undefined);
    expect(parseIsoInstant('0000-01-01T00:30:00Z')?.toISOString()).to.equal('0000-01-01T00:30:00.000Z');
  });

  it('says which of "no time zone", "no seconds" and "not a real date" is wrong', () => {
    const noZone = isoInstant.decode('2026-01-02T03:04:05');
    const notReal = isoInstant.decode('2026-02-30T00:00:00Z');
    const noSeconds = isoInstant.decode('2026-01-02T03:04Z');
    expect(isLeft(noZone) && describeErrors(noZone.left)[0]?.message).to.equal(
      'is missing its time zone: end it with an offset (such as -03:00) or Z for UTC, as in 2026-01-02T03:04:05Z',
    );
    expect(isLeft(noSeconds) && describeErrors(noSeconds.left)[0]?.message).to.equal('is missing its seconds: write 2026-01-02T03:04:00Z');
    expect(isLeft(notReal) && describeErrors(notReal.left)[0]?.message).to.equal('must be a real calendar date and time');
  });
});

describe('ISO 8601 instants at the edge of the calendar', () => {
  it('says that an offset pushed the instant out of four-digit years, not that the date is unreal', () => {
    for (const text of ['0000-01-01T00:30:00+01:00', '9999-12-31T23:30:00-01:00']) {
      const decoded = isoInstant.decode(text);
      expect(isLeft(decoded) && describeErrors(decoded.left)[0]?.message, text).to.equal('must fall in the years 0000 to 9999 once in UTC');
    }
  });
});
