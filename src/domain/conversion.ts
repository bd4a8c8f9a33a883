import type { AdPlatformName } from './ad-account';
import type { JsonObject, JsonValue, Order } from './order';
import type { OrderEventType } from './order-events';

/**
 * A purchase sent back to an ad platform's conversions API (docs/ad-platforms.md): what an order's
 * change tells the platform, and the log of the requests that told it. The domain gathers and
 * normalises what leaves; hashing and the requests themselves are the outside's.
 */

/** What happened to the order, in the platform's terms: bought, refunded, charged back. */
export const CONVERSION_KINDS = ['purchase', 'refund', 'chargeback'] as const;
export type ConversionKind = (typeof CONVERSION_KINDS)[number];

export const CONVERSION_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type ConversionStatus = (typeof CONVERSION_STATUSES)[number];

/** The click ids the tracking script keeps, as the platforms name them. */
export const CLICK_ID_NAMES = ['fbclid', 'gclid', 'gbraid', 'wbraid', 'ttclid'] as const;
export type ClickIdName = (typeof CLICK_ID_NAMES)[number];

/** Each platform's click ids, in the order one is preferred when a touch has several (Google takes one per conversion). */
export const CLICK_IDS_OF: Readonly<Record<AdPlatformName, readonly ClickIdName[]>> = {
  meta: ['fbclid'],
  google: ['gclid', 'gbraid', 'wbraid'],
  tiktok: ['ttclid'],
};

/**
 * What each platform is told besides a purchase. Only Google adjusts a conversion it was sent
 * (a retraction); Meta's and TikTok's APIs have no event that takes a purchase back.
 */
export const KINDS_SENT: Readonly<Record<AdPlatformName, readonly ConversionKind[]>> = {
  meta: ['purchase'],
  google: ['purchase', 'refund', 'chargeback'],
  tiktok: ['purchase'],
};

/**
 * The oldest event each platform takes: Meta refuses a request holding an event more than 7 days old
 * (`event_time`), so such a purchase is not sent at all.
 */
export const MAX_EVENT_AGE_MS: Readonly<Partial<Record<AdPlatformName, number>>> = { meta: 7 * 24 * 3_600_000 };

/** The order event that makes each kind. */
const KIND_OF_EVENT: Partial<Record<OrderEventType, ConversionKind>> = {
  'order.paid': 'purchase',
  'order.refunded': 'refund',
  'order.chargedback': 'chargeback',
};

export const conversionKindOf = (type: OrderEventType): ConversionKind | undefined => KIND_OF_EVENT[type];

/** A click id and when the visit that carried it was captured (Meta's `fbc` is built with it). */
export interface ClickId {
  readonly name: ClickIdName;
  readonly value: string;
  readonly capturedAt?: Date;
}

/**
 * What a platform is sent about one order's change, gathered when the change was relayed. The buyer's
 * contacts are kept only as the platform's hashes: the plain email and phone never reach the log.
 */
export interface Conversion {
  readonly kind: ConversionKind;
  /** The order's `id`: the event id a browser pixel deduplicates with. */
  readonly orderId: string;
  /** The order's `externalId`: the order number the merchant knows it by. */
  readonly externalId: string;
  /** When the order was paid (refunded, charged back). */
  readonly occurredAt: Date;
  readonly valueCents: number;
  readonly currency: string;
  readonly click?: ClickId;
  /** SHA-256 (hex) of the email normalised as the platform documents. */
  readonly hashedEmail?: string;
  /** SHA-256 (hex) of the phone normalised as the platform documents. */
  readonly hashedPhone?: string;
}

/** What came of one request, as the log shows it. */
export const ATTEMPT_OUTCOMES = ['accepted', 'refused', 'unavailable'] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

export interface ConversionAttempt {
  readonly at: Date;
  readonly durationMs: number;
  readonly outcome: AttemptOutcome;
  /** Sent in the platform's test mode (`test_event_code`, `validateOnly`): the platform counted nothing. */
  readonly test: boolean;
  /** The status the platform answered, when it answered. */
  readonly responseStatus?: number;
  /** The platform's answer, its start (RESPONSE_BODY_LIMIT_BYTES). Never logged. */
  readonly reply?: string;
  /** The platform's own message about a refusal or an outage, or why nothing answered. */
  readonly message?: string;
}

/** One order change to send to one ad account, and what came of it. */
export interface ConversionDelivery {
  /** `cnv_…`, made by the service. */
  readonly id: string;
  readonly dashboardId: string;
  readonly adAccountId: string;
  readonly platform: AdPlatformName;
  /** The order event it comes from: one account never gets two deliveries of one event. */
  readonly eventId: string;
  readonly conversion: Conversion;
  readonly status: ConversionStatus;
  readonly attempts: readonly ConversionAttempt[];
  /** When the next attempt is due; only while pending. */
  readonly nextAttemptAt?: Date;
  readonly createdAt: Date;
}

/** Deliveries are kept this long after they were made, then deleted, as the webhook log is. */
export const CONVERSION_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/** The longest wait a platform's rate limit delays an attempt by. */
export const MAX_PLATFORM_WAIT_MS = 3_600_000;

/** A new delivery, due at once. */
export const newConversionDelivery = (
  fields: Pick<ConversionDelivery, 'id' | 'dashboardId' | 'adAccountId' | 'platform' | 'eventId' | 'conversion'>,
  now: Date,
): ConversionDelivery => ({ ...fields, status: 'pending', attempts: [], nextAttemptAt: now, createdAt: now });

/** What one request to the platform came to. */
export type ConversionResult =
  /** The platform took the event (or, in test mode, checked it). */
  | { readonly kind: 'accepted'; readonly status: number; readonly reply?: string }
  /**
   * The platform refused, for a reason only a person can fix: the account needs attention. A refused
   * payload (`final`) is not sent again; an expired or revoked token is, on the schedule, so that new
   * credentials entered meanwhile send it.
   */
  | { readonly kind: 'refused'; readonly message: string; readonly final: boolean; readonly status?: number; readonly reply?: string }
  /** An outage, a rate limit or no answer: tried again, not before the wait the platform asked for. */
  | { readonly kind: 'unavailable'; readonly message: string; readonly waitMs?: number; readonly status?: number; readonly reply?: string };

export interface ConversionAttemptMade {
  readonly at: Date;
  readonly durationMs: number;
  readonly test: boolean;
  readonly result: ConversionResult;
}

/**
 * The delivery after an attempt: accepted succeeds; a final refusal fails at once; anything else is
 * tried again after the schedule's next delay (seconds, moved by up to 10 % either way by `jitter` in
 * [0, 1)), or after the platform's wait when that is longer (at most MAX_PLATFORM_WAIT_MS). After the
 * last delay of the schedule the delivery is failed.
 */
export const afterConversionAttempt = (
  delivery: ConversionDelivery,
  attempt: ConversionAttemptMade,
  schedule: readonly number[],
  jitter: number,
): ConversionDelivery => {
  const { at, durationMs, test, result } = attempt;
  const record: ConversionAttempt = {
    at,
    durationMs,
    outcome: result.kind,
    test,
    ...(result.status === undefined ? {} : { responseStatus: result.status }),
    ...(result.reply === undefined ? {} : { reply: result.reply }),
    ...(result.kind === 'accepted' ? {} : { message: result.message }),
  };
  const { nextAttemptAt: _next, ...rest } = delivery;
  const attempts = [...delivery.attempts, record];
  if (result.kind === 'accepted') return { ...rest, attempts, status: 'succeeded' };
  const delaySeconds = schedule[attempts.length - 1];
  if ((result.kind === 'refused' && result.final) || delaySeconds === undefined) return { ...rest, attempts, status: 'failed' };
  const jittered = delaySeconds * 1000 * (1 + 0.1 * (2 * jitter - 1));
  const asked = result.kind === 'unavailable' && result.waitMs !== undefined ? Math.min(result.waitMs, MAX_PLATFORM_WAIT_MS) : 0;
  return {
    ...rest,
    attempts,
    status: 'pending',
    nextAttemptAt: new Date(at.getTime() + durationMs + Math.round(Math.max(jittered, asked))),
  };
};

/** A delivery that will not be sent (its account's conversions were turned off, its purchase never reached the platform). */
export const failedUnsent = (delivery: ConversionDelivery, at: Date, message: string): ConversionDelivery => {
  const { nextAttemptAt: _next, ...rest } = delivery;
  return { ...rest, status: 'failed', attempts: [...delivery.attempts, { at, durationMs: 0, outcome: 'refused', test: false, message }] };
};

/** A pending delivery put off until `until`, with no attempt made (a refund waits for its purchase). */
export const postponed = (delivery: ConversionDelivery, until: Date): ConversionDelivery => ({ ...delivery, nextAttemptAt: until });

const textAt = (object: JsonValue | undefined, key: string): string | undefined => {
  if (typeof object !== 'object' || object === null || Array.isArray(object)) return undefined;
  const value = (object as JsonObject)[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
};

const instantAt = (object: JsonValue | undefined, key: string): Date | undefined => {
  const text = textAt(object, key);
  const time = text === undefined ? NaN : Date.parse(text);
  return Number.isNaN(time) ? undefined : new Date(time);
};

/**
 * The platform's click id of the order, as the tracking script leaves it in `trackingExtras`: the
 * last touch's (its fields at the top), else the first touch's (`firstTouch`), each with the
 * `capturedAt` of its visit. Of a touch with several of the platform's ids, the first it prefers.
 */
export const clickIdOf = (order: Pick<Order, 'trackingExtras'>, platform: AdPlatformName): ClickId | undefined => {
  const touches: (JsonValue | undefined)[] = [order.trackingExtras, order.trackingExtras?.['firstTouch']];
  for (const touch of touches) {
    for (const name of CLICK_IDS_OF[platform]) {
      const value = textAt(touch, name);
      if (value === undefined) continue;
      const capturedAt = instantAt(touch, 'capturedAt');
      return { name, value, ...(capturedAt === undefined ? {} : { capturedAt }) };
    }
  }
  return undefined;
};

/** The buyer's email and phone as the order has them (`customer.email`, `customer.phone`, as the sources write them). */
export const contactsOf = (order: Pick<Order, 'customer'>): { readonly email?: string; readonly phone?: string } => {
  const email = textAt(order.customer, 'email');
  const phone = textAt(order.customer, 'phone');
  return { ...(email === undefined ? {} : { email }), ...(phone === undefined ? {} : { phone }) };
};

/**
 * An email as Meta and TikTok normalise it before hashing: leading and trailing spaces trimmed, every
 * letter lowercase. Undefined for what cannot be an email (no `@` between two parts, spaces inside).
 */
export const normalEmail = (text: string): string | undefined => {
  const email = text.trim().toLowerCase();
  return /^[^\s@]+@[^\s@]+$/.test(email) ? email : undefined;
};

/**
 * A phone number's digits, country code first, as Meta normalises it (symbols and letters removed,
 * no leading zeros): only for a number written in international form, `+` or `00` then the country
 * code, with 8 to 15 digits (E.164's most). A number written without its country code is undefined:
 * the platforms match numbers with their country code, and which country a local number is of cannot
 * be known from it.
 */
export const internationalDigits = (text: string): string | undefined => {
  const trimmed = text.trim();
  if (!/^(\+|00)/.test(trimmed) || /[^\d\s()+./-]/.test(trimmed)) return undefined;
  const digits = trimmed.replace(/\D/g, '').replace(/^0+/, '');
  return /^[1-9]\d{7,14}$/.test(digits) ? digits : undefined;
};

/** The phone as each platform normalises it before hashing: Meta the digits alone, TikTok E.164 (`+` and the digits). */
export const platformPhone = (platform: AdPlatformName, text: string): string | undefined => {
  const digits = internationalDigits(text);
  if (digits === undefined) return undefined;
  return platform === 'tiktok' ? `+${digits}` : digits;
};

/**
 * Meta's `fbc` from a click id, as Meta documents it for a server that kept the `fbclid` itself:
 * `fb.1.<when the click id was first seen, in ms>.<fbclid as it came>` (subdomain index 1, the
 * shop's own domain).
 */
export const metaFbc = (fbclid: string, firstSeen: Date): string => `fb.1.${firstSeen.getTime()}.${fbclid}`;

/** What the order says of each kind: the instant it entered that status. */
export const occurredAtOf = (order: Pick<Order, 'paidAt' | 'refundedAt' | 'chargedbackAt' | 'createdAt'>, kind: ConversionKind): Date =>
  (kind === 'purchase' ? order.paidAt : kind === 'refund' ? order.refundedAt : order.chargedbackAt) ?? order.createdAt;
