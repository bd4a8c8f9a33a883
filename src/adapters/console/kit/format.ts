/** Money in its currency and dates in the dashboard's time zone (DECISIONS D18), for people. */

const moneyFormats = new Map<string, Intl.NumberFormat>();

export const money = (cents: number | null, currency: string): string => {
  if (cents === null) return '—';
  let format = moneyFormats.get(currency);
  if (format === undefined) {
    try {
      format = new Intl.NumberFormat('en-US', { style: 'currency', currency });
    } catch {
      format = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    }
    moneyFormats.set(currency, format);
  }
  return format.format(cents / 100);
};

export const percent = (ratio: number | null): string => (ratio === null ? '—' : `${(ratio * 100).toFixed(1)}%`);

export const ratio = (value: number | null): string => (value === null ? '—' : `${value.toFixed(2)}x`);

export const count = (n: number): string => n.toLocaleString('en-US');

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** `2026-11-20 14:03` on the zone's clock. */
export const dateTime = (at: Date, zone: string): string => {
  let format = dateFormats.get(zone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    dateFormats.set(zone, format);
  }
  return format.format(at).replace(',', '');
};
