import * as E from 'fp-ts/Either';
import { pipe } from 'fp-ts/function';
import * as t from 'io-ts';
import { SLUG_LENGTH, SLUG_PATTERN, type LinkInput } from '../../../domain/link';
import { str, strictObject } from '../kit/codec-kit';
import { described, Documented } from '../kit/json-schema';
import { LinkBody } from './link-codecs';
import { LinkList, LinkResponse, LinkUrlResponse, ListLinksQuery } from './link-views';
import { linkView } from './link-presenters';
import { pageOf } from '../kit/list-query';
import { locationOf, noContent, reply } from '../kit/replies';
import { route } from '../kit/route';

/** UTM links and their short links (decision 0013): thin handlers, decode → use case → reply. */

export const LINKS_PATH = '/api/v1/links';

const LinkPath = strictObject('LinkPath', { id: described(str(1, 64), 'The id of the link (`lnk_…`).') });

/**
 * A slug as it arrives in a path: any text is taken, so that one of another shape is answered 404
 * like an unknown one (the use case refuses it without a look-up), never 400.
 */
const slug = new Documented<string, string>(
  'Slug',
  (u): u is string => typeof u === 'string',
  (u, c) => (typeof u === 'string' ? t.success(u) : t.failure(u, c, 'must be a string')),
  t.identity,
  () => ({
    type: 'string',
    pattern: SLUG_PATTERN,
    description: `The short link's slug: ${SLUG_LENGTH} characters of [0-9A-Za-z]. Any other text answers 404, as an unknown slug does.`,
  }),
);
const SlugPath = strictObject('SlugPath', { slug });

const inputOf = (body: LinkBody): LinkInput => {
  const { destinationUrl, params, ...fields } = body;
  return { ...fields, destination: destinationUrl, params: params ?? [] };
};

const EXAMPLES = {
  campaign: {
    destinationUrl: 'https://shop.example/products/tee?color=blue#reviews',
    utmSource: 'newsletter',
    utmMedium: 'email',
    utmCampaign: 'black friday',
    name: 'Black Friday newsletter',
  },
  macros: {
    destinationUrl: 'https://shop.example/',
    utmSource: 'facebook',
    utmMedium: 'paid_social',
    utmCampaign: '{{campaign.name}}',
    utmContent: '{{ad.name}}-{{placement}}',
    params: { ad_id: '{{ad.id}}' },
  },
};

const URL_NOTE =
  'The URL keeps the destination as written, without its utm_* parameters, then adds utm_source, utm_medium, utm_campaign, ' +
  'utm_id, utm_term, utm_content and `params` in that order, percent-encoded as RFC 3986 (a space is `%20`), with the macros of ' +
  'Meta (`{{campaign.name}}`), Google (`{campaignid}`) and TikTok (`__CAMPAIGN_NAME__`) kept verbatim. Every validation problem is reported at once.';

export const buildLinkRoute = route({
  method: 'post',
  path: `${LINKS_PATH}/build`,
  operationId: 'buildLink',
  summary: 'Build a UTM link without saving it',
  description: `Answers the URL a link with this body would have; nothing is saved and no short link is made. ${URL_NOTE}`,
  tag: 'links',
  guards: ['token', 'rateLimit'],
  scope: 'links:read',
  body: LinkBody,
  bodyExamples: EXAMPLES,
  responses: { 200: { description: 'The URL.', body: LinkUrlResponse } },
  problems: [],
  handle: async ({ body }, { useCases }) => E.right({ status: 200 as const, body: { url: useCases.buildLinkUrl.execute(inputOf(body)) } }),
});

export const createLinkRoute = route({
  method: 'post',
  path: LINKS_PATH,
  operationId: 'createLink',
  summary: 'Save a UTM link with a short link',
  description: `Saves the link in the dashboard of the bearer token, with a short link (\`shortUrl\`) that redirects to its URL and counts clicks. ${URL_NOTE}`,
  tag: 'links',
  guards: ['token', 'rateLimit'],
  scope: 'links:write',
  body: LinkBody,
  bodyExamples: EXAMPLES,
  responses: { 201: { description: 'The link was saved.', body: LinkResponse, headers: ['Location'] } },
  problems: [],
  handle: async ({ principal, body }, { useCases, publicBaseUrl }) => {
    const link = await useCases.createLink.execute(principal.dashboardId, inputOf(body));
    return E.right({
      status: 201 as const,
      headers: { Location: locationOf(LINKS_PATH, link.id) },
      body: { link: linkView(link, publicBaseUrl()) },
    });
  },
});

export const listLinksRoute = route({
  method: 'get',
  path: LINKS_PATH,
  operationId: 'listLinks',
  summary: "List the dashboard's links",
  description:
    "Links of the bearer token's dashboard, newest first (`createdAt` descending, then `id` descending), with their click counts. " +
    'A page past the end has no links and the real `total`. Out-of-range values and parameters not listed here are refused.',
  tag: 'links',
  guards: ['token', 'rateLimit'],
  scope: 'links:read',
  query: ListLinksQuery,
  responses: { 200: { description: 'One page of links.', body: LinkList } },
  problems: [],
  handle: async ({ principal, query }, { useCases, publicBaseUrl }) => {
    const result = await useCases.listLinks.execute(principal.dashboardId, query);
    const base = publicBaseUrl();
    const links = result.links.map((link) => linkView(link, base));
    return E.right({ status: 200 as const, body: pageOf('links', links, query, result.total) });
  },
});

export const getLinkRoute = route({
  method: 'get',
  path: `${LINKS_PATH}/{id}`,
  operationId: 'getLink',
  summary: 'Read a link',
  description: 'The link, with its click count. The target of `Location`.',
  tag: 'links',
  guards: ['token', 'rateLimit'],
  scope: 'links:read',
  params: LinkPath,
  responses: { 200: { description: 'The link.', body: LinkResponse } },
  problems: ['LinkNotFound'],
  handle: async ({ principal, params }, { useCases, publicBaseUrl }) =>
    pipe(
      await useCases.getLink.execute(principal.dashboardId, params.id),
      reply(200, (link) => ({ link: linkView(link, publicBaseUrl()) })),
    ),
});

export const deleteLinkRoute = route({
  method: 'delete',
  path: `${LINKS_PATH}/{id}`,
  operationId: 'deleteLink',
  summary: 'Delete a link',
  description: 'Deletes the link; its short link answers 404 from then on.',
  tag: 'links',
  guards: ['token', 'rateLimit'],
  scope: 'links:write',
  params: LinkPath,
  responses: { 204: { description: 'The link was deleted.' } },
  problems: ['LinkNotFound'],
  handle: async ({ principal, params }, { useCases }) =>
    pipe(await useCases.deleteLink.execute(principal.dashboardId, params.id), noContent),
});

export const followShortLinkRoute = route({
  method: 'get',
  path: '/l/{slug}',
  operationId: 'followShortLink',
  summary: 'Follow a short link',
  description:
    "No token: redirects to the link's URL and counts the click. The query parameters of this request (`fbclid`, `gclid`, …) are " +
    "added to the URL as sent, before its fragment, except those whose name the link's URL already has: the link's utm_* are never " +
    'replaced. Not rate-limited per token (there is none); each click costs one look-up by slug and one atomic increment. ' +
    'A `HEAD` is answered like a `GET` but not counted: link checkers do not add clicks.',
  tag: 'links',
  guards: [],
  params: SlugPath,
  responses: {
    302: {
      description:
        "To the link's URL, with the click's query parameters added; `Cache-Control: no-store`, so that every click reaches the service.",
      headers: ['Location'],
      fixedHeaders: { 'Cache-Control': 'no-store' },
    },
  },
  problems: ['ShortLinkNotFound'],
  handle: async ({ params, queryString, isHead }, { useCases }) =>
    pipe(
      await useCases.followShortLink.execute(params.slug, queryString, { count: !isHead }),
      E.map(({ location }) => ({
        status: 302 as const,
        headers: { Location: location },
        body: undefined,
      })),
    ),
});

export const linkRoutes = [buildLinkRoute, createLinkRoute, listLinksRoute, getLinkRoute, deleteLinkRoute, followShortLinkRoute];
