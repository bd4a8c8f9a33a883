import * as t from 'io-ts';
import { NOT_SET } from '../../../domain/attribution';
import { isCalendarDate } from '../../../domain/time-zone';
import { MAX_SPEND_ENTRIES } from '../../../domain/spend';
import { check, defaulted, strictObject } from '../kit/codec-kit';
import { entriesPut } from '../kit/entries-put';
import { described } from '../kit/json-schema';
import { listPage, pagingParams, single } from '../kit/list-query';
import { cents, currency, text } from '../orders/order-codecs';

/** Ad spend of decision 0016. */

export const calendarDate = check(
  'CalendarDate',
  (u): u is string => typeof u === 'string' && isCalendarDate(u),
  'must be a calendar date written YYYY-MM-DD',
  { type: 'string', format: 'date', pattern: '^\\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01])$', examples: ['2026-11-20'] },
);

const optionalKey = defaulted(described(text, `\`${NOT_SET}\` when omitted.`), NOT_SET);

const SpendEntry = strictObject(
  'SpendEntry',
  {
    date: described(calendarDate, "A day of the dashboard's time zone."),
    utmSource: text,
    utmCampaign: text,
    currency,
    amountCents: described(cents, 'What was spent that day on that key, in cents: it replaces what was stored, it is not added to it.'),
  },
  { utmMedium: optionalKey, utmContent: optionalKey },
);

export const PutSpend = entriesPut('PutSpend', SpendEntry, MAX_SPEND_ENTRIES);

export const ListSpendQuery = strictObject(
  'ListSpendQuery',
  {},
  {
    from: described(single(calendarDate), 'Only entries of this day or later.'),
    to: described(single(calendarDate), 'Only entries of this day or earlier.'),
    ...pagingParams('Entries'),
  },
);

const StoredSpendEntry = strictObject('StoredSpendEntry', {
  date: calendarDate,
  utmSource: text,
  utmMedium: text,
  utmCampaign: text,
  utmContent: text,
  currency,
  amountCents: cents,
  adAccount: described(
    t.union([t.string, t.null]),
    'The ad account whose sync wrote the entry (`meta:<account id>`, `google:…`, `tiktok:…`), replaced by its next sync; `null` for spend sent here or uploaded.',
  ),
});

export const SpendList = listPage(
  'SpendList',
  'entries',
  StoredSpendEntry,
  'Every entry in the range, whatever the page.',
  'Newest day first, then by key.',
);
