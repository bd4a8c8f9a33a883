import type { SignatureCheck, SourceRequest } from '../../../application/ports/source-platform';
import { hmacSha256, sameBytes } from '../signatures';

/**
 * Stripe's webhook signature (docs.stripe.com/webhooks#verify-manually): `Stripe-Signature:
 * t=<unix seconds>,v1=<hex>[,v1=<hex>…]`, each v1 the HMAC-SHA256 of `<t>.<raw body>` keyed with the
 * endpoint's `whsec_…` secret as it is. Several v1 are sent while a secret is being rolled: any one
 * that matches passes. The timestamp must be within 5 minutes of the service's clock, either way.
 */
export const STRIPE_TOLERANCE_SECONDS = 300;

const parse = (header: string): { t?: string; v1: string[] } => {
  const fields = header.split(',').map((part) => {
    const at = part.indexOf('=');
    return at < 0 ? ['', ''] : [part.slice(0, at).trim(), part.slice(at + 1).trim()];
  });
  return { t: fields.find(([key]) => key === 't')?.[1], v1: fields.filter(([key]) => key === 'v1').map(([, value]) => value) };
};

export const verifyStripe = (request: SourceRequest, secret: string, now: Date): SignatureCheck => {
  const { t, v1 } = parse(request.headers['stripe-signature'] ?? '');
  // The HMAC is computed whatever the header holds, so a refusal costs what an acceptance does.
  const expected = hmacSha256(secret, `${t ?? ''}.`, request.body);
  const matches = v1.map((given) => /^[0-9a-f]{64}$/.test(given) && sameBytes(Buffer.from(given, 'hex'), expected)).includes(true);
  if (request.headers['stripe-signature'] === undefined) return { valid: false, reason: 'no Stripe-Signature header' };
  if (t === undefined || !/^\d{1,12}$/.test(t) || v1.length === 0) return { valid: false, reason: 'a Stripe-Signature without t= and v1=' };
  if (!matches) return { valid: false, reason: 'no v1 signature matches the secret' };
  if (Math.abs(now.getTime() / 1000 - Number(t)) > STRIPE_TOLERANCE_SECONDS)
    return {
      valid: false,
      reason: `the signature's timestamp is more than ${STRIPE_TOLERANCE_SECONDS / 60} minutes from the service's clock`,
    };
  return { valid: true };
};
