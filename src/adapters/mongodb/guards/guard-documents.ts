import * as t from 'io-ts';
import { ObjectId } from 'mongodb';
import { bsonCount, bsonDate } from '../bson-codecs';

const objectId = new t.Type<ObjectId, ObjectId, unknown>(
  'ObjectId',
  (u): u is ObjectId => u instanceof ObjectId,
  (u, c) => (u instanceof ObjectId ? t.success(u) : t.failure(u, c, 'must be an ObjectId')),
  t.identity,
);

const storedResponseCodec = t.type({ status: t.number, headers: t.record(t.string, t.string), body: t.string });

/**
 * An idempotency record in `idempotency_keys`, unique by (dashboardId, key); `_id` is the server's
 * ObjectId. The stored response's body is kept as JSON text: it is replayed as it was sent and never
 * queried, so the store has no reason to look inside it.
 */
export const idempotencyDocumentCodec = t.intersection([
  t.type({
    _id: objectId,
    dashboardId: t.string,
    key: t.string,
    fingerprint: t.string,
    claimId: t.string,
    reservedId: t.string,
    leaseExpiresAt: bsonDate,
    expiresAt: bsonDate,
  }),
  t.partial({ response: storedResponseCodec }),
]);
export type IdempotencyDocument = t.TypeOf<typeof idempotencyDocumentCodec>;

/** A record as written by a claim: everything but the `_id` the server gives it and the response. */
export type IdempotencyRecord = Omit<IdempotencyDocument, '_id' | 'response'>;

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
