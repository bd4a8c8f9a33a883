import { expect } from 'chai';
import {
  bucketsBetween,
  intlWallTimeAt,
  offsetMinutesAt,
  wallTimeAt,
  dateInZone,
  isCalendarDate,
  isoInZone,
  isTimeZone,
  nextDate,
  startOfDate,
  TIME_ZONES,
} from '../../src/domain/time-zone';

const at = (iso: string): number => Date.parse(iso);

describe('time zones', () => {
  describe('the zones accepted', () => {
    it('are the IANA zones of Intl, their current names and UTC', () => {
      for (const zone of ['UTC', 'America/Sao_Paulo', 'Asia/Kathmandu', 'Asia/Kolkata', 'Asia/Calcutta', 'Europe/Kyiv']) {
        expect(isTimeZone(zone), zone).to.equal(true);
      }
    });

    it('refuse what is not on the list, even when Intl takes it as an alias', () => {
      for (const zone of ['', 'utc', 'US/Eastern', 'EST', 'Mars/Olympus', '000', 'America/Sao_Paulo ', 'x'.repeat(65)]) {
        expect(isTimeZone(zone), zone).to.equal(false);
      }
    });

    it('are listed once each, sorted, and each one works with Intl', () => {
      expect(TIME_ZONES).to.deep.equal([...new Set(TIME_ZONES)].sort());
      for (const zone of TIME_ZONES) expect(() => new Intl.DateTimeFormat('en-US', { timeZone: zone }), zone).not.to.throw();
    });
  });

  describe('the clock of a zone', () => {
    it('reads as Intl does, at random instants of 1971-2099 in zones with and without summer time', function () {
      // About 6 s of CPU: each new zone and year reads Intl some 400 times; on a loaded machine, more.
      this.timeout(120_000);
      let seed = 7;
      const next = (): number => {
        seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
        return seed / 2 ** 31;
      };
      const zones = [
        'UTC',
        'America/Sao_Paulo',
        'America/New_York',
        'Europe/Berlin',
        'Asia/Kathmandu',
        'Asia/Kolkata',
        'Australia/Lord_Howe',
        'Africa/Casablanca',
        'Pacific/Chatham',
      ];
      const from = Date.parse('1971-01-01T00:00:00Z');
      const span = Date.parse('2099-12-31T00:00:00Z') - from;
      for (let i = 0; i < 3_000; i++) {
        const zone = zones[i % zones.length];
        const instant = from + Math.floor(next() * span);
        expect(wallTimeAt(instant, zone), `${zone} ${new Date(instant).toISOString()}`).to.deep.equal(intlWallTimeAt(instant, zone));
      }
    });

    it('changes its offset at the second the zone does, not a second before', () => {
      const change = Date.parse('2026-03-08T07:00:00Z'); // 02:00 in New York becomes 03:00
      expect(offsetMinutesAt(change - 1, 'America/New_York')).to.equal(-300);
      expect(offsetMinutesAt(change, 'America/New_York')).to.equal(-240);
      const back = Date.parse('2026-11-01T06:00:00Z');
      expect(offsetMinutesAt(back - 1, 'America/New_York')).to.equal(-240);
      expect(offsetMinutesAt(back, 'America/New_York')).to.equal(-300);
      expect(offsetMinutesAt(Date.parse('2026-12-31T23:59:59Z'), 'Asia/Kathmandu')).to.equal(345);
    });
  });

  describe('calendar dates', () => {
    it('are YYYY-MM-DD days that exist, the years 0000 to 0099 included', () => {
      for (const date of ['2026-11-20', '2024-02-29', '2000-02-29', '0000-01-01', '0050-12-31', '9999-12-31']) {
        expect(isCalendarDate(date), date).to.equal(true);
      }
    });

    it('refuse days that do not exist and other spellings', () => {
      for (const date of [
        '0000-00-00',
        '4510-72-58',
        '2025-02-29',
        '1900-02-29',
        '2026-04-31',
        '2026-1-05',
        '20261105',
        '2026-11-20T00:00:00Z',
      ]) {
        expect(isCalendarDate(date), date).to.equal(false);
      }
    });

    it('step to the next day over the end of a month and of a leap February', () => {
      expect(nextDate('2024-02-28')).to.equal('2024-02-29');
      expect(nextDate('2024-02-29')).to.equal('2024-03-01');
      expect(nextDate('2026-12-31')).to.equal('2027-01-01');
      expect(nextDate('0099-12-31')).to.equal('0100-01-01');
      expect(nextDate('0004-02-28')).to.equal('0004-02-29');
    });
  });

  describe('days of a zone', () => {
    it('begin at the local midnight, whatever the offset', () => {
      expect(startOfDate('2026-03-10', 'Asia/Kathmandu')).to.equal(at('2026-03-09T18:15:00Z'));
      expect(startOfDate('2026-03-10', 'Asia/Kolkata')).to.equal(at('2026-03-09T18:30:00Z'));
      expect(startOfDate('0050-06-01', 'UTC')).to.equal(at('0050-06-01T00:00:00Z'));
      expect(dateInZone(at('2026-03-09T18:14:59.999Z'), 'Asia/Kathmandu')).to.equal('2026-03-09');
      expect(dateInZone(at('2026-03-09T18:15:00Z'), 'Asia/Kathmandu')).to.equal('2026-03-10');
    });

    it('last 23 and 25 hours over the changes of summer time', () => {
      const day = (date: string, zone: string): number => (startOfDate(nextDate(date), zone) - startOfDate(date, zone)) / 3_600_000;
      expect(day('2026-03-08', 'America/New_York')).to.equal(23);
      expect(day('2026-11-01', 'America/New_York')).to.equal(25);
      expect(day('2026-11-02', 'America/New_York')).to.equal(24);
    });

    it('are written with the offset of their instant', () => {
      expect(isoInZone(at('2026-03-09T18:15:00Z'), 'Asia/Kathmandu')).to.equal('2026-03-10T00:00:00.000+05:45');
      expect(isoInZone(at('2026-07-01T03:00:00Z'), 'America/New_York')).to.equal('2026-06-30T23:00:00.000-04:00');
    });
  });

  describe('buckets between two instants', () => {
    it('cut the first and last bucket at the range and end each where the next begins', () => {
      const from = at('2026-03-07T12:00:00Z');
      const to = at('2026-03-09T12:00:00Z');
      const buckets = bucketsBetween(from, to, 'day', 'America/New_York');
      expect(buckets.map((b) => [new Date(b.start).toISOString(), new Date(b.end).toISOString()])).to.deep.equal([
        ['2026-03-07T12:00:00.000Z', '2026-03-08T05:00:00.000Z'],
        ['2026-03-08T05:00:00.000Z', '2026-03-09T04:00:00.000Z'],
        ['2026-03-09T04:00:00.000Z', '2026-03-09T12:00:00.001Z'],
      ]);
    });

    it('cover the range without gap or overlap by hour, day, week and month', () => {
      const from = at('2025-10-15T07:31:00Z');
      const to = at('2026-04-02T22:10:00Z');
      for (const zone of ['UTC', 'Asia/Kathmandu', 'America/Sao_Paulo', 'Europe/Berlin']) {
        for (const interval of ['hour', 'day', 'week', 'month'] as const) {
          const buckets = bucketsBetween(from, to, interval, zone);
          expect(buckets[0].start, `${zone} ${interval}`).to.equal(from);
          expect(buckets.at(-1)!.end, `${zone} ${interval}`).to.equal(to + 1);
          for (let i = 1; i < buckets.length; i += 1) expect(buckets[i].start).to.equal(buckets[i - 1].end);
        }
      }
    });

    it('begin weeks on Monday and months on the first, at the local midnight', () => {
      const weeks = bucketsBetween(at('2026-11-01T00:00:00Z'), at('2026-11-30T00:00:00Z'), 'week', 'Asia/Kathmandu');
      expect(weeks.slice(1).map((b) => isoInZone(b.start, 'Asia/Kathmandu').slice(0, 19))).to.deep.equal([
        '2026-11-02T00:00:00',
        '2026-11-09T00:00:00',
        '2026-11-16T00:00:00',
        '2026-11-23T00:00:00',
        '2026-11-30T00:00:00',
      ]);
      const months = bucketsBetween(at('2026-01-15T00:00:00Z'), at('2026-04-15T00:00:00Z'), 'month', 'America/Sao_Paulo');
      expect(months.slice(1).map((b) => isoInZone(b.start, 'America/Sao_Paulo'))).to.deep.equal([
        '2026-02-01T00:00:00.000-03:00',
        '2026-03-01T00:00:00.000-03:00',
        '2026-04-01T00:00:00.000-03:00',
      ]);
    });
  });
});
