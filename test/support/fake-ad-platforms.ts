import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One ad and day of a platform's report; `amount` is written as the platform writes it (a decimal, or Google's micros). */
export interface FakeRow {
  readonly date: string;
  readonly campaignId: string;
  readonly campaignName: string;
  readonly adId: string;
  readonly adName: string;
  readonly amount: string;
}

export interface FakeAccount {
  readonly currency: string;
  readonly timeZone: string;
  rows: FakeRow[];
}

/** An answer served before the normal ones, once: an error, a rate limit, an outage. */
export interface CannedAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Record<string, string>;
}

export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

interface PlatformState {
  readonly accounts: Map<string, FakeAccount>;
  /** Served first, one per request, before the platform answers normally. */
  readonly canned: CannedAnswer[];
  /** Rows per page (Meta, TikTok) or per batch of the stream (Google). */
  pageSize: number;
}

const state = (): PlatformState => ({ accounts: new Map(), canned: [], pageSize: 2 });

/**
 * Meta, Google Ads (with its OAuth token endpoint) and TikTok on one loopback server, answering as
 * their documentation shows: the paths with their versions, the credentials where each expects them,
 * paging (Meta's `after` cursor, TikTok's `page`/`total_page`, Google's batches), amounts as decimal
 * strings or micros, and their error bodies. Tests point META_API_URL, GOOGLE_ADS_API_URL,
 * GOOGLE_OAUTH_URL and TIKTOK_API_URL at it.
 */
export class FakeAdPlatforms {
  readonly meta = { ...state(), accessToken: 'EAAB-meta-system-user-token', held: new Set<string>() };
  private readonly waiting: (() => void)[] = [];
  readonly google = {
    ...state(),
    developerToken: 'dev-token-123',
    clientId: 'client-1.apps.googleusercontent.com',
    clientSecret: 'GOCSPX-client-secret',
    refreshToken: '1//refresh-token-abc',
    accessToken: 'ya29.fresh-access-token',
    loginCustomerId: undefined as string | undefined,
    /** Canned answers of the token endpoint. */
    oauthCanned: [] as CannedAnswer[],
  };
  readonly tiktok = { ...state(), accessToken: 'tiktok-access-token-xyz' };
  readonly requests: SeenRequest[] = [];

  private constructor(private readonly server: Server) {}

  static async start(): Promise<FakeAdPlatforms> {
    let fake: FakeAdPlatforms | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => fake!.answer(req, Buffer.concat(chunks).toString('utf8'), res));
    });
    fake = new FakeAdPlatforms(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The settings of a service that reads these platforms here. */
  get settings() {
    return {
      metaApiUrl: `${this.url}/meta`,
      googleAdsApiUrl: `${this.url}/google`,
      googleOAuthUrl: `${this.url}/google-oauth/token`,
      tiktokApiUrl: `${this.url}/tiktok`,
    };
  }

  /** Answers the requests for Meta's held accounts: they hang until then. */
  releaseHeld(): void {
    this.meta.held.clear();
    for (const answer of this.waiting.splice(0)) answer();
  }

  async stop(): Promise<void> {
    this.releaseHeld();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private answer(req: IncomingMessage, body: string, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://fake');
    this.requests.push({ method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body });
    const send = (answer: CannedAnswer): void => {
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(JSON.stringify(answer.body));
    };
    const [, platform, ...rest] = url.pathname.split('/');
    if (platform === 'google-oauth') return send(this.google.oauthCanned.shift() ?? this.googleToken(body));
    const own = platform === 'meta' ? this.meta : platform === 'google' ? this.google : platform === 'tiktok' ? this.tiktok : undefined;
    if (own === undefined) return send({ status: 404, body: { error: 'no such platform' } });
    const canned = own.canned.shift();
    if (canned !== undefined) return send(canned);
    if (platform === 'meta' && this.meta.held.has((rest[1] ?? '').replace(/^act_/, ''))) {
      this.waiting.push(() => send(this.metaAnswer(rest, url.searchParams)));
      return;
    }
    if (platform === 'meta') return send(this.metaAnswer(rest, url.searchParams));
    if (platform === 'google') return send(this.googleAnswer(rest, req.headers, body));
    return send(this.tiktokAnswer(rest, url.searchParams, req.headers));
  }

  // ---- Meta: GET /v25.0/act_<id>?fields=…, GET /v25.0/act_<id>/insights?level=ad&time_increment=1&…

  private metaAnswer(path: string[], query: URLSearchParams): CannedAnswer {
    const [version, node, edge] = path;
    if (version !== 'v25.0') return metaError(400, 'Unknown path components', 2500);
    if (query.get('access_token') !== this.meta.accessToken) return META_INVALID_TOKEN;
    const account = this.meta.accounts.get((node ?? '').replace(/^act_/, ''));
    if (account === undefined || !(node ?? '').startsWith('act_'))
      return metaError(400, 'Unsupported get request. Object does not exist', 100, 33);
    if (edge === undefined) return { status: 200, body: { currency: account.currency, timezone_name: account.timeZone, id: node } };
    if (query.get('level') !== 'ad' || query.get('time_increment') !== '1') return metaError(400, 'Invalid parameter', 100);
    const range = JSON.parse(query.get('time_range') ?? '{}') as { since: string; until: string };
    const rows = account.rows.filter((row) => row.date >= range.since && row.date <= range.until);
    const limit = Number(query.get('limit') ?? 25);
    const size = Math.min(limit, this.meta.pageSize);
    const offset = query.get('after') === null ? 0 : Number(Buffer.from(query.get('after')!, 'base64').toString());
    const page = rows.slice(offset, offset + size);
    const cursor = (n: number) => Buffer.from(String(n)).toString('base64');
    return {
      status: 200,
      body: {
        data: page.map((row) => ({
          campaign_id: row.campaignId,
          campaign_name: row.campaignName,
          ad_id: row.adId,
          ad_name: row.adName,
          spend: row.amount,
          date_start: row.date,
          date_stop: row.date,
        })),
        paging: {
          cursors: { before: cursor(offset), after: cursor(offset + page.length) },
          ...(offset + page.length < rows.length
            ? { next: `https://graph.facebook.com/v25.0/${node}/insights?after=${cursor(offset + page.length)}` }
            : {}),
        },
      },
    };
  }

  // ---- Google: POST /token (form), POST /v25/customers/<id>/googleAds:searchStream

  private googleToken(body: string): CannedAnswer {
    const form = new URLSearchParams(body);
    if (
      form.get('grant_type') !== 'refresh_token' ||
      form.get('client_id') !== this.google.clientId ||
      form.get('client_secret') !== this.google.clientSecret
    ) {
      return { status: 401, body: { error: 'invalid_client', error_description: 'The OAuth client was not found.' } };
    }
    if (form.get('refresh_token') !== this.google.refreshToken) return GOOGLE_INVALID_GRANT;
    return {
      status: 200,
      body: {
        access_token: this.google.accessToken,
        expires_in: 3599,
        scope: 'https://www.googleapis.com/auth/adwords',
        token_type: 'Bearer',
      },
    };
  }

  private googleAnswer(path: string[], headers: IncomingMessage['headers'], body: string): CannedAnswer {
    const [version, customers, customerId, call] = path;
    if (version !== 'v25' || customers !== 'customers' || call !== 'googleAds:searchStream')
      return googleError(404, 'NOT_FOUND', 'Not found');
    if (headers['authorization'] !== `Bearer ${this.google.accessToken}`)
      return googleError(401, 'UNAUTHENTICATED', 'Request is missing required authentication credential.');
    if (headers['developer-token'] !== this.google.developerToken)
      return googleError(401, 'UNAUTHENTICATED', 'The developer token is not valid.');
    if (headers['login-customer-id'] !== this.google.loginCustomerId)
      return googleError(403, 'PERMISSION_DENIED', "User doesn't have permission to access customer.");
    const customer = this.google.accounts.get(customerId ?? '');
    if (customer === undefined) return googleError(403, 'PERMISSION_DENIED', "User doesn't have permission to access customer.");
    const { query } = JSON.parse(body) as { query: string };
    if (/FROM customer$/.test(query)) {
      return {
        status: 200,
        body: [
          {
            results: [
              { customer: { resourceName: `customers/${customerId}`, currencyCode: customer.currency, timeZone: customer.timeZone } },
            ],
          },
        ],
      };
    }
    const between = /segments\.date BETWEEN '(\d{4}-\d{2}-\d{2})' AND '(\d{4}-\d{2}-\d{2})'/.exec(query);
    if (!/FROM ad_group_ad/.test(query) || between === null) return googleError(400, 'INVALID_ARGUMENT', 'Error in query.');
    const rows = customer.rows.filter((row) => row.date >= between[1] && row.date <= between[2] && Number(row.amount) > 0);
    const batches: unknown[] = [];
    for (let at = 0; at < rows.length; at += this.google.pageSize) {
      batches.push({
        results: rows.slice(at, at + this.google.pageSize).map((row) => ({
          campaign: { resourceName: `customers/${customerId}/campaigns/${row.campaignId}`, id: row.campaignId, name: row.campaignName },
          adGroupAd: {
            resourceName: `customers/${customerId}/adGroupAds/1~${row.adId}`,
            ad: {
              resourceName: `customers/${customerId}/ads/${row.adId}`,
              id: row.adId,
              ...(row.adName === '' ? {} : { name: row.adName }),
            },
          },
          metrics: { costMicros: row.amount },
          segments: { date: row.date },
        })),
        fieldMask: 'campaign.id,campaign.name,adGroupAd.ad.id,adGroupAd.ad.name,segments.date,metrics.costMicros',
        requestId: 'fake-request',
      });
    }
    return { status: 200, body: batches };
  }

  // ---- TikTok: GET /open_api/v1.3/advertiser/info/, GET /open_api/v1.3/report/integrated/get/

  private tiktokAnswer(path: string[], query: URLSearchParams, headers: IncomingMessage['headers']): CannedAnswer {
    const [openApi, version, ...endpoint] = path;
    if (openApi !== 'open_api' || version !== 'v1.3') return { status: 404, body: { code: 40400, message: 'Not found' } };
    if (headers['access-token'] !== this.tiktok.accessToken) return TIKTOK_REVOKED;
    const name = endpoint.join('/');
    if (name === 'advertiser/info/') {
      const [id] = JSON.parse(query.get('advertiser_ids') ?? '[]') as string[];
      const advertiser = this.tiktok.accounts.get(id ?? '');
      if (advertiser === undefined) return tiktok(40001, 'No permission to operate advertiser', undefined);
      return tiktok(0, 'OK', {
        list: [{ advertiser_id: id, currency: advertiser.currency, timezone: 'Etc/GMT+3', display_timezone: advertiser.timeZone }],
      });
    }
    if (name !== 'report/integrated/get/') return { status: 404, body: { code: 40400, message: 'Not found' } };
    const advertiser = this.tiktok.accounts.get(query.get('advertiser_id') ?? '');
    if (advertiser === undefined) return tiktok(40001, 'No permission to operate advertiser', undefined);
    if (query.get('report_type') !== 'BASIC' || query.get('data_level') !== 'AUCTION_AD')
      return tiktok(40002, 'report_type: Invalid value', undefined);
    const from = query.get('start_date') ?? '';
    const to = query.get('end_date') ?? '';
    const rows = advertiser.rows.filter((row) => row.date >= from && row.date <= to);
    const size = Math.min(Number(query.get('page_size') ?? 10), this.tiktok.pageSize);
    const page = Number(query.get('page') ?? 1);
    const totalPage = Math.max(1, Math.ceil(rows.length / size));
    return tiktok(0, 'OK', {
      list: rows.slice((page - 1) * size, page * size).map((row) => ({
        dimensions: { ad_id: row.adId, stat_time_day: `${row.date} 00:00:00` },
        metrics: { spend: row.amount, campaign_id: row.campaignId, campaign_name: row.campaignName, ad_name: row.adName },
      })),
      page_info: { page, page_size: size, total_number: rows.length, total_page: totalPage },
    });
  }
}

const metaError = (status: number, message: string, code: number, subcode?: number, headers?: Record<string, string>): CannedAnswer => ({
  status,
  body: {
    error: {
      message,
      type: 'OAuthException',
      code,
      ...(subcode === undefined ? {} : { error_subcode: subcode }),
      fbtrace_id: 'AbCdEfGh123',
    },
  },
  ...(headers === undefined ? {} : { headers }),
});

const googleError = (status: number, code: string, message: string, extra: Record<string, unknown> = {}): CannedAnswer => ({
  status,
  body: [
    {
      error: {
        code: status,
        message,
        status: code,
        details: [
          {
            '@type': 'type.googleapis.com/google.ads.googleads.v25.errors.GoogleAdsFailure',
            errors: [{ errorCode: { authorizationError: code }, message, ...extra }],
            requestId: 'fake-request',
          },
        ],
      },
    },
  ],
});

const tiktok = (code: number, message: string, data: unknown): CannedAnswer => ({
  status: 200,
  body: { code, message, request_id: '2026112012345678', ...(data === undefined ? {} : { data }) },
});

/** Meta's answer to an expired token (code 190, subcode 463). */
export const META_EXPIRED_TOKEN = metaError(
  400,
  'Error validating access token: Session has expired on Friday, 20-Nov-26 09:00:00 PST. The current time is Friday, 20-Nov-26 10:00:00 PST.',
  190,
  463,
);
export const META_INVALID_TOKEN = metaError(400, 'Invalid OAuth access token - Cannot parse access token', 190);
/** Meta's ads insights limit (code 80004) with the wait in its business use case header, in minutes. */
export const metaRateLimit = (minutes: number): CannedAnswer =>
  metaError(400, 'There have been too many calls to this ad-account. Wait a bit and try again.', 80004, 2446079, {
    'x-business-use-case-usage': JSON.stringify({
      '1234567890': [
        { type: 'ads_insights', call_count: 100, total_cputime: 40, total_time: 60, estimated_time_to_regain_access: minutes },
      ],
    }),
  });
export const META_OUTAGE: CannedAnswer = metaError(500, 'An unknown error occurred', 1);

export const GOOGLE_INVALID_GRANT: CannedAnswer = {
  status: 400,
  body: { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' },
};
/** Google's quota error with the delay it names. */
export const googleQuota = (retryDelay: string): CannedAnswer =>
  googleError(429, 'RESOURCE_EXHAUSTED', 'Too many requests. Retry in a moment.', {
    details: { quotaErrorDetails: { rateScope: 'DEVELOPER', rateName: 'Number of operations for basic access', retryDelay } },
  });
export const GOOGLE_UNAVAILABLE: CannedAnswer = googleError(503, 'UNAVAILABLE', 'The service is currently unavailable.');

export const TIKTOK_REVOKED: CannedAnswer = tiktok(40105, 'Access token is incorrect or has been revoked.', undefined);
export const TIKTOK_RATE_LIMIT: CannedAnswer = tiktok(40100, 'Too many requests. Please retry in some time.', undefined);

/** The `days` days ending today (UTC) of `now`, newest last. */
export const recentDays = (now: Date, days: number): string[] =>
  Array.from({ length: days }, (_, i) => new Date(now.getTime() - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10));
