import * as E from 'fp-ts/Either';
import { invalidTransition, type InvalidTransition } from './errors';
import { amountsWithDefaults, type Amounts, type AmountsInput, type Cents } from './money';
import { eventsOfChange, eventsOfCreation, type OrderDomainEvent } from './order-events';
import { dateFieldOf, type OrderStatus, type StatusDateField } from './order-status';
import type { TransitionPolicy } from './transition-policy';

/** A free-form JSON object (customer, fees, metadata, trackingExtras): its inner fields are not specified. */
export type JsonObject = { readonly [key: string]: JsonValue };
export type JsonValue = string | number | boolean | null | JsonObject | readonly JsonValue[];

const isJsonValue = (u: unknown, depth: number): u is JsonValue => {
  if (depth > 64) return false;
  if (u === null || typeof u === 'string' || typeof u === 'boolean') return true;
  if (typeof u === 'number') return Number.isFinite(u);
  if (Array.isArray(u)) return u.every((item) => isJsonValue(item, depth + 1));
  return isPlainJsonObject(u, depth);
};

const isPlainJsonObject = (u: unknown, depth: number): u is JsonObject =>
  typeof u === 'object' &&
  u !== null &&
  Object.getPrototypeOf(u) === Object.prototype &&
  Object.values(u).every((value) => isJsonValue(value, depth + 1));

/**
 * Whether `u` is what JSON can hold, as a plain object: strings, finite numbers, booleans, null,
 * arrays and plain objects, 64 levels at most; a class instance (a Date, a BSON type) is not. The
 * stores check what they read back with it.
 */
export const isJsonObject = (u: unknown): u is JsonObject => isPlainJsonObject(u, 0);

export interface Product {
  readonly externalId?: string;
  readonly sku?: string;
  readonly name: string;
  readonly quantity: number;
  readonly unitPriceCents: Cents;
}

export interface Tracking {
  readonly utmSource: string;
  readonly utmMedium: string;
  readonly utmCampaign: string;
  readonly utmContent?: string;
  readonly utmTerm?: string;
  readonly utmId?: string;
}

export interface Order {
  /** Made by the service: opaque and unguessable. */
  readonly id: string;
  readonly dashboardId: string;
  /** The caller's identifier, unique within the dashboard. */
  readonly externalId: string;
  readonly platform: string;
  readonly paymentMethod: string;
  readonly status: OrderStatus;
  readonly isTest: boolean;
  readonly createdAt: Date;
  readonly paidAt?: Date;
  readonly refundedAt?: Date;
  readonly chargedbackAt?: Date;
  readonly amounts: Amounts;
  readonly products: readonly Product[];
  readonly tracking: Tracking;
  readonly customer?: JsonObject;
  readonly fees?: JsonObject;
  readonly metadata?: JsonObject;
  readonly trackingExtras?: JsonObject;
  /** Starts at 1 and grows by one with every stored change: the basis of optimistic concurrency. */
  readonly version: number;
  readonly updatedAt: Date;
}

/**
 * What a caller sends to create an order, already validated at the edge: an order without what the
 * service adds, and with the optional amounts still optional.
 */
export type NewOrder = Omit<Order, 'id' | 'dashboardId' | 'version' | 'updatedAt' | 'amounts'> & {
  readonly amounts: AmountsInput;
};

/** The fields a PATCH may change (decision 0006). */
export interface OrderChanges {
  readonly status?: OrderStatus;
  readonly paidAt?: Date;
  readonly refundedAt?: Date;
  readonly chargedbackAt?: Date;
  readonly metadata?: JsonObject;
}

/** An order as a change left it, and what the change emitted, to be stored together. */
export interface OrderWithEvents {
  readonly order: Order;
  readonly events: readonly OrderDomainEvent[];
}

/**
 * Builds a new order. A status that has a date of its own gets `createdAt` for that date when the
 * caller sent none (decision 0004). Emits `order.created`, and the event of its status.
 */
export const createOrder = (input: NewOrder, ids: { id: string; dashboardId: string }, now: Date): OrderWithEvents => {
  const { amounts, ...rest } = input;
  const order = withStatusDate(
    {
      ...rest,
      id: ids.id,
      dashboardId: ids.dashboardId,
      amounts: amountsWithDefaults(amounts),
      version: 1,
      updatedAt: now,
    },
    input.createdAt,
  );
  return { order, events: eventsOfCreation(order, now) };
};

/**
 * Applies a PATCH. Setting the status the order already has is a no-op for the status; any other
 * status change must be allowed by the policy. A change that changes something gives the next
 * version and emits `order.updated` (and the event of a status entered); one that changes nothing
 * gives back the order as it was, same version and `updatedAt`, and emits nothing.
 */
export const changeOrder = (
  order: Order,
  changes: OrderChanges,
  policy: TransitionPolicy,
  now: Date,
): E.Either<InvalidTransition, OrderWithEvents> => {
  const to = changes.status;
  if (to !== undefined && to !== order.status && !policy.allows(order.status, to)) {
    return E.left(invalidTransition(order.status, to));
  }
  const applied = withStatusDate({ ...order, ...definedOnly(changes) }, now);
  if (!changesSomething(order, applied)) return E.right({ order, events: [] });
  const changed: Order = { ...applied, version: order.version + 1, updatedAt: now };
  return E.right({ order: changed, events: eventsOfChange(order, changed, now) });
};

/** A status with a date of its own keeps the date it has, or else gets `fallback`. */
const withStatusDate = (order: Order, fallback: Date): Order => {
  const field: StatusDateField | undefined = dateFieldOf(order.status);
  if (field === undefined || order[field] !== undefined) return order;
  return { ...order, [field]: fallback };
};

const definedOnly = <T extends object>(value: T): Partial<T> =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;

/** Whether `after` differs from `before` in a field a PATCH can change (OrderChanges). */
const changesSomething = (before: Order, after: Order): boolean =>
  before.status !== after.status ||
  !sameInstant(before.paidAt, after.paidAt) ||
  !sameInstant(before.refundedAt, after.refundedAt) ||
  !sameInstant(before.chargedbackAt, after.chargedbackAt) ||
  !sameJson(before.metadata, after.metadata);

const sameInstant = (a: Date | undefined, b: Date | undefined): boolean =>
  a === undefined || b === undefined ? a === b : a.getTime() === b.getTime();

/**
 * Deep equality of JSON values. Arrays compare item by item; objects by their members, in any order
 * (the order of an object's members carries no meaning in JSON, RFC 8259). A member set to undefined
 * counts as absent, as JSON would write it.
 */
const sameJson = (a: JsonValue | undefined, b: JsonValue | undefined): boolean => {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item: JsonValue, i) => sameJson(item, (b as readonly JsonValue[])[i]));
  }
  const objectA = a as JsonObject;
  const objectB = b as JsonObject;
  const keys = definedKeys(objectA);
  return (
    keys.length === definedKeys(objectB).length && keys.every((key) => Object.hasOwn(objectB, key) && sameJson(objectA[key], objectB[key]))
  );
};

const definedKeys = (object: JsonObject): string[] => Object.keys(object).filter((key) => object[key] !== undefined);

type SameField<K extends keyof Order> = (stored: Order[K], sent: Order[K]) => boolean;

const sameValue = <T>(a: T, b: T): boolean => a === b;
const sameData = (a: unknown, b: unknown): boolean => sameJson(a as JsonValue | undefined, b as JsonValue | undefined);
const ownedByTheService = (): boolean => true;

/**
 * How each field of a stored order is compared with the one a creation payload makes: every field the
 * payload sets or defaults must be the same; `version` and `updatedAt` are the service's, not the
 * payload's. A field added to `Order` fails to compile until it is given a comparison here.
 */
const SAME_AS_SENT: { readonly [K in keyof Order]-?: SameField<K> } = {
  id: sameValue,
  dashboardId: sameValue,
  externalId: sameValue,
  platform: sameValue,
  paymentMethod: sameValue,
  status: sameValue,
  isTest: sameValue,
  createdAt: sameInstant,
  paidAt: sameInstant,
  refundedAt: sameInstant,
  chargedbackAt: sameInstant,
  amounts: sameData,
  products: sameData,
  tracking: sameData,
  customer: sameData,
  fees: sameData,
  metadata: sameData,
  trackingExtras: sameData,
  version: ownedByTheService,
  updatedAt: ownedByTheService,
};

/**
 * Whether `stored` is the order `input` would create: the same payload, once its defaults are applied
 * (the optional amounts at 0, a status date at `createdAt`), sent again. The creation payload holds
 * every field it needs (`createdAt` included), so the answer depends on the two orders alone.
 */
export const isRecordedAs = (stored: Order, input: NewOrder): boolean => {
  const sent = createOrder(input, { id: stored.id, dashboardId: stored.dashboardId }, stored.updatedAt).order;
  return (Object.keys(SAME_AS_SENT) as (keyof Order)[]).every((field) =>
    (SAME_AS_SENT[field] as SameField<typeof field>)(stored[field], sent[field]),
  );
};
