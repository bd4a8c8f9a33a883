import { macroAt } from './ad-macros';
import { comparableName, encodeOutside, PATH_CHARACTERS, QUERY_CHARACTERS, UNRESERVED } from './percent-encoding';

/**
 * The URL of a UTM link (D13, after Google's Campaign URL Builder): the destination with its own
 * `utm_*` parameters taken out, its other parameters and its fragment kept as they were written, then
 * the link's `utm_*` in a fixed order, then its own parameters in the order given. Pure string work:
 * the one thing that needs a URL parser, the host in its ASCII form, comes parsed from the edge.
 */

/** The campaign fields of a link; the three first are required (D13). */
export interface UtmFields {
  readonly utmSource: string;
  readonly utmMedium: string;
  readonly utmCampaign: string;
  readonly utmTerm?: string;
  readonly utmContent?: string;
  readonly utmId?: string;
}

/** One of a link's own parameters; a link keeps them in the order they were given. */
export interface LinkParam {
  readonly key: string;
  readonly value: string;
}

/**
 * A destination URL as the edge parsed it: an absolute http(s) URL without credentials, as the
 * caller wrote it (`href`); its scheme, host and port as a browser resolves them, in ASCII (`origin`:
 * lowercase, an IDN in punycode, a default port dropped); and everything after the host and port,
 * as written (`rest`: path, `?query`, `#fragment`).
 */
export interface Destination {
  readonly href: string;
  readonly origin: string;
  readonly rest: string;
}

/** The order in which the `utm_*` parameters are appended (D13). */
export const UTM_PARAMETERS: readonly (readonly [keyof UtmFields, string])[] = [
  ['utmSource', 'utm_source'],
  ['utmMedium', 'utm_medium'],
  ['utmCampaign', 'utm_campaign'],
  ['utmId', 'utm_id'],
  ['utmTerm', 'utm_term'],
  ['utmContent', 'utm_content'],
];

/** A value as RFC 3986 wants it in a query (every character but the unreserved ones encoded, a space as `%20`), its ad-platform macros verbatim. */
export const encodeValue = (value: string): string => encodeOutside(value, UNRESERVED, macroAt);

/** Text the caller wrote in a URL, made a valid one: only what a component may not hold is encoded; `%XX`, `+` and macros stay. */
const asWritten = (text: string, allowed: RegExp): string => encodeOutside(text, allowed, macroAt);

interface Parts {
  readonly beforeQuery: string;
  readonly query: string | undefined;
  readonly fragment: string | undefined;
}

/** Splits at the first `#`, then at the first `?` before it. */
const split = (text: string): Parts => {
  const hash = text.indexOf('#');
  const fragment = hash === -1 ? undefined : text.slice(hash + 1);
  const head = hash === -1 ? text : text.slice(0, hash);
  const mark = head.indexOf('?');
  return mark === -1
    ? { beforeQuery: head, query: undefined, fragment }
    : { beforeQuery: head.slice(0, mark), query: head.slice(mark + 1), fragment };
};

/** The `name=value` pieces of a query, empty ones left out (`a=1&&b=2` has two). */
const piecesOf = (query: string | undefined): string[] => (query ?? '').split('&').filter((piece) => piece !== '');

/**
 * The name of a `name=value` piece, decoded enough that two spellings of one name are equal. UTM
 * names compare in any case (`UTM_Source` is `utm_source`), since the tools that read them differ on
 * case; other names are the site's own, and case may matter to it.
 */
const nameOf = (piece: string): string => {
  const equals = piece.indexOf('=');
  const name = comparableName(equals === -1 ? piece : piece.slice(0, equals));
  return name.toLowerCase().startsWith('utm_') ? name.toLowerCase() : name;
};

/** Whether a parameter of the destination is a UTM parameter, which the link's replace. */
const isUtm = (piece: string): boolean => nameOf(piece).startsWith('utm_');

const withFragment = (url: string, fragment: string | undefined): string => (fragment === undefined ? url : `${url}#${fragment}`);

/** The link's URL for `destination` with these campaign fields and parameters (D13). */
export const campaignUrl = (destination: Destination, utm: UtmFields, params: readonly LinkParam[]): string => {
  const { beforeQuery, query, fragment } = split(destination.rest);
  const kept = piecesOf(query)
    .filter((piece) => !isUtm(piece))
    .map((piece) => asWritten(piece, QUERY_CHARACTERS));
  const campaign = UTM_PARAMETERS.flatMap(([field, name]) => {
    const value = utm[field];
    return value === undefined ? [] : [`${name}=${encodeValue(value)}`];
  });
  const own = params.map(({ key, value }) => `${encodeValue(key)}=${encodeValue(value)}`);
  const url = `${destination.origin}${asWritten(beforeQuery, PATH_CHARACTERS)}?${[...kept, ...campaign, ...own].join('&')}`;
  return withFragment(url, fragment === undefined ? undefined : asWritten(fragment, QUERY_CHARACTERS));
};

/**
 * Where a click on a short link goes: the link's URL with the click's own query parameters added
 * (`fbclid`, `gclid`, …, as the click sent them, made valid where they were not), before its
 * fragment. A parameter whose name the link's URL already has is left out, so the link's `utm_*`
 * (and its other parameters) are never replaced nor doubled.
 */
export const withClickParams = (url: string, clickQuery: string): string => {
  const { beforeQuery, query, fragment } = split(url);
  const taken = new Set(piecesOf(query).map(nameOf));
  const added = piecesOf(clickQuery)
    .filter((piece) => !taken.has(nameOf(piece)))
    .map((piece) => asWritten(piece, QUERY_CHARACTERS));
  if (added.length === 0) return url;
  const pieces = [...(query === undefined || query === '' ? [] : [query]), ...added];
  return withFragment(`${beforeQuery}?${pieces.join('&')}`, fragment);
};
