import * as t from 'io-ts';
import type { SignatureCheck, SourceRequest } from '../../../application/ports/source-platform';
import { readBodyJson } from '../exact-json';
import { sameText } from '../signatures';

const WithHottok = t.type({ hottok: t.string });

/** The `hottok` member of a JSON body, as Hotmart's deliveries also carry it; undefined without one. */
const hottokOfBody = (body: Uint8Array): string | undefined => {
  const read = readBodyJson(body);
  return read.ok && WithHottok.is(read.value) ? read.value.hottok : undefined;
};

/**
 * Hotmart's webhook authentication (developers.hotmart.com/docs/en/2.0.0/webhook/using-webhook): no
 * signature of the body, but the account's hottok on every delivery, in `X-HOTMART-HOTTOK` and in the
 * body's `hottok`; some deliveries carry only the latter. The header is read first, else the body's,
 * each compared in constant time with the source's secret. Hotmart signs no timestamp; a replay is
 * caught by its event id and the stages of the order it reports.
 */
export const verifyHotmart = (request: SourceRequest, secret: string): SignatureCheck => {
  const header = request.headers['x-hotmart-hottok'];
  const given = header ?? hottokOfBody(request.body);
  const matches = sameText(given?.trim() ?? '', secret);
  if (given === undefined) return { valid: false, reason: 'no hottok: neither an X-HOTMART-HOTTOK header nor a "hottok" in the body' };
  if (matches) return { valid: true };
  return { valid: false, reason: `${header === undefined ? 'the body’s hottok' : 'X-HOTMART-HOTTOK'} is not the hottok of this source` };
};
