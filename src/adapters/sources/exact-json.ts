/**
 * A platform's body read as JSON without losing a digit: Shopify's order, line and product ids pass
 * 2^53 (820982911946154508), which a JavaScript number cannot hold. One pass over the text, before
 * anything is built, bounds the nesting and writes each number that a double cannot hold exactly as
 * the string of its digits; JSON.parse then builds the value as fast as it builds any other.
 */

/** How deep a platform's body may nest objects and arrays: Shopify's deepest (a refund's line's tax line) is about 12. */
export const MAX_BODY_DEPTH = 64;

/** The body as JSON, or the problem that keeps it from being read. */
export type BodyJson = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly problem: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });

const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** A double holds every decimal of 15 significant digits: it reads back as the same text (DBL_DIG). */
const EXACT_DIGITS = 15;

/**
 * Whether a number token means what a JavaScript number holds: an integer within ±(2^53 − 1), or a
 * decimal of at most 15 significant digits (`149.90`). Anything else is kept as its text.
 */
const holdsExactly = (token: string): boolean => {
  const match = NUMBER.exec(token);
  if (match === null) return true;
  if (match[2] === undefined && match[3] === undefined) return Number.isSafeInteger(Number(token));
  const digits = `${match[1] ?? ''}${(match[2] ?? '').slice(1)}`.replace(/^0+/, '').replace(/0+$/, '');
  return digits.length <= EXACT_DIGITS;
};

const isNumberChar = (code: number): boolean =>
  (code >= 0x30 && code <= 0x39) || code === 0x2e || code === 0x2d || code === 0x2b || code === 0x65 || code === 0x45;

/** The text with every number a double cannot hold exactly in quotes, or the problem with its nesting. */
const withExactNumbers = (text: string): { text: string } | { problem: string } => {
  const parts: string[] = [];
  let copied = 0;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22) {
      i++;
      while (i < text.length && text.charCodeAt(i) !== 0x22) i += text.charCodeAt(i) === 0x5c ? 2 : 1;
    } else if (code === 0x5b || code === 0x7b) {
      depth++;
      if (depth > MAX_BODY_DEPTH) return { problem: `the body nests objects and arrays more than ${MAX_BODY_DEPTH} levels deep` };
    } else if (code === 0x5d || code === 0x7d) {
      depth--;
    } else if (code === 0x2d || (code >= 0x30 && code <= 0x39)) {
      let end = i + 1;
      while (end < text.length && isNumberChar(text.charCodeAt(end))) end++;
      const token = text.slice(i, end);
      if (!holdsExactly(token)) {
        parts.push(text.slice(copied, i), `"${token}"`);
        copied = end;
      }
      i = end - 1;
    }
  }
  return { text: parts.length === 0 ? text : parts.join('') + text.slice(copied) };
};

/**
 * A delivery's body as JSON: strict UTF-8, at most MAX_BODY_DEPTH levels, and every number as sent:
 * those a JavaScript number holds exactly as numbers, the others (ids past 2^53, decimals of more
 * than 15 digits) as the string of their digits. Costs one pass over the bytes and one JSON.parse.
 */
export const readBodyJson = (body: Uint8Array): BodyJson => {
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    return { ok: false, problem: 'the body is not UTF-8' };
  }
  const exact = withExactNumbers(text);
  if ('problem' in exact) return { ok: false, problem: exact.problem };
  try {
    return { ok: true, value: JSON.parse(exact.text) as unknown };
  } catch {
    return { ok: false, problem: 'the body is not JSON' };
  }
};
