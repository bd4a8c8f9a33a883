import { campaignUrl, utmFieldsOf, type Destination, type LinkParam, type UtmFields } from './campaign-url';

/**
 * A UTM link (decision 0013): a destination with campaign fields, the URL built from them, and a short link
 * `/l/<slug>` that redirects to that URL and counts each click.
 */
export interface Link extends UtmFields {
  /** `lnk_…`, made by the service: opaque and unguessable. */
  readonly id: string;
  readonly dashboardId: string;
  /** The short link's key: unique across dashboards, unguessable (see `SLUG_LENGTH`). */
  readonly slug: string;
  readonly name?: string;
  /** The destination as the caller wrote it. */
  readonly destinationUrl: string;
  /** In the order given. */
  readonly params: readonly LinkParam[];
  /** Built once, when the link is made: a change of the rules later does not move an existing link. */
  readonly url: string;
  readonly clicks: number;
  readonly createdAt: Date;
}

/** What a caller gives to build a link, validated at the edge. */
export interface LinkInput extends UtmFields {
  readonly name?: string;
  readonly destination: Destination;
  readonly params: readonly LinkParam[];
}

/**
 * Slugs are 11 characters of [0-9A-Za-z] drawn at random: 62^11 ≈ 5·10^19 values, about 65 bits. A
 * slug reveals only a destination its owner made public, and a guess costs a request; with a million
 * links, a guesser finds one in about 5·10^13 requests. The store's unique index settles the (rarer
 * still) collision of two new slugs.
 */
/** The most characters (code points) of a link's name. */
export const MAX_LINK_NAME_LENGTH = 255;

export const SLUG_LENGTH = 11;
export const SLUG_PATTERN = `^[0-9A-Za-z]{${SLUG_LENGTH}}$`;
const SLUG = new RegExp(SLUG_PATTERN);

/** Whether `text` can be a slug at all: anything else is not found without asking the store. */
export const isSlug = (text: string): boolean => SLUG.test(text);

/** The URL a link leads to, built from the input by the rules of decision 0013. */
export const linkUrl = (input: LinkInput): string => campaignUrl(input.destination, input, input.params);

/** A new link, no click yet. Optional fields the caller did not give stay absent. */
export const newLink = (input: LinkInput, ids: { id: string; dashboardId: string; slug: string }, now: Date): Link => ({
  id: ids.id,
  dashboardId: ids.dashboardId,
  slug: ids.slug,
  ...(input.name === undefined ? {} : { name: input.name }),
  destinationUrl: input.destination.href,
  ...utmFieldsOf(input),
  params: input.params.map(({ key, value }) => ({ key, value })),
  url: linkUrl(input),
  clicks: 0,
  createdAt: now,
});
