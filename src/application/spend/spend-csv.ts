import * as E from 'fp-ts/Either';
import { NOT_SET } from '../../domain/attribution';
import { isCurrencyCode, MAX_CENTS } from '../../domain/money';
import type { SpendEntry } from '../../domain/spend';
import { isCalendarDate } from '../../domain/time-zone';
import { EventLoopSlices } from '../shared/event-loop-slices';
import { utf8Lines } from '../shared/utf8-lines';

/** The header a spend CSV starts with (DECISIONS D16). */
export const SPEND_CSV_HEADER = ['date', 'utm_source', 'utm_medium', 'utm_campaign', 'utm_content', 'currency', 'amount'] as const;

/**
 * The largest spend CSV read, from the console and the CLI alike: 2 MiB, the console's upload limit
 * (about 30,000 lines of 60-70 bytes, a year of daily spend for 80 campaigns). Larger files are split.
 */
export const SPEND_CSV_MAX_BYTES = 2 * 1024 * 1024;

/** The reading stops at this many bad lines: a file of bad lines costs no more than this to answer. */
export const MAX_CSV_PROBLEMS = 100;

export interface CsvProblem {
  /** 1-based. */
  readonly line: number;
  readonly message: string;
}

/** Why a spend CSV imports nothing. */
export type SpendCsvRefusal =
  | { readonly _tag: 'SpendCsvTooLarge'; readonly limitBytes: number }
  | {
      readonly _tag: 'SpendCsvInvalid';
      /** The bad lines in file order, at most MAX_CSV_PROBLEMS. */
      readonly problems: readonly CsvProblem[];
      /** True when the reading stopped at MAX_CSV_PROBLEMS, leaving the rest of the file unread. */
      readonly stoppedEarly: boolean;
    };

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

/** 1 to 255 code points; a string of more than 510 UTF-16 units has more than 255, so it is never spread. */
const text = (value: string): boolean => value.length >= 1 && value.length <= 510 && [...value].length <= 255;

const NOT_UTF8 = 'is not valid UTF-8: save the file as UTF-8 (CSV UTF-8 in a spreadsheet)';

/** One line's entry, or what is wrong with it. */
const entryOf = (raw: string): SpendEntry | string => {
  const fields = fieldsOf(raw);
  if (fields === undefined || fields.length !== SPEND_CSV_HEADER.length)
    return `must have ${SPEND_CSV_HEADER.length} fields (${SPEND_CSV_HEADER.join(',')})`;
  const [date, source, medium, campaign, content, currency, amount] = fields.map((f) => f.trim()) as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const cents = centsOf(amount);
  const wrong = [
    ...(isCalendarDate(date) ? [] : ['date must be a calendar date written YYYY-MM-DD']),
    ...(text(source) ? [] : ['utm_source must be 1 to 255 characters']),
    ...(medium === '' || text(medium) ? [] : ['utm_medium must be at most 255 characters']),
    ...(text(campaign) ? [] : ['utm_campaign must be 1 to 255 characters']),
    ...(content === '' || text(content) ? [] : ['utm_content must be at most 255 characters']),
    ...(isCurrencyCode(currency) ? [] : ['currency must be three uppercase letters']),
    ...(cents === undefined ? [`amount must be a decimal number of currency units with at most 2 decimals, up to ${MAX_CENTS / 100}`] : []),
  ];
  if (wrong.length > 0) return wrong.join('; ');
  return {
    date,
    utmSource: source,
    utmMedium: medium === '' ? NOT_SET : medium,
    utmCampaign: campaign,
    utmContent: content === '' ? NOT_SET : content,
    currency,
    amountCents: cents!,
  };
};

/**
 * Reads a spend CSV from its bytes: the header, then one entry per line (empty lines skipped). A file
 * over SPEND_CSV_MAX_BYTES is refused unread; a line that is not UTF-8 or cannot be imported is a
 * problem with its line number, and the reading stops at MAX_CSV_PROBLEMS of them; any problem means
 * nothing is imported. The lines are read in stretches of the event loop (DECISIONS D23), so a large
 * file never holds other requests up for long.
 */
export const parseSpendCsv = async (bytes: Uint8Array): Promise<E.Either<SpendCsvRefusal, readonly SpendEntry[]>> => {
  if (bytes.length > SPEND_CSV_MAX_BYTES) return E.left({ _tag: 'SpendCsvTooLarge', limitBytes: SPEND_CSV_MAX_BYTES });
  const slices = new EventLoopSlices();
  const entries: SpendEntry[] = [];
  const problems: CsvProblem[] = [];
  const invalid = (stoppedEarly: boolean) => E.left({ _tag: 'SpendCsvInvalid' as const, problems, stoppedEarly });
  let line = 0;
  for (const raw of utf8Lines(bytes)) {
    line++;
    if (line === 1) {
      if (raw === undefined) return E.left({ _tag: 'SpendCsvInvalid', problems: [{ line, message: NOT_UTF8 }], stoppedEarly: false });
      const header = fieldsOf(raw.replace(/^\uFEFF/, ''));
      if (header === undefined || header.map((h) => h.trim().toLowerCase()).join(',') !== SPEND_CSV_HEADER.join(','))
        return E.left({
          _tag: 'SpendCsvInvalid',
          problems: [{ line: 1, message: `the first line must be the header ${SPEND_CSV_HEADER.join(',')}` }],
          stoppedEarly: false,
        });
      continue;
    }
    if (raw?.trim() === '') continue;
    const entry = raw === undefined ? NOT_UTF8 : entryOf(raw);
    if (typeof entry === 'string') {
      problems.push({ line, message: entry });
      if (problems.length >= MAX_CSV_PROBLEMS) return invalid(true);
    } else if (problems.length === 0) entries.push(entry);
    await slices.pause();
  }
  return problems.length > 0 ? invalid(false) : E.right(entries);
};
