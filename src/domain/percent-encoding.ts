/**
 * RFC 3986 percent-encoding, written out here because the domain imports nothing: a character
 * outside the set a component may hold is written as the `%XX` of each of its UTF-8 bytes, in
 * uppercase hex (RFC 3986 §2.1).
 */

const HEX = '0123456789ABCDEF';

const byte = (value: number): string => `%${HEX[value >> 4]}${HEX[value & 0x0f]}`;

/** The UTF-8 bytes of one code point as `%XX` triplets; a lone surrogate as U+FFFD, which it cannot be encoded as otherwise. */
export const percentEncodeCodePoint = (codePoint: number): string => {
  const cp = codePoint >= 0xd800 && codePoint <= 0xdfff ? 0xfffd : codePoint;
  if (cp < 0x80) return byte(cp);
  if (cp < 0x800) return byte(0xc0 | (cp >> 6)) + byte(0x80 | (cp & 0x3f));
  if (cp < 0x10000) return byte(0xe0 | (cp >> 12)) + byte(0x80 | ((cp >> 6) & 0x3f)) + byte(0x80 | (cp & 0x3f));
  return byte(0xf0 | (cp >> 18)) + byte(0x80 | ((cp >> 12) & 0x3f)) + byte(0x80 | ((cp >> 6) & 0x3f)) + byte(0x80 | (cp & 0x3f));
};

/** RFC 3986 §2.3: the characters a value keeps as they are; everything else is encoded. */
export const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/** RFC 3986 §3.3: what a path may hold as it is (pchar and `/`), besides `%XX`. */
export const PATH_CHARACTERS = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/]$/;

/** RFC 3986 §3.4 and §3.5: what a query or a fragment may hold as it is (pchar, `/` and `?`), besides `%XX`. */
export const QUERY_CHARACTERS = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/?]$/;

const ESCAPE = /^%[0-9A-Fa-f]{2}/;

/** Whether `text` holds a well-formed `%XX` at `index`. */
export const escapeAt = (text: string, index: number): boolean => ESCAPE.test(text.slice(index, index + 3));

/**
 * `text` with every character outside `allowed` encoded, a well-formed `%XX` kept as it is (a lone
 * `%` is encoded, as `%25`), and the spans `verbatim` finds at an index kept untouched.
 */
export const encodeOutside = (
  text: string,
  allowed: RegExp,
  verbatim: (text: string, index: number) => string | undefined = () => undefined,
): string => {
  let out = '';
  let index = 0;
  while (index < text.length) {
    const kept = verbatim(text, index);
    if (kept !== undefined) {
      out += kept;
      index += kept.length;
      continue;
    }
    const codePoint = text.codePointAt(index)!;
    const char = String.fromCodePoint(codePoint);
    if (char === '%' ? escapeAt(text, index) : allowed.test(char)) out += char;
    else out += percentEncodeCodePoint(codePoint);
    index += char.length;
  }
  return out;
};

/**
 * A parameter name in the form in which two spellings of one name compare equal: `+` read as the
 * space it stands for, `%XX` of an ASCII character read as that character, any other `%XX` in
 * uppercase hex. `utm%5Fsource` and `utm_source` are one name; so are `caf%c3%a9` and `caf%C3%A9`.
 */
export const comparableName = (name: string): string =>
  name.replace(/\+/g, ' ').replace(/%([0-9A-Fa-f]{2})/g, (escape, hex: string) => {
    const value = parseInt(hex, 16);
    return value < 0x80 ? String.fromCharCode(value) : escape.toUpperCase();
  });
