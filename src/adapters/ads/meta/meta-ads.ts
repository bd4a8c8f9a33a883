import * as E from 'fp-ts/Either';
import type { AdPlatform, SpendQuery } from '../../../application/ports/ad-platform';
import type { MetaCredentials } from '../../../domain/ad-account';
import { centsOfDecimal, type PlatformSpend, type PlatformSpendRow, type SyncFailure } from '../../../domain/ad-spend';
import { isCurrencyCode } from '../../../domain/money';
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
  type NotOk,
  type PlatformResponse,
  type Verdict,
} from '../platform-client';

/**
 * The Marketing API version every request names. Meta keeps a version about two years; moving to a
 * newer one is a change of this line and of docs/ad-platforms.md.
 */
export const META_API_VERSION = 'v25.0';

/** Rows per page of insights: Meta's pages go up to a few hundred rows of this size. */
const PAGE_SIZE = 500;
/** The most pages one sync follows: 2,000 pages of 500 rows is a million ad-days. */
const MAX_PAGES = 2_000;

/**
 * Meta's error codes that mean "too many calls, wait": the API's own (4, 17, 32, 613) and the
 * business use case limits (80000–80014, 80004 being ads insights).
 * https://developers.facebook.com/docs/marketing-api/overview/rate-limiting
 */
export const isRateLimitCode = (code: number): boolean => [4, 17, 32, 613].includes(code) || (code >= 80_000 && code <= 80_014);
/** Codes Meta documents as temporary ("wait and retry"): unknown, service, and insights' timeouts and intermittent errors. */
const isTemporaryCode = (code: number, subcode: number | undefined): boolean =>
  code === 1 || code === 2 || (code === 100 && subcode === 1_504_018);

/**
 * The longest `estimated_time_to_regain_access` (minutes) in the business use case header, in ms:
 * `{"<business id>": [{"type": "ads_insights", "call_count": 100, …, "estimated_time_to_regain_access": 5}]}`.
 */
const regainAccessMs = (header: string | null): number | undefined => {
  if (header === null) return undefined;
  try {
    const usage: unknown = JSON.parse(header);
    const minutes = Object.values(typeof usage === 'object' && usage !== null ? usage : {})
      .flatMap((entries: unknown) => items(entries))
      .map((entry) => Number(field(entry, 'estimated_time_to_regain_access') ?? 0))
      .filter((n) => Number.isFinite(n) && n > 0);
    return minutes.length === 0 ? undefined : Math.max(...minutes) * 60_000;
  } catch {
    return undefined;
  }
};

/**
 * Meta's error body (https://developers.facebook.com/docs/graph-api/guides/error-handling):
 * `{"error": {"message", "type", "code", "error_subcode", "error_user_msg", "fbtrace_id"}}`.
 */
export const judgeError = (response: PlatformResponse): NotOk => {
  const error = field(response.json, 'error');
  const code = Number(field(error, 'code'));
  const subcode = field(error, 'error_subcode') === undefined ? undefined : Number(field(error, 'error_subcode'));
  const said = textField(error, 'error_user_msg') ?? textField(error, 'message');
  if (error === undefined || said === undefined || !Number.isInteger(code)) {
    return unexplained('Meta', response);
  }
  const message = `Meta: ${said} (code ${code}${subcode === undefined ? '' : `, subcode ${subcode}`})`;
  if (isRateLimitCode(code)) return { retry: message, ...optional(regainAccessMs(response.headers.get('x-business-use-case-usage'))) };
  if (isTemporaryCode(code, subcode) || response.status >= 500) return { retry: message };
  return { fail: { kind: 'needsAttention', message } };
};

const optional = (waitMs: number | undefined): { waitMs?: number } => (waitMs === undefined ? {} : { waitMs });

export interface MetaSettings extends PlatformClientSettings {
  /** META_API_URL: `https://graph.facebook.com` unless tests play Meta. */
  readonly baseUrl: string;
}

/**
 * Meta's Marketing API: the ad account's currency and time zone
 * (https://developers.facebook.com/docs/marketing-api/reference/ad-account), then its insights at the
 * ad level, one row per ad and day (`level=ad`, `time_increment=1`), paged by the `after` cursor
 * until `paging.next` is absent (https://developers.facebook.com/docs/marketing-api/insights). Spend
 * is a decimal string in the account's currency. The token goes as `access_token`, as Meta documents;
 * the next page is asked of META_API_URL with the cursor, never of the URL Meta names.
 */
export class MetaAds implements AdPlatform<'meta'> {
  constructor(private readonly settings: MetaSettings) {}

  async readSpend(query: SpendQuery, credentials: MetaCredentials, signal: AbortSignal): Promise<E.Either<SyncFailure, PlatformSpend>> {
    const account = `${this.settings.baseUrl}/${META_API_VERSION}/act_${encodeURIComponent(query.accountId)}`;
    const info = await callPlatform(
      'Meta',
      { url: `${account}?${new URLSearchParams({ fields: 'currency,timezone_name', access_token: credentials.accessToken }).toString()}` },
      (response) => {
        if (response.status !== 200) return judgeError(response);
        const currency = textField(response.json, 'currency');
        const timeZone = textField(response.json, 'timezone_name');
        return currency !== undefined && isCurrencyCode(currency) && timeZone !== undefined
          ? { ok: { currency, timeZone } }
          : unreadable('Meta', 'the ad account');
      },
      this.settings,
      signal,
    );
    if (E.isLeft(info)) return info;
    const { from, to } = accountDays(query.now, info.right.timeZone, query.days);
    const rows: PlatformSpendRow[] = [];
    let after: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const params = new URLSearchParams({
        level: 'ad',
        time_increment: '1',
        time_range: JSON.stringify({ since: from, until: to }),
        fields: 'campaign_id,campaign_name,ad_id,ad_name,spend',
        filtering: JSON.stringify([{ field: 'spend', operator: 'GREATER_THAN', value: 0 }]),
        limit: String(PAGE_SIZE),
        access_token: credentials.accessToken,
        ...(after === undefined ? {} : { after }),
      });
      const read = await callPlatform(
        'Meta',
        { url: `${account}/insights?${params.toString()}` },
        (response) => this.judgePage(response, from, to),
        this.settings,
        signal,
      );
      if (E.isLeft(read)) return read;
      rows.push(...read.right.rows);
      if (read.right.after === undefined) return E.right({ ...info.right, from, to, rows });
      after = read.right.after;
    }
    return E.left<SyncFailure>({ kind: 'unavailable', message: `Meta's insights ran past ${MAX_PAGES} pages` });
  }

  private judgePage(response: PlatformResponse, from: string, to: string): Verdict<{ rows: PlatformSpendRow[]; after?: string }> {
    if (response.status !== 200) return judgeError(response);
    const data = field(response.json, 'data');
    if (!Array.isArray(data)) return unreadable('Meta', 'insights');
    const rows: PlatformSpendRow[] = [];
    for (const item of data) {
      const row = spendRowWithin(
        {
          date: textField(item, 'date_start'),
          amountCents: centsOfDecimal(textField(item, 'spend') ?? ''),
          campaignId: textField(item, 'campaign_id'),
          campaignName: textField(item, 'campaign_name'),
          adId: textField(item, 'ad_id'),
          adName: textField(item, 'ad_name'),
        },
        from,
        to,
      );
      if (row === undefined) return unreadable('Meta', 'an insights row');
      rows.push(row);
    }
    const paging = field(response.json, 'paging');
    const after = textField(field(paging, 'cursors'), 'after');
    return { ok: field(paging, 'next') === undefined || after === undefined ? { rows } : { rows, after } };
  }
}
