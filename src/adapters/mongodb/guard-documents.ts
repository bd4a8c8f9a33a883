import * as t from 'io-ts';
import { bsonCount, bsonDate } from './bson-codecs';

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
 * The counter of one subject's window in `rate_limits`: `_id` is `<subject>:<windowMs>:<windowStart>`,
 * `count` the requests counted so far, `expiresAt` when the TTL index lets the server delete it.
 */
export interface RateLimitCounterDocument {
  readonly _id: string;
  readonly count: number;
  readonly expiresAt: Date;
}

export const rateLimitCounterCodec = t.type({ count: bsonCount });
