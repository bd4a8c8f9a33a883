import type { SignatureCheck, SourceRequest } from '../../../application/ports/source-platform';
import { checkBase64Hmac } from '../signatures';

/**
 * The ping WooCommerce sends when a webhook is saved (WC_Webhook::deliver_ping): the form body
 * `webhook_id=<id>`, without any X-WC-Webhook header or signature. WooCommerce reports an error unless it is
 * answered 200, and it carries nothing, so it passes unsigned and is logged as ignored. The body
 * when it is that ping, else undefined.
 */
export const pingOf = (body: Uint8Array): string | undefined => {
  const text = body.length <= 32 ? Buffer.from(body).toString('latin1') : '';
  return /^webhook_id=\d{1,20}$/.test(text) ? text : undefined;
};

const isPing = (request: SourceRequest): boolean =>
  request.headers['x-wc-webhook-signature'] === undefined && pingOf(request.body) !== undefined;

const NAMED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"' };
const NUMBERED: Readonly<Record<number, string>> = { 38: '&', 60: '<', 62: '>', 34: '"', 39: "'" };

/**
 * WordPress's wp_specialchars_decode(…, ENT_QUOTES), what WooCommerce does to the secret before it
 * keys the HMAC: one pass (`&amp;lt;` is `&lt;`), named entities in lowercase only.
 */
const specialCharsDecoded = (secret: string): string =>
  secret.replace(/&(amp|lt|gt|quot|#0*(?:38|60|62|34|39)|#[xX]0*(?:26|22|27));/g, (_, body: string) =>
    body.startsWith('#') ? NUMBERED[body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : Number(body.slice(1))] : NAMED[body],
  );

/**
 * WooCommerce's webhook signature (WC_Webhook::generate_signature, woocommerce/includes/class-wc-webhook.php):
 * `X-WC-Webhook-Signature`, the base64 HMAC-SHA256 of the raw body keyed with the webhook's secret
 * as wp_specialchars_decode leaves it. WooCommerce signs no timestamp; a replay is caught by the
 * stages of the order it reports.
 */
export const verifyWooCommerce = (request: SourceRequest, secret: string): SignatureCheck => {
  const check = checkBase64Hmac(request, specialCharsDecoded(secret), 'x-wc-webhook-signature', 'X-WC-Webhook-Signature');
  return check.valid || !isPing(request) ? check : { valid: true };
};
