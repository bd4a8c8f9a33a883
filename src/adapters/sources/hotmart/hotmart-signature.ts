import type { SignatureCheck, SourceRequest } from '../../../application/ports/source-platform';
import { sameText } from '../signatures';

/**
 * Hotmart's webhook authentication (developers.hotmart.com/docs/en/2.0.0/webhook/using-webhook): no
 * signature of the body, but the account's hottok in `X-HOTMART-HOTTOK` on every delivery, compared
 * here in constant time with the source's secret. Hotmart signs no timestamp; a replay is caught by
 * its event id and the stages of the order it reports.
 */
export const verifyHotmart = (request: SourceRequest, secret: string): SignatureCheck => {
  const given = request.headers['x-hotmart-hottok'];
  const matches = sameText(given?.trim() ?? '', secret);
  if (given === undefined) return { valid: false, reason: 'no X-HOTMART-HOTTOK header' };
  return matches ? { valid: true } : { valid: false, reason: 'X-HOTMART-HOTTOK is not the hottok of this source' };
};
