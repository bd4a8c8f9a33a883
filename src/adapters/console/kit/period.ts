import { dateInZone, isCalendarDate, nextDate, startOfDate } from '../../../domain/time-zone';
import { longDay } from './format';
import { html, type Html } from './html';
import { problem } from './layout';

export const PERIODS = [
  ['today', 'Today'],
  ['7', 'Last 7 days'],
  ['30', 'Last 30 days'],
  ['90', 'Last 90 days'],
  ['custom', 'Custom'],
] as const;

export interface Period {
  readonly key: string;
  /** Inclusive instants. */
  readonly from: Date;
  readonly to: Date;
  /** The first and last days, in the zone. */
  readonly firstDay: string;
  readonly lastDay: string;
  /** The dashboard's time zone, which the days are of. */
  readonly zone: string;
  readonly problem?: string;
}

const daysBefore = (date: string, days: number): string => {
  const at = startOfDate(date, 'UTC') - days * 86_400_000;
  return new Date(at).toISOString().slice(0, 10);
};

/**
 * A period of the dashboard's calendar (decision 0018): today, the last 7, 30 or 90 days (today
 * included, up to now), or custom whole days (at most 366): chosen in the select, or typed in From and
 * To whatever the select says.
 */
export const periodOf = (query: URLSearchParams, zone: string, now: Date): Period => {
  const today = dateInZone(now.getTime(), zone);
  const key = query.get('period') ?? '30';
  if (key !== 'custom' && (query.has('from') || query.has('to'))) {
    // The form sends the preset's days in From and To; other days there were typed by the reader, who
    // meant them, whatever the select still says (decision 0022: a custom range applies when chosen).
    const preset = periodOf(new URLSearchParams({ period: key }), zone, now);
    if ((query.get('from') ?? preset.firstDay) !== preset.firstDay || (query.get('to') ?? preset.lastDay) !== preset.lastDay) {
      const custom = new URLSearchParams(query);
      custom.set('period', 'custom');
      custom.set('from', query.get('from') ?? preset.firstDay);
      custom.set('to', query.get('to') ?? preset.lastDay);
      return periodOf(custom, zone, now);
    }
    return preset;
  }
  if (key === 'custom') {
    const first = query.get('from') ?? '';
    const last = query.get('to') ?? '';
    if (isCalendarDate(first) && isCalendarDate(last) && first <= last) {
      const from = startOfDate(first, zone);
      const to = startOfDate(nextDate(last), zone) - 1;
      if (to - from <= 366 * 86_400_000) return { key, from: new Date(from), to: new Date(to), firstDay: first, lastDay: last, zone };
      return { ...periodOf(new URLSearchParams(), zone, now), key, problem: 'A custom period is at most 366 days.' };
    }
    return { ...periodOf(new URLSearchParams(), zone, now), key, problem: 'A custom period needs a first and a last day, in that order.' };
  }
  const days = key === 'today' ? 1 : key === '7' ? 7 : key === '90' ? 90 : 30;
  const firstDay = daysBefore(today, days - 1);
  return {
    key: key === 'today' || key === '7' || key === '90' ? key : '30',
    from: new Date(startOfDate(firstDay, zone)),
    to: now,
    firstDay,
    lastDay: today,
    zone,
  };
};

/** The period's form of a page (Overview, Reports), with `extra` controls before its button. */
export const periodForm = (action: string, period: Period, extra: Html = html``): Html =>
  html`<form class="filters" method="get" action="${action}">
      <div>
        <label for="period">Period</label
        ><select id="period" name="period">
          ${PERIODS.map(([key, label]) => html`<option value="${key}" ${key === period.key ? html` selected` : ''}>${label}</option>`)}
        </select>
      </div>
      <div><label for="from">From</label><input id="from" name="from" type="date" value="${period.firstDay}" /></div>
      <div><label for="to">To</label><input id="to" name="to" type="date" value="${period.lastDay}" /></div>
      ${extra}
      <div><button type="submit">Show</button></div>
    </form>
    <p class="muted" id="period-range" data-from="${period.from.toISOString()}" data-to="${period.to.toISOString()}">
      ${longDay(period.firstDay)} to ${longDay(period.lastDay)}, ${period.zone} time
    </p>
    ${problem(period.problem)}`;
