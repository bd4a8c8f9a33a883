import type { ConversionSent } from '../../application/ports/conversion-platform';
import type { ConversionResult } from '../../domain/conversion';
import { RESPONSE_BODY_LIMIT_BYTES } from '../../domain/delivery';
import { reasonOf, retryAfterMs, send, type PlatformRequest, type PlatformResponse } from './platform-client';

/**
 * The start of a platform's answer as the conversion log keeps it: at most RESPONSE_BODY_LIMIT_BYTES
 * of UTF-8, cut at a character's boundary.
 */
export const replyOf = (text: string): string | undefined => {
  if (text === '') return undefined;
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= RESPONSE_BODY_LIMIT_BYTES) return text;
  let end = RESPONSE_BODY_LIMIT_BYTES;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return `${bytes.subarray(0, end).toString('utf8')}…`;
};

/** A judge's verdict on an answer, before the answer's own status, reply and wait are added. */
export type Judged =
  | { readonly kind: 'accepted' }
  | { readonly kind: 'refused'; readonly message: string; readonly final: boolean }
  | { readonly kind: 'unavailable'; readonly message: string; readonly waitMs?: number };

/**
 * Sends one conversion request and reads its answer with `judge`: once, since retrying is the
 * outbox's. No answer (refused, timed out) is `unavailable`; a `Retry-After` the platform sent is the
 * least wait before the next attempt. Only `signal` aborting rejects; nothing of the request (its
 * body holds tokens and hashes) reaches a message.
 */
export const sendConversion = async (
  platform: string,
  request: PlatformRequest,
  judge: (response: PlatformResponse) => Judged,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<ConversionSent> => {
  const started = Date.now();
  let result: ConversionResult;
  try {
    const response = await send({ ...request, method: 'POST' }, timeoutMs, signal);
    const judged = judge(response);
    const answered = { status: response.status, ...optionalReply(replyOf(response.text)) };
    const asked = retryAfterMs(response.headers);
    result =
      judged.kind === 'unavailable' && judged.waitMs === undefined && asked !== undefined
        ? { ...judged, waitMs: asked, ...answered }
        : { ...judged, ...answered };
  } catch (err) {
    if (signal.aborted) throw err;
    result = { kind: 'unavailable', message: `${platform} could not be reached (${reasonOf(err)})` };
  }
  return { durationMs: Date.now() - started, result };
};

const optionalReply = (reply: string | undefined): { reply?: string } => (reply === undefined ? {} : { reply });
