import type { Tracking } from './order';
import { percentEncodeCodePoint } from './percent-encoding';

/**
 * The compact touch (decision 0021): the campaign fields of a visit in one short string, for the
 * checkouts that drop UTM parameters but carry one field of the shop's own (Stripe Payment Links'
 * `client_reference_id`, Hotmart's `sck`). The tracking script writes it; the sources read it back.
 *
 * Form: `t1-<source>-<medium>-<campaign>-<content>-<term>`. Each field keeps [A-Za-z0-9] as it is and
 * writes every other character as `_` and the two uppercase hex digits of each of its UTF-8 bytes
 * (`paid social` → `paid_20social`, `ção` → `_C3_A7_C3_A3o`); an absent field is empty. Only
 * letters, digits, `-` and `_`: what Payment Links accept in `client_reference_id` (at most 200
 * characters, which the writer keeps to by shortening the last fields first).
 */
export const TOUCH_VERSION = 't1';

/** What Stripe Payment Links take in `client_reference_id` (docs.stripe.com/payment-links/url-parameters); Hotmart's `sck` too. */
export const TOUCH_MAX_LENGTH = 200;

/** What a checkout gives when a campaign field is missing; reports group such orders under it. */
export const NOT_SET = '(not set)';

/** Campaign fields as tracking takes them: 1 to 255 characters. */
const FIELD_MAX = 255;

export type Touch = Partial<Pick<Tracking, 'utmSource' | 'utmMedium' | 'utmCampaign' | 'utmContent' | 'utmTerm'>>;

const FIELDS = ['utmSource', 'utmMedium', 'utmCampaign', 'utmContent', 'utmTerm'] as const;

/** A field's characters, each as the touch writes it: `a`, or `_C3_A7` for `ç`. */
const encodedCharacters = (value: string | undefined): string[] =>
  [...(value ?? '')].map((char) => (/^[A-Za-z0-9]$/.test(char) ? char : percentEncodeCodePoint(char.codePointAt(0)!).replace(/%/g, '_')));

const decodeField = (text: string): string | undefined => {
  if (!/^(?:[A-Za-z0-9]|_[0-9A-F]{2})*$/.test(text)) return undefined;
  try {
    return decodeURIComponent(text.replace(/_/g, '%'));
  } catch {
    return undefined;
  }
};

/**
 * The touch in at most `maxLength` characters: the last fields are shortened first (term, then
 * content, campaign…), a whole character at a time, so that what remains reads back. The tracking
 * script (browser/tracker.ts) writes the same text; test/browser/tracker-touch.test.ts compares the
 * two on random touches.
 */
export const encodeTouch = (touch: Touch, maxLength = TOUCH_MAX_LENGTH): string => {
  const fields = FIELDS.map((field) => encodedCharacters(touch[field]));
  let length = TOUCH_VERSION.length + FIELDS.length + fields.reduce((sum, chars) => sum + chars.join('').length, 0);
  for (let index = fields.length - 1; index >= 0 && length > maxLength; index--) {
    const chars = fields[index];
    while (chars.length > 0 && length > maxLength) length -= chars.pop()!.length;
  }
  return [TOUCH_VERSION, ...fields.map((chars) => chars.join(''))].join('-');
};

/** The touch in `text`, or undefined when `text` is not one (another version, another shape, bytes that are not UTF-8). */
export const decodeTouch = (text: string): Touch | undefined => {
  const parts = text.split('-');
  if (parts.length !== FIELDS.length + 1 || parts[0] !== TOUCH_VERSION) return undefined;
  const touch: Record<string, string> = {};
  for (const [index, field] of FIELDS.entries()) {
    const value = decodeField(parts[index + 1]);
    if (value === undefined) return undefined;
    if (value !== '') touch[field] = value;
  }
  return touch;
};

const fitted = (value: string | undefined): string | undefined => {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : [...trimmed].slice(0, FIELD_MAX).join('');
};

/**
 * An order's tracking from what a platform gave: the three fields an order requires are `(not set)`
 * when missing (an order without tracking is recorded, never refused), the others only when given;
 * each trimmed and cut to 255 characters.
 */
export const trackingOf = (touch: Touch): Tracking => {
  const content = fitted(touch.utmContent);
  const term = fitted(touch.utmTerm);
  return {
    utmSource: fitted(touch.utmSource) ?? NOT_SET,
    utmMedium: fitted(touch.utmMedium) ?? NOT_SET,
    utmCampaign: fitted(touch.utmCampaign) ?? NOT_SET,
    ...(content === undefined ? {} : { utmContent: content }),
    ...(term === undefined ? {} : { utmTerm: term }),
  };
};

/** The fields of `first` where it has them, else those of `second`. */
export const mergeTouches = (first: Touch, second: Touch): Touch => {
  const merged: Record<string, string> = {};
  for (const field of FIELDS) {
    const value = fitted(first[field]) ?? fitted(second[field]);
    if (value !== undefined) merged[field] = value;
  }
  return merged;
};
