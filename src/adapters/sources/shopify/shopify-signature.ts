import type { SignatureCheck, SourceRequest } from '../../../application/ports/source-platform';
import { hmacSha256, sameBytes } from '../signatures';

/**
 * Shopify's webhook signature (shopify.dev/docs/apps/build/webhooks/subscribe/https#step-2-validate-the-origin-of-your-webhook-to-ensure-its-coming-from-shopify):
 * `X-Shopify-Hmac-Sha256`, the base64 HMAC-SHA256 of the raw body keyed with the webhook signing
 * secret. Shopify signs no timestamp; a replay is caught by its event id.
 */
export const verifyShopify = (request: SourceRequest, secret: string): SignatureCheck => {
  const given = request.headers['x-shopify-hmac-sha256'];
  const expected = hmacSha256(secret, request.body);
  const matches =
    given !== undefined && /^[A-Za-z0-9+/]{43}=$/.test(given.trim()) && sameBytes(Buffer.from(given.trim(), 'base64'), expected);
  if (given === undefined) return { valid: false, reason: 'no X-Shopify-Hmac-Sha256 header' };
  return matches ? { valid: true } : { valid: false, reason: 'X-Shopify-Hmac-Sha256 does not match the secret' };
};
