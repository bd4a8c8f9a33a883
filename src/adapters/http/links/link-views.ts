import * as t from 'io-ts';
import { check, int, isPlainObject, str, strictObject } from '../kit/codec-kit';
import { utcDateTime } from '../kit/dates';
import { described, Documented } from '../kit/json-schema';
import { DESTINATION_MAX } from '../../../domain/campaign-url';
import { describeParams, utmValue } from './link-codecs';
import { listPage, pagingParams } from '../kit/list-query';

/** Codecs of what the service answers about UTM links (decision 0013): the presenters are typed by them. */

const URL_RULES =
  'The destination with its own utm_* parameters taken out and its other parameters and fragment kept as written, then ' +
  'utm_source, utm_medium, utm_campaign, utm_id, utm_term, utm_content, then `params` in order; values percent-encoded as ' +
  'RFC 3986 (a space is `%20`), ad-platform macros (`{{campaign.name}}`, `{campaignid}`, `__CAMPAIGN_NAME__`) kept verbatim.';

const builtUrl = described(t.string, URL_RULES);

const shortUrl = check('ShortUrl', (u): u is string => typeof u === 'string', 'must be a URL', {
  type: 'string',
  format: 'uri',
  description:
    'PUBLIC_BASE_URL (by default the address of the service), then `/l/` and the slug. No token needed: it redirects to `url` and counts the click.',
  examples: ['https://go.example/l/3kTMd9rQx0b'],
});

const isParamsObject = (u: unknown): u is Record<string, string> =>
  isPlainObject(u) && Object.values(u).every((value) => typeof value === 'string');
const params = new Documented<Record<string, string>, Record<string, string>>(
  'LinkParamsView',
  isParamsObject,
  (u, c) => (isParamsObject(u) ? t.success(u) : t.failure(u, c, 'must be an object of strings')),
  t.identity,
  () => describeParams('The parameters added after the utm_* ones, in the order given; `{}` when none.'),
);

const utm = { utmSource: utmValue, utmMedium: utmValue, utmCampaign: utmValue };

export const LinkView = strictObject(
  'Link',
  {
    id: described(t.string, 'Made by the service (`lnk_…`); opaque.'),
    destinationUrl: described(str(1, DESTINATION_MAX), 'The destination as it was given.'),
    ...utm,
    params,
    url: builtUrl,
    shortUrl,
    clicks: described(int(0, Number.MAX_SAFE_INTEGER), 'Requests of the short link that were redirected.'),
    createdAt: utcDateTime,
  },
  { name: str(1, 255), utmTerm: utmValue, utmContent: utmValue, utmId: utmValue },
  { description: 'A saved UTM link and its short link.' },
);

export const LinkResponse = strictObject('LinkResponse', { link: LinkView });

export const LinkUrlResponse = strictObject('LinkUrl', { url: builtUrl });

export const LinkList = listPage('LinkList', 'links', LinkView, 'Every link of the dashboard, on all pages.');

/** The query string of GET /api/v1/links: the paging of the orders list (decision 0005). Unknown parameters are refused. */
export const ListLinksQuery = strictObject(
  'ListLinksQuery',
  {},
  {
    ...pagingParams('Links'),
  },
);
