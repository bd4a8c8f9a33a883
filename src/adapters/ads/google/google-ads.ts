import * as E from 'fp-ts/Either';
import type { AdPlatform, SpendQuery } from '../../../application/ports/ad-platform';
import type { GoogleCredentials } from '../../../domain/ad-account';
import { centsOfMicros, type PlatformSpend, type PlatformSpendRow, type SyncFailure } from '../../../domain/ad-spend';
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

/** The Google Ads API version every request names; Google sunsets each about a year after its release. */
export const GOOGLE_ADS_API_VERSION = 'v25';

export interface GoogleSettings extends PlatformClientSettings {
  /** GOOGLE_ADS_API_URL: `https://googleads.googleapis.com` unless tests play Google. */
  readonly baseUrl: string;
  /** GOOGLE_OAUTH_URL: where a refresh token becomes an access token, `https://oauth2.googleapis.com/token`. */
  readonly oauthUrl: string;
}

/** `"30s"`, `"1.5s"` (a protobuf Duration in JSON) in ms. */
export const durationMs = (text: string | undefined): number | undefined => {
  const match = text === undefined ? null : /^(\d+(?:\.\d+)?)s$/.exec(text);
  return match === null ? undefined : Math.ceil(Number(match[1]) * 1000);
};

/**
 * Google's error body (https://developers.google.com/google-ads/api/docs/best-practices/error-types):
 * `{"error": {"code", "message", "status", "details": [{"@type": "…GoogleAdsFailure", "errors":
 * [{"errorCode", "message", "details": {"quotaErrorDetails": {"retryDelay"}}}]}]}}`, on its own or
 * as the one element of searchStream's array. RESOURCE_EXHAUSTED waits for the delay Google names.
 */
export const judgeError = (response: PlatformResponse): NotOk => {
  const error = field(Array.isArray(response.json) ? response.json[0] : response.json, 'error');
  const status = textField(error, 'status');
  const details: unknown[] = (field(error, 'details') as unknown[] | undefined) ?? [];
  const failures = items(details).flatMap((detail) => items(field(detail, 'errors')));
  const said = textField(failures[0], 'message') ?? textField(error, 'message');
  const waitMs =
    durationMs(textField(field(field(failures[0], 'details'), 'quotaErrorDetails'), 'retryDelay')) ??
    durationMs(
      textField(
        (Array.isArray(details) ? details : []).find((d) => String(field(d, '@type')).endsWith('google.rpc.RetryInfo')),
        'retryDelay',
      ),
    );
  if (said === undefined) {
    return unexplained('Google Ads', response);
  }
  const message = `Google Ads: ${said}${status === undefined ? '' : ` (${status})`}`;
  if (response.status === 429 || status === 'RESOURCE_EXHAUSTED') return { retry: message, ...(waitMs === undefined ? {} : { waitMs }) };
  if (response.status >= 500 || status === 'UNAVAILABLE' || status === 'INTERNAL' || status === 'DEADLINE_EXCEEDED')
    return { retry: message };
  return { fail: { kind: 'needsAttention', message } };
};

/** `from..to` in spans of at most 7 days. */
const weeksOf = (from: string, to: string): { from: string; to: string }[] => {
  const weeks: { from: string; to: string }[] = [];
  for (let start = from; start <= to;) {
    const end = new Date(Date.parse(`${start}T00:00:00Z`) + 6 * 86_400_000).toISOString().slice(0, 10);
    weeks.push({ from: start, to: end < to ? end : to });
    start = new Date(Date.parse(`${end}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  }
  return weeks;
};

/** The rows of searchStream's answer: an array of batches, each with its `results`. */
const resultsOf = (json: unknown): unknown[] | undefined =>
  Array.isArray(json)
    ? json.flatMap((batch) => (Array.isArray(field(batch, 'results')) ? (field(batch, 'results') as unknown[]) : []))
    : undefined;

/**
 * The Google Ads API over REST: an access token from the refresh token (OAuth 2.0,
 * https://developers.google.com/identity/protocols/oauth2/web-server#offline), then two
 * `googleAds:searchStream` queries (https://developers.google.com/google-ads/api/rest/common/search)
 * with the `developer-token` and, for access through a manager account, `login-customer-id`
 * headers: the customer's currency and time zone, then `ad_group_ad` with `segments.date` and
 * `metrics.cost_micros` (millionths of the account's currency) for the days asked, a week per
 * query. searchStream answers every row of a query at once, in batches: there are no pages to follow.
 */
export class GoogleAds implements AdPlatform<'google'> {
  constructor(private readonly settings: GoogleSettings) {}

  async readSpend(query: SpendQuery, credentials: GoogleCredentials, signal: AbortSignal): Promise<E.Either<SyncFailure, PlatformSpend>> {
    const token = await googleAccessToken(this.settings, credentials, signal);
    if (E.isLeft(token)) return token;
    const search = <A>(gaql: string, judge: (results: unknown[]) => Verdict<A>) =>
      callPlatform(
        'Google Ads',
        {
          url: `${this.settings.baseUrl}/${GOOGLE_ADS_API_VERSION}/customers/${encodeURIComponent(query.accountId)}/googleAds:searchStream`,
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${token.right}`,
            'developer-token': credentials.developerToken,
            ...(credentials.loginCustomerId === undefined ? {} : { 'login-customer-id': credentials.loginCustomerId.replace(/-/g, '') }),
          },
          body: JSON.stringify({ query: gaql }),
        },
        (response) => {
          const results = response.status === 200 ? resultsOf(response.json) : undefined;
          if (response.status !== 200) return judgeError(response);
          return results === undefined ? unreadable('Google Ads', 'a search') : judge(results);
        },
        this.settings,
        signal,
      );
    const info = await search('SELECT customer.currency_code, customer.time_zone FROM customer', (results) => {
      const customer = field(results[0], 'customer');
      const currency = textField(customer, 'currencyCode');
      const timeZone = textField(customer, 'timeZone');
      return currency !== undefined && isCurrencyCode(currency) && timeZone !== undefined
        ? { ok: { currency, timeZone } }
        : unreadable('Google Ads', 'the customer');
    });
    if (E.isLeft(info)) return info;
    const { from, to } = accountDays(query.now, info.right.timeZone, query.days);
    const rows: PlatformSpendRow[] = [];
    for (const week of weeksOf(from, to)) {
      const read = await this.searchWeek(search, week.from, week.to);
      if (E.isLeft(read)) return read;
      rows.push(...read.right);
    }
    return E.right({ ...info.right, from, to, rows });
  }

  /** One week of rows: searchStream answers a query whole, so a week at a time keeps each answer (and its parsing) a quarter of the month's. */
  private searchWeek(
    search: <A>(gaql: string, judge: (results: unknown[]) => Verdict<A>) => Promise<E.Either<SyncFailure, A>>,
    from: string,
    to: string,
  ): Promise<E.Either<SyncFailure, PlatformSpendRow[]>> {
    return search(
      'SELECT campaign.id, campaign.name, ad_group_ad.ad.id, ad_group_ad.ad.name, segments.date, metrics.cost_micros FROM ad_group_ad ' +
        `WHERE segments.date BETWEEN '${from}' AND '${to}' AND metrics.cost_micros > 0`,
      (results) => {
        const read: PlatformSpendRow[] = [];
        for (const result of results) {
          const campaign = field(result, 'campaign');
          const ad = field(field(result, 'adGroupAd'), 'ad');
          const row = spendRowWithin(
            {
              date: textField(field(result, 'segments'), 'date'),
              amountCents: centsOfMicros(textField(field(result, 'metrics'), 'costMicros') ?? ''),
              campaignId: textField(campaign, 'id'),
              campaignName: textField(campaign, 'name'),
              adId: textField(ad, 'id'),
              adName: textField(ad, 'name'),
            },
            from,
            to,
          );
          if (row === undefined) return unreadable('Google Ads', 'a row');
          read.push(row);
        }
        return { ok: read };
      },
    );
  }
}

/** An access token for one sync or upload; a refused refresh token (`invalid_grant`) needs a person. */
export const googleAccessToken = (
  settings: Pick<GoogleSettings, 'oauthUrl'> & PlatformClientSettings,
  credentials: GoogleCredentials,
  signal: AbortSignal,
): Promise<E.Either<SyncFailure, string>> =>
  callPlatform(
    "Google's sign-in",
    {
      url: settings.oauthUrl,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: credentials.clientId,
        client_secret: credentials.clientSecret,
        refresh_token: credentials.refreshToken,
      }).toString(),
    },
    (response) => {
      const token = textField(response.json, 'access_token');
      if (response.status === 200 && token !== undefined) return { ok: token };
      const error = textField(response.json, 'error');
      const said = textField(response.json, 'error_description') ?? error;
      if (response.status >= 500 || response.status === 429) return { retry: `Google's sign-in answered ${response.status}` };
      if (said === undefined) return unreadable("Google's sign-in", `${response.status}`);
      return {
        fail: {
          kind: 'needsAttention',
          message: `Google's sign-in refused the refresh token: ${said}${error === undefined || error === said ? '' : ` (${error})`}`,
        },
      };
    },
    settings,
    signal,
  );
