import { macroAt } from './ad-macros';
import { comparableName, encodeOutside, PATH_CHARACTERS, QUERY_CHARACTERS, UNRESERVED } from './percent-encoding';

/**
 * The URL of a UTM link (decision 0013, after Google's Campaign URL Builder): the destination with its own
 * `utm_*` parameters taken out, its other parameters and its fragment kept as they were written, then
 * the link's `utm_*` in a fixed order, then its own parameters in the order given. Pure string work:
 * the one thing that needs a URL parser, the host in its ASCII form, comes parsed from the edge.
 */

/** The campaign fields of a link; the three first are required (decision 0013). */
export interface UtmFields {
  readonly utmSource: string;
  readonly utmMedium: string;
  readonly utmCampaign: string;
  readonly utmTerm?: string;
  readonly utmContent?: string;
  readonly utmId?: string;
}

/** Just the campaign fields of `from` (a link, what a caller gave), each one not given left out rather than undefined. */
export const utmFieldsOf = (from: UtmFields): UtmFields => ({
  utmSource: from.utmSource,
  utmMedium: from.utmMedium,
  utmCampaign: from.utmCampaign,
  ...(from.utmTerm === undefined ? {} : { utmTerm: from.utmTerm }),
  ...(from.utmContent === undefined ? {} : { utmContent: from.utmContent }),
  ...(from.utmId === undefined ? {} : { utmId: from.utmId }),
});

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

/** The order in which the `utm_*` parameters are appended (decision 0013). */
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

/** The link's URL for `destination` with these campaign fields and parameters (decision 0013). */
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

export const DESTINATION_MAX = 2048;

/** The most characters (code points) of a `utm_*` value. */
export const UTM_MAX = 255;

/**
 * Letters that a host may hold beyond ASCII, in ranges that browsers' IDNA (UTS 46, as the WHATWG
 * URL standard runs it) accepts everywhere in a label: Latin, Greek, Cyrillic, kana, CJK, Hangul,
 * all written left to right, so no mix of them breaks the bidi rule. A host in any other script
 * can be given in its punycode form (`xn--…`).
 */
const IDN =
  '\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u017F\\u0391-\\u03A1\\u03A3-\\u03A9\\u03B1-\\u03C9\\u0410-\\u044F\\u3041-\\u3096\\u30A1-\\u30FA\\u4E00-\\u9FFF\\uAC00-\\uD7A3';
const LABEL = `[A-Za-z0-9_${IDN}-]+`;
/** The last label starts with a letter: one that reads as a number would make the host an IPv4 address. */
const TOP_LABEL = `[A-Za-z_${IDN}][A-Za-z0-9_${IDN}-]*`;
const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';
const HOST = `(?:(?:${LABEL}\\.)*${TOP_LABEL}\\.?|${OCTET}(?:\\.${OCTET}){3})`;
const PORT = '(?::(?:[0-9]{1,4}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?';
/** Path, query and fragment: no spaces or control characters; no backslash in the path, which browsers read as `/`. */
const REST = '(?:/[^\\u0000-\\u0020\\u007F\\\\?#]*)?(?:\\?[^\\u0000-\\u0020\\u007F#]*)?(?:#[^\\u0000-\\u0020\\u007F]*)?';

/**
 * An absolute http(s) URL with a domain name (IDNs included) or an IPv4 address, no credentials
 * (`user:password@`), and nothing a browser would have to repair: every string this pattern admits,
 * the WHATWG URL parser accepts, so the document and the service agree.
 */
export const DESTINATION_PATTERN = `^[Hh][Tt][Tt][Pp][Ss]?://${HOST}${PORT}${REST}$`;
const DESTINATION = new RegExp(DESTINATION_PATTERN, 'u');
const AUTHORITY = /^[A-Za-z]+:\/\/[^/?#]*/;

/**
 * The destination, parsed: the host in ASCII through the WHATWG URL parser, the rest as written; or
 * why it is not one (decision 0013), as a sentence for the field.
 */
export const parseDestination = (href: string): Destination | string => {
  if ([...href].length > DESTINATION_MAX) return `must be at most ${DESTINATION_MAX} characters`;
  if (!DESTINATION.test(href)) {
    const credentials = /^[A-Za-z]+:\/\/[^/?#]*@/.test(href);
    return credentials ? 'must not hold credentials (user:password@)' : 'must be an absolute http or https URL';
  }
  try {
    const authority = AUTHORITY.exec(href)![0];
    return { href, origin: new URL(href).origin, rest: href.slice(authority.length) };
  } catch {
    return 'must be an absolute http or https URL';
  }
};
