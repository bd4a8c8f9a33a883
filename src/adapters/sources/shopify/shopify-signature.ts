import type { SignatureCheck, SourceRequest } from '../../../application/ports/source-platform';
import { checkBase64Hmac } from '../signatures';

/**
 * Shopify's webhook signature (shopify.dev/docs/apps/build/webhooks/subscribe/https#step-2-validate-the-origin-of-your-webhook-to-ensure-its-coming-from-shopify):
 * `X-Shopify-Hmac-Sha256`, the base64 HMAC-SHA256 of the raw body keyed with the webhook signing
 * secret. Shopify signs no timestamp; a replay is caught by its event id.
 */
export const verifyShopify = (request: SourceRequest, secret: string): SignatureCheck =>
  checkBase64Hmac(request, secret, 'x-shopify-hmac-sha256', 'X-Shopify-Hmac-Sha256');
