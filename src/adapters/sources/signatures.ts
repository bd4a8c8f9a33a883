import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { SignatureCheck, SourceRequest } from '../../application/ports/source-platform';

/** HMAC-SHA256 of `data` keyed with the UTF-8 bytes of `secret`, as every platform signs. */
export const hmacSha256 = (secret: string, ...data: readonly (string | Uint8Array)[]): Buffer => {
  const hmac = createHmac('sha256', secret);
  for (const part of data) hmac.update(part);
  return hmac.digest();
};

/** Whether `given` is `expected`, in time that depends on their lengths only (which are public). */
export const sameBytes = (given: Uint8Array, expected: Uint8Array): boolean =>
  given.length === expected.length && timingSafeEqual(given, expected);

/**
 * Whether a token sent as it is (Hotmart's hottok) is the secret, in time that depends on neither:
 * both are hashed first, so that not even the secret's length shows.
 */
export const sameText = (given: string, secret: string): boolean =>
  timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(secret).digest());

const BASE64_SHA256 = /^[A-Za-z0-9+/]{43}=$/;

/**
 * The check of Shopify and WooCommerce alike: `header` holds the base64 HMAC-SHA256 of the raw body
 * keyed with the secret. The HMAC is computed whatever the header holds, so a refusal costs what an
 * acceptance does.
 */
export const checkBase64Hmac = (request: SourceRequest, secret: string, header: string, name: string): SignatureCheck => {
  const given = request.headers[header]?.trim();
  const expected = hmacSha256(secret, request.body);
  const matches = given !== undefined && BASE64_SHA256.test(given) && sameBytes(Buffer.from(given, 'base64'), expected);
  if (given === undefined) return { valid: false, reason: `no ${name} header` };
  return matches ? { valid: true } : { valid: false, reason: `${name} does not match the secret` };
};
