import type * as E from 'fp-ts/Either';
import { NOT_SET } from '../../domain/attribution';
import { isCurrencyCode } from '../../domain/money';
import type { SpendEntry } from '../../domain/spend';
import { isCalendarDate } from '../../domain/time-zone';
import { amountColumn, checkedColumn, CSV_MAX_BYTES, readCsv, textColumn, type CsvRead, type CsvRefusal } from '../shared/csv-file';

/** The largest spend CSV read: about 30,000 lines, a year of daily spend for 80 campaigns. */
export const SPEND_CSV_MAX_BYTES = CSV_MAX_BYTES;

/** As the API takes a key's fields: 1 to 255 characters. */
const KEY_MAX = 255;

/** The columns of a spend CSV, with the other names a header may give them (English and Portuguese); medium and content may be left out. */
const SPEND_COLUMNS = {
  date: checkedColumn(isCalendarDate, 'a day written YYYY-MM-DD', '2026-03-01', ['day', 'data', 'dia']),
  utm_source: textColumn('google', KEY_MAX),
  utm_medium: textColumn('cpc', KEY_MAX, [], true),
  utm_campaign: textColumn('black-friday', KEY_MAX),
  utm_content: textColumn('ad-1', KEY_MAX, [], true),
  currency: checkedColumn(isCurrencyCode, "a currency's three capital letters", 'BRL', ['moeda']),
  amount: amountColumn(['spend', 'valor', 'gasto']),
};

/** The header a spend CSV starts with, as the documentation and the console show it. */
export const SPEND_CSV_HEADER = Object.keys(SPEND_COLUMNS);

/** Every name a spend CSV's header may give each column. */
export const SPEND_CSV_ALIASES = Object.fromEntries(Object.entries(SPEND_COLUMNS).map(([name, column]) => [name, column.aliases]));

/** Reads a spend CSV (readCsv: strict UTF-8, `,` or `;`, at most CSV_MAX_BYTES, stops at MAX_CSV_PROBLEMS bad lines). */
export const parseSpendCsv = (bytes: Uint8Array): Promise<E.Either<CsvRefusal, CsvRead<SpendEntry>>> =>
  readCsv(bytes, {
    columns: SPEND_COLUMNS,
    entryOf: (v) => ({
      date: v.date,
      utmSource: v.utm_source,
      utmMedium: v.utm_medium === '' ? NOT_SET : v.utm_medium,
      utmCampaign: v.utm_campaign,
      utmContent: v.utm_content === '' ? NOT_SET : v.utm_content,
      currency: v.currency,
      amountCents: v.amount,
    }),
  });
