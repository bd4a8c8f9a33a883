/** Money in its currency and times in the dashboard's time zone, named beside them (decisions 0018, 0022), for people. */

const moneyFormats = new Map<string, Intl.NumberFormat>();
const compactFormats = new Map<string, Intl.NumberFormat>();

const formatOf = (cache: Map<string, Intl.NumberFormat>, currency: string, options: Intl.NumberFormatOptions): Intl.NumberFormat => {
  let format = cache.get(currency);
  if (format === undefined) {
    try {
      format = new Intl.NumberFormat('en-US', { style: 'currency', currency, ...options });
    } catch {
      format = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2, ...options });
    }
    cache.set(currency, format);
  }
  return format;
};

export const money = (cents: number | null, currency: string): string =>
  cents === null ? '—' : formatOf(moneyFormats, currency, {}).format(cents / 100);

/** Money in a few characters (`R$15K`), for a chart's axis. */
export const compactMoney = (cents: number, currency: string): string =>
  formatOf(compactFormats, currency, { notation: 'compact', maximumSignificantDigits: 3 }).format(cents / 100);

export const percent = (ratio: number | null): string => (ratio === null ? '—' : `${(ratio * 100).toFixed(1)}%`);

export const ratio = (value: number | null): string => (value === null ? '—' : `${value.toFixed(2)}x`);

export const count = (n: number): string => n.toLocaleString('en-US');

/** `1 line`, `2 lines`: a count and its noun, which agree. */
export const counted = (n: number, one: string, many = `${one}s`): string => `${count(n)} ${n === 1 ? one : many}`;

const dateFormats = new Map<string, { readonly clock: Intl.DateTimeFormat; readonly zoneName: Intl.DateTimeFormat }>();

/** `2026-11-20 14:03 GMT-3`: the zone's clock, and the zone's name at that instant (`UTC`, `EST`, `GMT-3`). */
export const dateTime = (at: Date, zone: string): string => {
  let formats = dateFormats.get(zone);
  if (formats === undefined) {
    formats = {
      clock: new Intl.DateTimeFormat('en-CA', {
        timeZone: zone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }),
      zoneName: new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' }),
    };
    dateFormats.set(zone, formats);
  }
  const name = formats.zoneName.formatToParts(at).find((part) => part.type === 'timeZoneName')?.value ?? zone;
  return `${formats.clock.format(at).replace(',', '')} ${name}`;
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `Nov 3` for the calendar day `2026-11-03`. */
export const shortDay = (date: string): string => `${MONTHS[Number(date.slice(5, 7)) - 1]} ${Number(date.slice(8, 10))}`;

/** `Nov 3, 2026` for the calendar day `2026-11-03`. */
export const longDay = (date: string): string => `${shortDay(date)}, ${date.slice(0, 4)}`;

/** A rule the domain words as a phrase (`the dataset's id: digits (123)`), as a sentence of help. */
export const asSentence = (phrase: string): string => `${phrase.charAt(0).toUpperCase()}${phrase.slice(1)}.`;
