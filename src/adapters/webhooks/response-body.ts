import { RESPONSE_BODY_LIMIT_BYTES, type ResponseBody } from '../../domain/delivery';

/**
 * The part of a response body that an attempt keeps (decision 0022), from the bytes read of it: at
 * most RESPONSE_BODY_LIMIT_BYTES of UTF-8, cut where a character ends, bytes that are not UTF-8
 * replaced with U+FFFD (which can take 3 bytes where the byte took 1, so the text is measured again
 * after decoding). `complete` says the body ended within `bytes`; nothing is kept of an empty one.
 */
export const keptResponseBody = (bytes: Uint8Array, complete: boolean): ResponseBody | undefined => {
  const whole = complete && bytes.length <= RESPONSE_BODY_LIMIT_BYTES;
  // Streaming holds back a character whose bytes the cut split, instead of replacing it.
  const decoded = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(0, RESPONSE_BODY_LIMIT_BYTES), { stream: !whole });
  const text = withinLimit(decoded);
  if (whole && text === '') return undefined;
  return { text, truncated: !whole || text.length < decoded.length };
};

/** The longest start of `text` whose UTF-8 fits the limit, cut between code points. */
const withinLimit = (text: string): string => {
  if (Buffer.byteLength(text, 'utf8') <= RESPONSE_BODY_LIMIT_BYTES) return text;
  let bytes = 0;
  let end = 0;
  for (const character of text) {
    bytes += Buffer.byteLength(character, 'utf8');
    if (bytes > RESPONSE_BODY_LIMIT_BYTES) break;
    end += character.length;
  }
  return text.slice(0, end);
};
