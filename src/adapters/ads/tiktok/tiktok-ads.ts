import * as E from 'fp-ts/Either';
import type { AdPlatform, SpendQuery } from '../../../application/ports/ad-platform';
import type { TikTokCredentials } from '../../../domain/ad-account';
import { centsOfDecimal, type PlatformSpend, type PlatformSpendRow, type SyncFailure } from '../../../domain/ad-spend';
import { isCurrencyCode } from '../../../domain/money';
import { isTimeZone } from '../../../domain/time-zone';
import { accountDays } from '../account-days';
import { spendRowWithin } from '../spend-rows';
import {
  callPlatform,
  field,
  items,
  textField,
  unexplained,
  unreadable,
  type PlatformClientSettings,
  type PlatformResponse,
  type Verdict,
} from '../platform-client';

/** The API for Business version every request names. */
export const TIKTOK_API_VERSION = 'v1.3';

/** Rows per page: the most `report/integrated/get` gives. */
const PAGE_SIZE = 1_000;
const MAX_PAGES = 1_000;
/** TikTok's code for too many requests in a second; codes from 50000 are its own failures (retried). */
const RATE_LIMIT_CODE = 40_100;

export interface TikTokSettings extends PlatformClientSettings {
  /** TIKTOK_API_URL: `https://business-api.tiktok.com` unless tests play TikTok. */
  readonly baseUrl: string;
}

/**
 * TikTok answers 200 with `{"code", "message", "request_id", "data"}`, `code` 0 when it worked
 * (the API for Business's return codes, https://business-api.tiktok.com/portal/docs).
 */
const judge = <A>(response: PlatformResponse, read: (data: unknown) => Verdict<A>): Verdict<A> => {
  const code = field(response.json, 'code');
  const said = textField(response.json, 'message');
  if (typeof code !== 'number' || said === undefined) {
    return unexplained('TikTok', response);
  }
  if (code === 0 && response.status === 200) return read(field(response.json, 'data'));
  const message = `TikTok: ${said} (code ${code})`;
  if (code === RATE_LIMIT_CODE || response.status === 429 || code >= 50_000 || response.status >= 500) return { retry: message };
  return { fail: { kind: 'needsAttention', message } };
};

/**
 * TikTok's API for Business: the advertiser's currency and time zone (`advertiser/info`, "Get advertiser info"
 * in https://business-api.tiktok.com/portal/docs), then the synchronous report
 * (`report/integrated/get`, https://business-api.tiktok.com/portal/docs?id=1740302848100353) of
 * report type BASIC at the ad level (`AUCTION_AD`) by `ad_id` and `stat_time_day`, with `spend` (a
 * decimal string in the account's currency), paged by `page` and `page_size` up to `total_page`.
 * The token goes in the `Access-Token` header.
 */
export class TikTokAds implements AdPlatform<'tiktok'> {
  constructor(private readonly settings: TikTokSettings) {}

  async readSpend(query: SpendQuery, credentials: TikTokCredentials, signal: AbortSignal): Promise<E.Either<SyncFailure, PlatformSpend>> {
    const api = `${this.settings.baseUrl}/open_api/${TIKTOK_API_VERSION}`;
    const headers = { 'Access-Token': credentials.accessToken };
    const info = await callPlatform(
      'TikTok',
      {
        url: `${api}/advertiser/info/?${new URLSearchParams({
          advertiser_ids: JSON.stringify([query.accountId]),
          fields: JSON.stringify(['currency', 'timezone', 'display_timezone']),
        }).toString()}`,
        headers,
      },
      (response) =>
        judge(response, (data) => {
          const list = field(data, 'list');
          const advertiser = items(list)[0];
          const currency = textField(advertiser, 'currency');
          const zone = [textField(advertiser, 'display_timezone'), textField(advertiser, 'timezone')].find(
            (z) => z !== undefined && isTimeZone(z),
          );
          return currency !== undefined && isCurrencyCode(currency)
            ? { ok: { currency, timeZone: zone ?? 'UTC' } }
            : unreadable('TikTok', 'the advertiser');
        }),
      this.settings,
      signal,
    );
    if (E.isLeft(info)) return info;
    const { from, to } = accountDays(query.now, info.right.timeZone, query.days);
    const rows: PlatformSpendRow[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const params = new URLSearchParams({
        advertiser_id: query.accountId,
        report_type: 'BASIC',
        data_level: 'AUCTION_AD',
        dimensions: JSON.stringify(['ad_id', 'stat_time_day']),
        metrics: JSON.stringify(['spend', 'campaign_id', 'campaign_name', 'ad_name']),
        start_date: from,
        end_date: to,
        page: String(page),
        page_size: String(PAGE_SIZE),
      });
      const read = await callPlatform(
        'TikTok',
        { url: `${api}/report/integrated/get/?${params.toString()}`, headers },
        (response) => judge(response, (data) => readPage(data, from, to)),
        this.settings,
        signal,
      );
      if (E.isLeft(read)) return read;
      rows.push(...read.right.rows);
      if (page >= read.right.totalPages) return E.right({ ...info.right, from, to, rows });
    }
    return E.left<SyncFailure>({ kind: 'unavailable', message: `TikTok's report ran past ${MAX_PAGES} pages` });
  }
}

const readPage = (data: unknown, from: string, to: string): Verdict<{ rows: PlatformSpendRow[]; totalPages: number }> => {
  const list = field(data, 'list');
  const totalPages = Number(field(field(data, 'page_info'), 'total_page'));
  if (!Array.isArray(list) || !Number.isInteger(totalPages)) return unreadable('TikTok', 'a report page');
  const rows: PlatformSpendRow[] = [];
  for (const item of list) {
    const dimensions = field(item, 'dimensions');
    const metrics = field(item, 'metrics');
    const row = spendRowWithin(
      {
        // `stat_time_day` is written "2026-11-20 00:00:00".
        date: textField(dimensions, 'stat_time_day')?.slice(0, 10),
        amountCents: centsOfDecimal(textField(metrics, 'spend') ?? ''),
        campaignId: textField(metrics, 'campaign_id'),
        campaignName: textField(metrics, 'campaign_name'),
        adId: textField(dimensions, 'ad_id'),
        adName: textField(metrics, 'ad_name'),
      },
      from,
      to,
    );
    if (row === undefined) return unreadable('TikTok', 'a report row');
    if (row.amountCents > 0) rows.push(row);
  }
  return { ok: { rows, totalPages } };
};
