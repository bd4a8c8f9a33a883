import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An answer served before the normal ones, once: a refusal, a rate limit, an outage, or no answer at all. */
export type CannedConversionAnswer =
  { readonly status: number; readonly body: unknown; readonly headers?: Record<string, string> } | 'hang';

export interface ConversionRequestSeen {
  readonly platform: 'meta' | 'google' | 'tiktok';
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: any;
  readonly at: number;
}

/** Meta's answer to an expired token (Graph API error handling, code 190, subcode 463). */
export const META_EXPIRED_TOKEN = {
  status: 400,
  body: {
    error: {
      message: 'Error validating access token: Session has expired on Thursday, 26-Nov-26 10:00:00 PST.',
      type: 'OAuthException',
      code: 190,
      error_subcode: 463,
      fbtrace_id: 'AbCdEfGh',
    },
  },
} as const;

/** Meta's refusal of a payload (code 100 with the Conversions API's subcode and user message). */
export const META_INVALID_PARAMETER = {
  status: 400,
  body: {
    error: {
      message: 'Invalid parameter',
      type: 'OAuthException',
      code: 100,
      error_subcode: 2804050,
      is_transient: false,
      error_user_title: 'Missing Customer Information Parameters',
      error_user_msg: 'The event does not have enough customer information parameters to be matched.',
      fbtrace_id: 'XyZ123',
    },
  },
} as const;

/** Google's upload answered 200 with the conversion refused in `partialFailureError`. */
export const GOOGLE_PARTIAL_FAILURE = {
  status: 200,
  body: {
    partialFailureError: {
      code: 3,
      message: 'The click ID could not be decoded., at conversions[0].gclid',
      details: [
        {
          '@type': 'type.googleapis.com/google.ads.googleads.v25.errors.GoogleAdsFailure',
          errors: [
            {
              errorCode: { conversionUploadError: 'UNPARSEABLE_GCLID' },
              message: 'The click ID could not be decoded.',
              location: { fieldPathElements: [{ fieldName: 'conversions', index: 0 }, { fieldName: 'gclid' }] },
            },
          ],
        },
      ],
    },
    results: [{}],
    jobId: '123',
  },
} as const;

/** Google's sign-in refusing a revoked refresh token. */
export const GOOGLE_REVOKED = { status: 400, body: { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' } };

/** TikTok's answer to a revoked token: HTTP 200 with its own code. */
export const TIKTOK_REVOKED = {
  status: 200,
  body: { code: 40105, message: 'Access token is incorrect or has been revoked.', request_id: '2026112900001' },
} as const;

/**
 * Meta's Conversions API, Google Ads' conversion uploads (with its OAuth token endpoint) and TikTok's
 * Events API on one loopback server, answering as their documentation shows: the paths with their
 * versions, the credentials where each expects them, their success bodies and error bodies. It also
 * answers the spend reads of the accounts' syncs with empty accounts, so that a connected account's
 * sync works. Tests point META_API_URL, GOOGLE_ADS_API_URL, GOOGLE_OAUTH_URL and TIKTOK_API_URL at it.
 */
export class FakeConversionPlatforms {
  readonly credentials = {
    meta: 'EAAB-meta-conversions-token',
    google: {
      developerToken: 'dev-token-c',
      clientId: 'c.apps.googleusercontent.com',
      clientSecret: 'GOCSPX-c',
      refreshToken: '1//refresh-c',
    },
    googleAccessToken: 'ya29.conversions-token',
    tiktok: 'tiktok-conversions-token',
  };
  /** Served first, one per conversion request of the platform, before it answers normally. */
  readonly canned: Record<'meta' | 'google' | 'tiktok' | 'google-oauth', CannedConversionAnswer[]> = {
    meta: [],
    google: [],
    tiktok: [],
    'google-oauth': [],
  };
  /** The conversion requests, in the order they came (spend reads are not kept). */
  readonly seen: ConversionRequestSeen[] = [];
  private readonly hanging = new Set<ServerResponse>();

  private constructor(private readonly server: Server) {}

  /** On `port` when given (a test that starts the platforms after the service), else on a free one. */
  static async start(port = 0): Promise<FakeConversionPlatforms> {
    let fake: FakeConversionPlatforms | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => fake!.answer(req, Buffer.concat(chunks).toString('utf8'), res));
    });
    fake = new FakeConversionPlatforms(server);
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    return fake;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  get settings() {
    return {
      metaApiUrl: `${this.url}/meta`,
      googleAdsApiUrl: `${this.url}/google`,
      googleOAuthUrl: `${this.url}/google-oauth/token`,
      tiktokApiUrl: `${this.url}/tiktok`,
    };
  }

  of(platform: ConversionRequestSeen['platform']): ConversionRequestSeen[] {
    return this.seen.filter((request) => request.platform === platform);
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private answer(req: IncomingMessage, text: string, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://fake');
    const send = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    const [, platform, ...rest] = url.pathname.split('/');
    const path = `/${rest.join('/')}`;
    let body: any;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = text;
    }
    const serve = (own: keyof FakeConversionPlatforms['canned'], normal: () => void): void => {
      const canned = this.canned[own].shift();
      if (canned === 'hang') {
        this.hanging.add(res);
        res.on('close', () => this.hanging.delete(res));
        return;
      }
      if (canned !== undefined) return send(canned.status, canned.body, canned.headers);
      normal();
    };
    if (platform === 'google-oauth') {
      return serve('google-oauth', () => {
        const form = new URLSearchParams(text);
        const { clientId, clientSecret, refreshToken } = this.credentials.google;
        if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret || form.get('refresh_token') !== refreshToken)
          return send(400, { error: 'invalid_client', error_description: 'The OAuth client was not found.' });
        send(200, { access_token: this.credentials.googleAccessToken, expires_in: 3599, token_type: 'Bearer' });
      });
    }
    if (platform === 'meta' && req.method === 'POST' && /^\/v25\.0\/[^/]+\/events$/.test(path)) {
      this.seen.push({ platform: 'meta', method: 'POST', path, headers: req.headers, body, at: Date.now() });
      return serve('meta', () => {
        if (body?.access_token !== this.credentials.meta) return send(400, META_EXPIRED_TOKEN.body);
        send(200, { events_received: Array.isArray(body.data) ? body.data.length : 0, messages: [], fbtrace_id: 'Fb7race' });
      });
    }
    if (
      platform === 'google' &&
      req.method === 'POST' &&
      /^\/v25\/customers\/\d+:(uploadClickConversions|uploadConversionAdjustments)$/.test(path)
    ) {
      this.seen.push({ platform: 'google', method: 'POST', path, headers: req.headers, body, at: Date.now() });
      return serve('google', () => {
        if (req.headers['authorization'] !== `Bearer ${this.credentials.googleAccessToken}`)
          return send(401, {
            error: { code: 401, message: 'Request is missing required authentication credential.', status: 'UNAUTHENTICATED' },
          });
        if (body?.partialFailure !== true)
          return send(400, { error: { code: 400, message: 'partial_failure must be true.', status: 'INVALID_ARGUMENT' } });
        if (body.validateOnly === true) return send(200, {});
        const rows: any[] = body.conversions ?? body.conversionAdjustments ?? [];
        send(200, {
          results: rows.map((row) =>
            body.conversions === undefined
              ? { conversionAction: row.conversionAction, adjustmentType: row.adjustmentType, adjustmentDateTime: row.adjustmentDateTime }
              : { gclid: row.gclid, conversionAction: row.conversionAction, conversionDateTime: row.conversionDateTime },
          ),
          jobId: '7',
        });
      });
    }
    if (platform === 'tiktok' && req.method === 'POST' && path === '/open_api/v1.3/event/track/') {
      this.seen.push({ platform: 'tiktok', method: 'POST', path, headers: req.headers, body, at: Date.now() });
      return serve('tiktok', () => {
        if (req.headers['access-token'] !== this.credentials.tiktok) return send(200, TIKTOK_REVOKED.body);
        send(200, { code: 0, message: 'OK', request_id: '2026112900002', data: {} });
      });
    }
    this.answerSpend(platform, path, body, res, send);
  }

  /** The spend reads of a sync, answered with an account that spent nothing, so that connecting works. */
  private answerSpend(
    platform: string | undefined,
    path: string,
    body: any,
    res: ServerResponse,
    send: (s: number, b: unknown) => void,
  ): void {
    if (platform === 'meta') {
      if (path.endsWith('/insights')) return send(200, { data: [] });
      return send(200, { currency: 'BRL', timezone_name: 'UTC', id: 'act' });
    }
    if (platform === 'google' && path.endsWith('googleAds:searchStream'))
      return send(
        200,
        String(body?.query).includes('FROM customer') ? [{ results: [{ customer: { currencyCode: 'BRL', timeZone: 'UTC' } }] }] : [],
      );
    if (platform === 'tiktok' && path.includes('/advertiser/info/'))
      return send(200, { code: 0, message: 'OK', data: { list: [{ currency: 'BRL', timezone: 'UTC' }] } });
    if (platform === 'tiktok') return send(200, { code: 0, message: 'OK', data: { list: [], page_info: { total_page: 1 } } });
    res.writeHead(404).end();
  }
}
