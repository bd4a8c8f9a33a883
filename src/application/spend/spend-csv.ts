import { NOT_SET } from '../../domain/attribution';
import { isCurrencyCode, MAX_CENTS } from '../../domain/money';
import type { SpendEntry } from '../../domain/spend';
import { isCalendarDate } from '../../domain/time-zone';

/** The header a spend CSV starts with (DECISIONS D16). */
export const SPEND_CSV_HEADER = ['date', 'utm_source', 'utm_medium', 'utm_campaign', 'utm_content', 'currency', 'amount'] as const;

export interface SpendCsv {
  readonly entries: readonly SpendEntry[];
  /** One per line that cannot be imported, with its 1-based line number. */
  readonly problems: readonly { readonly line: number; readonly message: string }[];
}

/** The fields of one CSV line (RFC 4180: commas, fields in double quotes with `""` for a quote). */
const fieldsOf = (line: string): string[] | undefined => {
  const fields: string[] = [];
  let at = 0;
  for (;;) {
    if (line[at] === '"') {
      let value = '';
      at++;
      for (;;) {
        const quote = line.indexOf('"', at);
        if (quote === -1) return undefined;
        value += line.slice(at, quote);
        if (line[quote + 1] === '"') {
          value += '"';
          at = quote + 2;
        } else {
          at = quote + 1;
          break;
        }
      }
      fields.push(value);
      if (at === line.length) return fields;
      if (line[at] !== ',') return undefined;
      at++;
    } else {
      const comma = line.indexOf(',', at);
      fields.push(comma === -1 ? line.slice(at) : line.slice(at, comma));
      if (comma === -1) return fields;
      at = comma + 1;
    }
  }
};

/** `12.34` → 1234, `5` → 500, `0.5` → 50: decimal text to cents with string arithmetic, never a float. */
export const centsOf = (amount: string): number | undefined => {
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(amount);
  if (match === null) return undefined;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return cents <= MAX_CENTS ? cents : undefined;
};

const text = (value: string): boolean => value.length >= 1 && [...value].length <= 255;

/**
 * Reads a spend CSV: the header, then one entry per line (empty lines skipped). Every line is checked;
 * a line that cannot be imported is a problem with its line number, and the caller imports nothing.
 */
export const parseSpendCsv = (content: string): SpendCsv => {
  const lines = content.replace(/^\uFEFF/, '').split(/\r?\n/);
  const header = fieldsOf(lines[0] ?? '');
  if (header === undefined || header.map((h) => h.trim().toLowerCase()).join(',') !== SPEND_CSV_HEADER.join(','))
    return { entries: [], problems: [{ line: 1, message: `the first line must be the header ${SPEND_CSV_HEADER.join(',')}` }] };
  const entries: SpendEntry[] = [];
  const problems: { line: number; message: string }[] = [];
  lines.slice(1).forEach((raw, index) => {
    const line = index + 2;
    if (raw.trim() === '') return;
    const fields = fieldsOf(raw);
    if (fields === undefined || fields.length !== SPEND_CSV_HEADER.length) {
      problems.push({ line, message: `must have ${SPEND_CSV_HEADER.length} fields (${SPEND_CSV_HEADER.join(',')})` });
      return;
    }
    const [date, source, medium, campaign, content_, currency, amount] = fields.map((f) => f.trim()) as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const wrong = [
      ...(isCalendarDate(date) ? [] : ['date must be a calendar date written YYYY-MM-DD']),
      ...(text(source) ? [] : ['utm_source must be 1 to 255 characters']),
      ...(medium === '' || text(medium) ? [] : ['utm_medium must be at most 255 characters']),
      ...(text(campaign) ? [] : ['utm_campaign must be 1 to 255 characters']),
      ...(content_ === '' || text(content_) ? [] : ['utm_content must be at most 255 characters']),
      ...(isCurrencyCode(currency) ? [] : ['currency must be three uppercase letters']),
      ...(centsOf(amount) === undefined
        ? [`amount must be a decimal number of currency units with at most 2 decimals, up to ${MAX_CENTS / 100}`]
        : []),
    ];
    if (wrong.length > 0) {
      problems.push({ line, message: wrong.join('; ') });
      return;
    }
    entries.push({
      date,
      utmSource: source,
      utmMedium: medium === '' ? NOT_SET : medium,
      utmCampaign: campaign,
      utmContent: content_ === '' ? NOT_SET : content_,
      currency,
      amountCents: centsOf(amount)!,
    });
  });
  return { entries, problems };
};
