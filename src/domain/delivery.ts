import type { JsonObject } from './order';
import type { WebhookEventType } from './webhook';

/** Where a delivery stands (decision 0012). */
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Deliveries are kept this long after they were made, then deleted (decision 0012: 30 days). */
export const DELIVERY_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/** A `Retry-After` longer than this delays the next attempt by this much only. */
export const MAX_RETRY_AFTER_SECONDS = 3_600;

/** Each delay of the schedule is moved by up to this fraction of itself, either way. */
export const RETRY_JITTER = 0.1;

/**
 * How much of a receiver's response body an attempt keeps, in bytes of UTF-8: enough for the error a
 * receiver explains itself with, never a page it sends by mistake (decision 0022).
 */
export const RESPONSE_BODY_LIMIT_BYTES = 4_096;

/** The start of a receiver's response body, as text: at most RESPONSE_BODY_LIMIT_BYTES of UTF-8. */
export interface ResponseBody {
  /** Cut at a character's boundary; bytes that are not UTF-8 replaced with U+FFFD. */
  readonly text: string;
  /** Whether more followed (or the reply was cut off before its end) than `text` holds. */
  readonly truncated: boolean;
}

/** One request made for a delivery. */
export interface DeliveryAttempt {
  readonly at: Date;
  readonly durationMs: number;
  /** The status the receiver answered, when it answered. */
  readonly responseStatus?: number;
  /** The start of the receiver's response body (ResponseBody), when it answered with one. Hostile input: never logged. */
  readonly responseBody?: string;
  readonly responseBodyTruncated?: boolean;
  /** Why there was no answer (refused, timed out, not allowed...), when there was none. */
  readonly error?: string;
}

/** One event to send to one endpoint, and what came of it. */
export interface Delivery {
  /** `dlv_…`, made by the service. */
  readonly id: string;
  readonly dashboardId: string;
  readonly endpointId: string;
  /** The `webhook-id` of every attempt: one endpoint never gets two deliveries of one event. */
  readonly eventId: string;
  readonly eventType: WebhookEventType;
  readonly status: DeliveryStatus;
  readonly attempts: readonly DeliveryAttempt[];
  /** When the next attempt is due; only while pending. */
  readonly nextAttemptAt?: Date;
  readonly createdAt: Date;
  /** The event as the delivery log shows it: the order as a list item, never its personal or free-form data. */
  readonly payload: JsonObject;
  /** The request body: the same bytes on every attempt. */
  readonly body: string;
  /**
   * Whether a failed attempt is followed by the next one of the retry schedule. False after a manual
   * retry of a delivery that had finished: that retry is one attempt.
   */
  readonly automaticRetries: boolean;
}

/** A new delivery, due at once. */
export const newDelivery = (
  fields: Pick<Delivery, 'id' | 'dashboardId' | 'endpointId' | 'eventId' | 'eventType' | 'payload' | 'body'>,
  now: Date,
): Delivery => ({ ...fields, status: 'pending', attempts: [], nextAttemptAt: now, createdAt: now, automaticRetries: true });

/** What an attempt got: an answer (any status), or none. */
export type AttemptResult =
  | { readonly kind: 'response'; readonly status: number; readonly retryAfterSeconds?: number; readonly body?: ResponseBody }
  | { readonly kind: 'error'; readonly message: string };

export interface AttemptMade {
  readonly at: Date;
  readonly durationMs: number;
  readonly result: AttemptResult;
}

export interface AfterAttempt {
  readonly delivery: Delivery;
  /** The receiver answered 410 Gone: its endpoint is to be disabled. */
  readonly gone: boolean;
}

const responseOf = ({ status, body }: { status: number; body?: ResponseBody }): Partial<DeliveryAttempt> => ({
  responseStatus: status,
  ...(body === undefined ? {} : { responseBody: body.text, responseBodyTruncated: body.truncated }),
});

const isSuccess = (result: AttemptResult): boolean => result.kind === 'response' && result.status >= 200 && result.status <= 299;

/**
 * The delivery after an attempt. A 2xx succeeds; a 410 fails it for good (and disables the endpoint);
 * anything else is tried again after the schedule's next delay (seconds, moved by up to
 * RETRY_JITTER either way by `jitter`, a number in [0, 1)), or after the receiver's `Retry-After`
 * when that is longer (up to MAX_RETRY_AFTER_SECONDS). Attempt n + 1 comes `schedule[n - 1]` seconds
 * after the end of attempt n, so a schedule of k delays makes k + 1 attempts; after the last the
 * delivery is failed.
 */
export const afterAttempt = (delivery: Delivery, attempt: AttemptMade, schedule: readonly number[], jitter: number): AfterAttempt => {
  const { at, durationMs, result } = attempt;
  const record: DeliveryAttempt = {
    at,
    durationMs,
    ...(result.kind === 'response' ? responseOf(result) : { error: result.message }),
  };
  const { nextAttemptAt: _next, ...rest } = delivery;
  const attempts = [...delivery.attempts, record];
  const gone = result.kind === 'response' && result.status === 410;
  if (isSuccess(result)) return { delivery: { ...rest, attempts, status: 'succeeded' }, gone };
  const delaySeconds = schedule[attempts.length - 1];
  if (gone || !delivery.automaticRetries || delaySeconds === undefined) return { delivery: { ...rest, attempts, status: 'failed' }, gone };
  const jittered = delaySeconds * (1 + RETRY_JITTER * (2 * jitter - 1));
  const asked =
    result.kind === 'response' && result.retryAfterSeconds !== undefined ? Math.min(result.retryAfterSeconds, MAX_RETRY_AFTER_SECONDS) : 0;
  const waitMs = Math.round(Math.max(jittered, asked) * 1000);
  return { delivery: { ...rest, attempts, status: 'pending', nextAttemptAt: new Date(at.getTime() + durationMs + waitMs) }, gone };
};

/**
 * A delivery whose endpoint is disabled when it falls due: it is not sent, and finishes as failed.
 * The retry route can send it once the endpoint is enabled again.
 */
export const failedUnsent = (delivery: Delivery): Delivery => {
  const { nextAttemptAt: _next, ...rest } = delivery;
  return { ...rest, status: 'failed' };
};
