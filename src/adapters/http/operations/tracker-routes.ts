import * as E from 'fp-ts/Either';
import { check } from '../kit/codec-kit';
import { acceptsGzip, noneMatch } from '../kit/static-asset';
import { route } from '../kit/route';

/** The browser tracking script (decision 0014), without authentication. */

const Script = check('Script', (u: unknown): u is Buffer => Buffer.isBuffer(u), 'must be bytes', {
  type: 'string',
  description: 'The script: plain JavaScript for the browsers of the last few years, at most 5 KB gzipped.',
});

/** Caches may keep it five minutes: a new version reaches shops that fast, and revalidation is a 304. */
const CACHING = { 'Cache-Control': 'public, max-age=300', Vary: 'Accept-Encoding' } as const;

export const trackerScriptRoute = route({
  method: 'get',
  path: '/tracker.js',
  operationId: 'getTrackerScript',
  summary: 'The tracking script shops add to their pages',
  description:
    'Captures the campaign parameters of the page URL (utm_*, click ids, src, sck), keeps a first and a last touch in the ' +
    "shop's own storage, adds them to links and forms that lead to the checkout hosts, and gives the checkout " +
    '`OrdersTracker.get()`: `{ tracking, trackingExtras }` for the order payload. It makes no request of its own. ' +
    '`<script src="https://orders.example/tracker.js" data-checkout-hosts="pay.example.com" async></script>`; see docs/links-and-tracking.md.',
  tag: 'tracking',
  guards: [],
  storage: false,
  requestHeaders: ['If-None-Match', 'Accept-Encoding'],
  responses: {
    200: {
      description: 'The script, gzipped when `Accept-Encoding` takes gzip.',
      body: Script,
      mediaType: 'text/javascript; charset=utf-8',
      headers: ['ETag'],
      optionalHeaders: ['Content-Encoding'],
      fixedHeaders: CACHING,
    },
    304: {
      description: '`If-None-Match` names the `ETag` of the representation that would be sent: no body.',
      headers: ['ETag'],
      fixedHeaders: CACHING,
    },
  },
  problems: [],
  handle: async ({ headers }, { trackerScript }) => {
    const gzip = acceptsGzip(headers['Accept-Encoding']);
    const { bytes, etag } = gzip ? trackerScript.gzip : trackerScript.identity;
    if (noneMatch(headers['If-None-Match'], etag)) return E.right({ status: 304 as const, body: undefined, headers: { ETag: etag } });
    return E.right({ status: 200 as const, body: bytes, headers: gzip ? { ETag: etag, 'Content-Encoding': 'gzip' } : { ETag: etag } });
  },
});

export const trackerRoutes = [trackerScriptRoute];
