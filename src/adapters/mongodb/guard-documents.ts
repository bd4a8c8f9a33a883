import * as t from 'io-ts';
import { bsonDate } from './bson-codecs';

/**
 * An idempotency record in `idempotency_keys`; `_id` is `<dashboardId>:<key>` (a dashboard id holds no
 * `:`, so the pair is unambiguous). The stored body is kept as JSON text, exactly as it was sent.
 */
export const idempotencyDocumentCodec = t.intersection([
  t.type({
    _id: t.string,
    fingerprint: t.string,
    claimId: t.string,
    reservedId: t.string,
    leaseExpiresAt: bsonDate,
    expiresAt: bsonDate,
  }),
  t.partial({
    response: t.type({ status: t.number, headers: t.record(t.string, t.string), body: t.string }),
  }),
]);
export type IdempotencyDocument = t.TypeOf<typeof idempotencyDocumentCodec>;

/** The right to replace an idempotency record held under `claimId`: `_id` is `<recordId>#<claimId>`. */
export interface TakeoverDocument {
  readonly _id: string;
  readonly expiresAt: Date;
}

/**
 * One counted request in `rate_limits`: slot N of a subject's window. `_id` is
 * `<subject>:<windowMs>:<windowStart>:<slot>`, so each slot is taken once.
 */
export interface RateLimitSlotDocument {
  readonly _id: string;
  readonly window: string;
  readonly slot: number;
  readonly expiresAt: Date;
}

export const rateLimitSlotCodec = t.type({ slot: t.number });
