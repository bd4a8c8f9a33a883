import type * as E from 'fp-ts/Either';
import { NOT_SET } from '../../domain/attribution';
import { isCurrencyCode } from '../../domain/money';
import type { SpendEntry } from '../../domain/spend';
import { isCalendarDate } from '../../domain/time-zone';
import { AMOUNT_RULE, centsOf, CSV_MAX_BYTES, readCsv, type CsvRefusal } from '../shared/csv-file';

/** The header a spend CSV starts with (DECISIONS D16). */
export const SPEND_CSV_HEADER = ['date', 'utm_source', 'utm_medium', 'utm_campaign', 'utm_content', 'currency', 'amount'] as const;

/** The largest spend CSV read: about 30,000 lines, a year of daily spend for 80 campaigns. */
export const SPEND_CSV_MAX_BYTES = CSV_MAX_BYTES;

/** 1 to 255 code points; a string of more than 510 UTF-16 units has more than 255, so it is never spread. */
const text = (value: string): boolean => value.length >= 1 && value.length <= 510 && [...value].length <= 255;

/** One line's entry, or what is wrong with it. */
const entryOf = (fields: readonly string[]): SpendEntry | string => {
  const [date, source, medium, campaign, content, currency, amount] = fields as [string, string, string, string, string, string, string];
  const cents = centsOf(amount);
  const wrong = [
    ...(isCalendarDate(date) ? [] : ['date must be a calendar date written YYYY-MM-DD']),
    ...(text(source) ? [] : ['utm_source must be 1 to 255 characters']),
    ...(medium === '' || text(medium) ? [] : ['utm_medium must be at most 255 characters']),
    ...(text(campaign) ? [] : ['utm_campaign must be 1 to 255 characters']),
    ...(content === '' || text(content) ? [] : ['utm_content must be at most 255 characters']),
    ...(isCurrencyCode(currency) ? [] : ['currency must be three uppercase letters']),
    ...(cents === undefined ? [`amount ${AMOUNT_RULE}`] : []),
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

/** Reads a spend CSV (readCsv: strict UTF-8, at most CSV_MAX_BYTES, stops at MAX_CSV_PROBLEMS bad lines). */
export const parseSpendCsv = (bytes: Uint8Array): Promise<E.Either<CsvRefusal, readonly SpendEntry[]>> =>
  readCsv(bytes, { header: SPEND_CSV_HEADER, entryOf });
