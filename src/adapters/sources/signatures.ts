import { createHmac, timingSafeEqual } from 'node:crypto';

/** HMAC-SHA256 of `data` keyed with the UTF-8 bytes of `secret`, as every platform signs. */
export const hmacSha256 = (secret: string, ...data: readonly (string | Uint8Array)[]): Buffer => {
  const hmac = createHmac('sha256', secret);
  for (const part of data) hmac.update(part);
  return hmac.digest();
};

/** Whether `given` is `expected`, in time that depends on their lengths only (which are public). */
export const sameBytes = (given: Uint8Array, expected: Uint8Array): boolean =>
  given.length === expected.length && timingSafeEqual(given, expected);
