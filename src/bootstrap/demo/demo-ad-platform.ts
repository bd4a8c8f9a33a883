import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { META_API_VERSION } from '../../adapters/ads/meta/meta-ads';
import type { SpendEntry } from '../../domain/spend';

/** The demo's Meta ad account: its id, and the token the fake Meta takes (it is the demo's own, worth nothing elsewhere). */
export const DEMO_META_ACCOUNT = '1000000001';
export const DEMO_META_TOKEN = 'demo-meta-system-user-token';

export interface DemoAdPlatform {
  /** META_API_URL for the demo's service. */
  readonly url: string;
  close(): Promise<void>;
}

const json = (status: number, body: unknown) => ({ status, body: JSON.stringify(body) });

/**
 * A Meta Marketing API of the demo's own on loopback, answering the two requests the service makes
 * (the ad account, its insights by ad and day, 100 rows a page) from the demo's Facebook spend, so
 * that the Ad accounts page has an account that syncs. Any other token is refused as Meta refuses one.
 */
export const startDemoAdPlatform = async (spend: readonly SpendEntry[], currency: string, timeZone: string): Promise<DemoAdPlatform> => {
  const rows = spend.map((entry) => ({
    campaign_id: `23851${entry.utmCampaign.length}${entry.utmCampaign.charCodeAt(0)}`,
    campaign_name: entry.utmCampaign,
    ad_id: `23852${entry.utmCampaign.length}${entry.utmCampaign.charCodeAt(0)}`,
    ad_name: 'Main ad',
    spend: (entry.amountCents / 100).toFixed(2),
    date_start: entry.date,
    date_stop: entry.date,
  }));
  const answer = (url: URL) => {
    const [, version, node, edge] = url.pathname.split('/');
    if (url.searchParams.get('access_token') !== DEMO_META_TOKEN) {
      return json(400, { error: { message: 'Invalid OAuth access token - Cannot parse access token', type: 'OAuthException', code: 190 } });
    }
    if (version !== META_API_VERSION || node !== `act_${DEMO_META_ACCOUNT}`) {
      return json(400, {
        error: { message: 'Unsupported get request. Object does not exist', type: 'GraphMethodException', code: 100, error_subcode: 33 },
      });
    }
    if (edge === undefined) return json(200, { id: node, currency, timezone_name: timeZone });
    const range = JSON.parse(url.searchParams.get('time_range') ?? '{}') as { since?: string; until?: string };
    const within = rows.filter((row) => row.date_start >= (range.since ?? '') && row.date_start <= (range.until ?? ''));
    const offset = Number(url.searchParams.get('after') ?? 0);
    const page = within.slice(offset, offset + 100);
    const after = String(offset + page.length);
    return json(200, {
      data: page,
      paging: {
        cursors: { before: String(offset), after },
        ...(offset + page.length < within.length ? { next: `${url.pathname}?after=${after}` } : {}),
      },
    });
  };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const { status, body } = answer(new URL(req.url ?? '/', 'http://demo'));
      res.writeHead(status, { 'content-type': 'application/json' }).end(body);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
