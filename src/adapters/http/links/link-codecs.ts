import * as t from 'io-ts';
import {
  DESTINATION_MAX,
  DESTINATION_PATTERN,
  parseDestination,
  UTM_MAX,
  type Destination,
  type LinkParam,
} from '../../../domain/campaign-url';
import { MAX_LINK_NAME_LENGTH } from '../../../domain/link';
import { isPlainObject, str, strictObject } from '../kit/codec-kit';
import { described, Documented, type JsonSchema } from '../kit/json-schema';

/** Codecs of what a caller sends about UTM links (decision 0013); each limit and pattern is written here once. */

export const MAX_PARAMS = 20;
export const PARAM_VALUE_MAX = 500;

export const destinationUrl = new Documented<Destination, string>(
  'DestinationUrl',
  (u): u is Destination => typeof u === 'object' && u !== null && 'href' in u,
  (u, c) => {
    if (typeof u !== 'string') return t.failure(u, c, 'must be a string');
    const parsed = parseDestination(u);
    return typeof parsed === 'string' ? t.failure(u, c, parsed) : t.success(parsed);
  },
  (destination) => destination.href,
  () => ({
    type: 'string',
    maxLength: DESTINATION_MAX,
    pattern: DESTINATION_PATTERN,
    description:
      `An absolute http or https URL of at most ${DESTINATION_MAX} characters, without credentials, spaces or control characters. ` +
      'The host is a domain name, in ASCII, in punycode (`xn--…`) or in Unicode (Latin, Greek, Cyrillic, kana, CJK and Hangul ' +
      'letters), or an IPv4 address in dotted-decimal form.',
    examples: ['https://shop.example/products/tee?color=blue#reviews', 'https://bücher.example/'],
  }),
);

export const utmValue = str(1, UTM_MAX);

/** Keys of `params`: not `utm_…` in any case, since the link's own fields set those. Spelt out, because JSON Schema engines differ on lookaheads. */
export const PARAM_KEY_PATTERN =
  '^(?:[A-TV-Za-tv-z0-9_.-][A-Za-z0-9_.-]{0,63}|[Uu](?:[A-SU-Za-su-z0-9_.-][A-Za-z0-9_.-]{0,62}|[Tt](?:[A-LN-Za-ln-z0-9_.-][A-Za-z0-9_.-]{0,61}|[Mm](?:[A-Za-z0-9.-][A-Za-z0-9_.-]{0,60})?)?)?)$';
const PARAM_KEY = new RegExp(PARAM_KEY_PATTERN);
const paramValue = str(0, PARAM_VALUE_MAX);

export const describeParams = (description: string): JsonSchema => ({
  type: 'object',
  description,
  maxProperties: MAX_PARAMS,
  propertyNames: { type: 'string', pattern: PARAM_KEY_PATTERN },
  additionalProperties: { type: 'string', maxLength: PARAM_VALUE_MAX },
});

/** `params`: each problem at its own path (`params.utm_x`), decoded to the pairs in the order JSON gave them. */
export const linkParams = new Documented<LinkParam[], Record<string, string>>(
  'LinkParams',
  Array.isArray as (u: unknown) => u is LinkParam[],
  (u, c) => {
    if (!isPlainObject(u)) return t.failure(u, c, 'must be a JSON object');
    const entries = Object.entries(u);
    if (entries.length > MAX_PARAMS) return t.failure(u, c, `must have at most ${MAX_PARAMS} parameters`);
    const errors: t.ValidationError[] = [];
    const at = (key: string, value: unknown): t.Context => t.appendContext(c, key, paramValue, value);
    for (const [key, value] of entries) {
      if (!PARAM_KEY.test(key)) {
        errors.push({
          value,
          context: at(key, value),
          message: 'is not an allowed name: 1 to 64 of A-Z a-z 0-9 _ . -, not starting with utm_',
        });
      } else if (!paramValue.is(value)) {
        errors.push({ value, context: at(key, value), message: `must be a string of at most ${PARAM_VALUE_MAX} characters` });
      }
    }
    return errors.length > 0 ? t.failures(errors) : t.success(entries.map(([key, value]) => ({ key, value: value as string })));
  },
  (params) => Object.fromEntries(params.map(({ key, value }) => [key, value])),
  () =>
    describeParams(
      `Parameters added after the utm_* ones, in the order given: at most ${MAX_PARAMS}, each value at most ${PARAM_VALUE_MAX} characters. ` +
        'Keys that are array indices (`0`, `42`) come first, in ascending order, as JSON parsers in JavaScript give them.',
    ),
);

const utm = (name: string) =>
  described(utmValue, `The \`${name}\` value, percent-encoded in the URL (ad-platform macros kept as they are).`);

/** The body of POST /api/v1/links and POST /api/v1/links/build (decision 0013). */
export const LinkBody = strictObject(
  'LinkRequest',
  {
    destinationUrl,
    utmSource: utm('utm_source'),
    utmMedium: utm('utm_medium'),
    utmCampaign: utm('utm_campaign'),
  },
  {
    utmTerm: utm('utm_term'),
    utmContent: utm('utm_content'),
    utmId: utm('utm_id'),
    params: linkParams,
    name: described(str(1, MAX_LINK_NAME_LENGTH), "The link's name in the dashboard; not part of the URL."),
  },
  { description: 'A UTM link. Unknown fields are refused; every problem is reported at once.' },
);
export type LinkBody = t.TypeOf<typeof LinkBody>;
