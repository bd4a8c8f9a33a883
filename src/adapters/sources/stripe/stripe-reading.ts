import * as t from 'io-ts';
import type { SourceRequest } from '../../../application/ports/source-platform';
import type { NewOrder, Product } from '../../../domain/order';
import type { OrderStatus } from '../../../domain/order-status';
import type { OrderReading, SourceReading } from '../../../domain/source-reading';
import { decodeTouch, mergeTouches, trackingOf, type Touch } from '../../../domain/touch';
import { centsOfMinorUnits } from '../amounts';
import { readBodyJson } from '../exact-json';
import { currencyCode, customerOf, firstProblem, givenAmounts, maybe, productOf, text, unixSeconds, utmTouch } from '../payloads';
import { paymentMethodOf } from '../payment-methods';

/**
 * What a Stripe event says (docs.stripe.com/api/events/object), for the events of
 * docs/incoming/r27-sources.md. The order is the PaymentIntent (`stripe:pi_…`), so its Checkout
 * Session, its refunds and its disputes all find it.
 */

const Event = t.type({
  id: t.string,
  type: t.string,
  created: unixSeconds,
  livemode: maybe(t.boolean),
  data: t.type({ object: t.unknown }),
});
type Event = t.TypeOf<typeof Event>;

/** What every reading of an event names: the event's id and type. */
const labelsOf = (event: Event) => ({ eventId: event.id, topic: event.type });

const metadata = maybe(t.record(t.string, t.string));
/** An id, or the object it names when the endpoint expands it. */
const idOf = maybe(t.union([t.string, t.type({ id: t.string })]));
/** An amount in minor units: a number, or its digits as text when it passes 2^53 (exact-json.ts), which no amount is. */
const minorAmount = maybe(t.union([t.number, t.string]));
const details = maybe(t.partial({ email: maybe(t.string), name: maybe(t.string), phone: maybe(t.string) }));

const Session = t.intersection([
  t.type({ id: t.string, mode: t.string, payment_intent: idOf }),
  t.partial({
    payment_status: maybe(t.string),
    amount_total: minorAmount,
    currency: maybe(t.string),
    created: unixSeconds,
    customer_details: details,
    metadata,
    client_reference_id: maybe(t.string),
    payment_method_types: maybe(t.array(t.string)),
    total_details: maybe(t.partial({ amount_discount: maybe(t.number), amount_shipping: maybe(t.number), amount_tax: maybe(t.number) })),
  }),
]);

const PaymentIntent = t.intersection([
  t.type({ id: t.string }),
  t.partial({
    amount: minorAmount,
    currency: maybe(t.string),
    created: unixSeconds,
    metadata,
    description: maybe(t.string),
    receipt_email: maybe(t.string),
    payment_method_types: maybe(t.array(t.string)),
  }),
]);

const Charge = t.intersection([
  t.type({ id: t.string, payment_intent: idOf }),
  t.partial({
    amount: minorAmount,
    amount_refunded: maybe(t.number),
    refunded: maybe(t.boolean),
    currency: maybe(t.string),
    created: unixSeconds,
    metadata,
    description: maybe(t.string),
    billing_details: details,
    payment_method_details: maybe(t.partial({ type: maybe(t.string) })),
  }),
]);

const Dispute = t.intersection([
  t.type({ id: t.string, payment_intent: idOf }),
  t.partial({ amount: minorAmount, currency: maybe(t.string), created: unixSeconds, status: maybe(t.string), reason: maybe(t.string) }),
]);

const piOf = (ref: t.TypeOf<typeof idOf>): string | undefined =>
  ref === null || ref === undefined ? undefined : typeof ref === 'string' ? ref : ref.id;

/** The campaign fields of `metadata.utm_*`, then of the compact touch in `client_reference_id` (decision 0021) for those missing. */
const touchOf = (meta: Readonly<Record<string, string>> | null | undefined, reference?: string | null): Touch => {
  const fromMetadata = utmTouch((name) => meta?.[name]);
  const fromReference = reference === null || reference === undefined ? undefined : decodeTouch(reference);
  return mergeTouches(fromMetadata, fromReference ?? {});
};

interface Money {
  readonly amount?: number | string | null | undefined;
  readonly currency?: string | null | undefined;
}

/** Gross cents and the currency, or why there are none. */
const moneyOf = ({ amount, currency }: Money, what: string): { cents: number; currency: string } | string => {
  const code = currencyCode.decode(currency);
  if (code._tag === 'Left') return `the ${what} has no currency`;
  if (amount === null || amount === undefined) return `the ${what} has no amount`;
  const cents = typeof amount === 'number' ? centsOfMinorUnits(amount, code.right) : undefined;
  return cents === undefined
    ? `the ${what}'s amount ${amount} ${code.right} is not a whole count of cents`
    : { cents, currency: code.right };
};

interface Snapshot {
  readonly money: { cents: number; currency: string } | string;
  readonly status: OrderStatus;
  readonly createdAt: Date;
  readonly statusAt: Date;
  readonly touch: Touch;
  readonly product: Omit<Product, 'quantity' | 'unitPriceCents'>;
  readonly customer?: ReturnType<typeof customerOf>;
  readonly paymentMethod: string | null | undefined;
  readonly discountCents?: number;
  readonly shippingCents?: number;
  readonly taxesCents?: number;
}

const reading = (event: Event, pi: string, status: OrderStatus, snapshot: Snapshot, extra: Partial<OrderReading> = {}): OrderReading => {
  const base = {
    kind: 'order' as const,
    ...labelsOf(event),
    externalId: `stripe:${pi}`,
    at: event.created,
    status,
    ...extra,
  };
  if (typeof snapshot.money === 'string') return { ...base, cannotCreate: snapshot.money };
  const ended = snapshot.status === 'refunded' || snapshot.status === 'chargedback';
  const dateField =
    snapshot.status === 'paid' ? 'paidAt' : snapshot.status === 'refunded' ? 'refundedAt' : ended ? 'chargedbackAt' : undefined;
  const order: NewOrder = {
    externalId: `stripe:${pi}`,
    platform: 'stripe',
    paymentMethod: paymentMethodOf(snapshot.paymentMethod),
    status: snapshot.status,
    isTest: event.livemode !== true,
    createdAt: snapshot.createdAt,
    ...(dateField === undefined ? {} : { [dateField]: snapshot.statusAt }),
    ...(ended ? { paidAt: snapshot.createdAt } : {}),
    amounts: {
      currency: snapshot.money.currency,
      grossCents: snapshot.money.cents,
      netToSellerCents: snapshot.money.cents,
      ...givenAmounts({ discountCents: snapshot.discountCents, shippingCents: snapshot.shippingCents, taxesCents: snapshot.taxesCents }),
    },
    products: [productOf({ ...snapshot.product, name: snapshot.product.name, quantity: 1, unitPriceCents: snapshot.money.cents })],
    tracking: trackingOf(snapshot.touch),
    ...(snapshot.customer === undefined ? {} : { customer: snapshot.customer }),
  };
  return { ...base, order };
};

const onlyMethod = (types: readonly string[] | null | undefined): string | undefined => (types?.length === 1 ? types[0] : undefined);

const minor = (amount: number | null | undefined, currency: string): number | undefined =>
  amount === null || amount === undefined ? undefined : centsOfMinorUnits(amount, currency);

const SESSION_STATUS: Readonly<Record<string, OrderStatus>> = {
  'checkout.session.async_payment_succeeded': 'paid',
  'checkout.session.async_payment_failed': 'refused',
};

/** A reader of the events whose object `codec` reads: one that is not what Stripe documents is refused. */
const readerOf =
  <A>(codec: t.Decoder<unknown, A>, read: (event: Event, object: A) => SourceReading) =>
  (event: Event): SourceReading => {
    const decoded = codec.decode(event.data.object);
    return decoded._tag === 'Left'
      ? { kind: 'refused', ...labelsOf(event), reason: firstProblem(decoded.left) }
      : read(event, decoded.right);
  };

const readSession = readerOf(Session, (event, session) => {
  const pi = piOf(session.payment_intent);
  if (session.mode !== 'payment' || pi === undefined)
    return {
      kind: 'ignored',
      ...labelsOf(event),
      reason: `a Checkout Session in ${session.mode} mode without a PaymentIntent is not an order`,
    };
  const status = SESSION_STATUS[event.type] ?? (session.payment_status === 'unpaid' ? 'pending' : 'paid');
  const money = moneyOf({ amount: session.amount_total, currency: session.currency }, 'Checkout Session');
  const currency = typeof money === 'string' ? 'USD' : money.currency;
  const totals = session.total_details;
  return reading(event, pi, status, {
    money,
    status,
    createdAt: session.created ?? event.created,
    statusAt: event.created,
    touch: touchOf(session.metadata, session.client_reference_id),
    product: { name: text(session.metadata?.['product_name']) ?? 'Stripe Checkout payment', externalId: session.id },
    customer: customerOf({
      email: session.customer_details?.email,
      name: session.customer_details?.name,
      phone: session.customer_details?.phone,
    }),
    paymentMethod: onlyMethod(session.payment_method_types) ?? null,
    discountCents: minor(totals?.amount_discount, currency),
    shippingCents: minor(totals?.amount_shipping, currency),
    taxesCents: minor(totals?.amount_tax, currency),
  });
});

const readPaymentIntent = readerOf(PaymentIntent, (event, intent) => {
  const status: OrderStatus = event.type === 'payment_intent.succeeded' ? 'paid' : 'refused';
  return reading(event, intent.id, status, {
    money: moneyOf(intent, 'PaymentIntent'),
    status,
    createdAt: intent.created ?? event.created,
    statusAt: event.created,
    touch: touchOf(intent.metadata),
    product: { name: text(intent.description) ?? 'Stripe payment', externalId: intent.id },
    customer: customerOf({ email: intent.receipt_email }),
    paymentMethod: onlyMethod(intent.payment_method_types) ?? null,
  });
});

const readRefund = readerOf(Charge, (event, charge) => {
  const pi = piOf(charge.payment_intent);
  if (pi === undefined) return { kind: 'ignored', ...labelsOf(event), reason: 'a charge without a PaymentIntent is not an order here' };
  const money = moneyOf(charge, 'charge');
  const whole = charge.refunded === true;
  const refunded = typeof money === 'string' ? undefined : minor(charge.amount_refunded, money.currency);
  return reading(
    event,
    pi,
    'refunded',
    {
      money,
      status: whole ? 'refunded' : 'paid',
      createdAt: charge.created ?? event.created,
      statusAt: event.created,
      touch: touchOf(charge.metadata),
      product: { name: text(charge.description) ?? 'Stripe payment', externalId: pi },
      customer: customerOf({
        email: charge.billing_details?.email,
        name: charge.billing_details?.name,
        phone: charge.billing_details?.phone,
      }),
      paymentMethod: charge.payment_method_details?.type,
    },
    whole ? {} : { refundedCents: refunded ?? 0, note: 'a partial refund keeps the order paid' },
  );
});

const readDispute = readerOf(Dispute, (event, dispute) => {
  const pi = piOf(dispute.payment_intent);
  if (pi === undefined) return { kind: 'ignored', ...labelsOf(event), reason: 'a dispute without a PaymentIntent is not an order here' };
  if (event.type === 'charge.dispute.closed')
    return {
      kind: 'ignored',
      ...labelsOf(event),
      reason: `the dispute closed as ${dispute.status ?? 'unknown'}: the order stays as it is (a won dispute can be set back to paid with PATCH /api/v1/orders/stripe:${pi})`,
    };
  return reading(event, pi, 'chargedback', {
    money: moneyOf(dispute, 'dispute'),
    status: 'chargedback',
    createdAt: dispute.created ?? event.created,
    statusAt: event.created,
    touch: {},
    product: { name: 'Stripe payment', externalId: pi },
    paymentMethod: null,
  });
});

const READERS: Readonly<Record<string, (event: Event) => SourceReading>> = {
  'checkout.session.completed': readSession,
  'checkout.session.async_payment_succeeded': readSession,
  'checkout.session.async_payment_failed': readSession,
  'payment_intent.succeeded': readPaymentIntent,
  'payment_intent.payment_failed': readPaymentIntent,
  'charge.refunded': readRefund,
  'charge.dispute.created': readDispute,
  'charge.dispute.closed': readDispute,
};

/**
 * A thin event (docs.stripe.com/event-destinations, "thin" payload style): its id, type and a
 * reference to the object, without the object, which a source has no API key to fetch.
 */
const ThinEvent = t.type({ id: t.string, type: t.string, related_object: t.unknown });

export const readStripe = (request: SourceRequest): SourceReading => {
  const body = readBodyJson(request.body);
  if (!body.ok) return { kind: 'refused', reason: body.problem };
  if (ThinEvent.is(body.value))
    return {
      kind: 'refused',
      eventId: body.value.id,
      topic: body.value.type,
      reason:
        'a thin event carries no payment, only a reference to it: in Stripe’s Workbench (Webhooks), create the event destination again with the Snapshot payload style',
    };
  const decoded = Event.decode(body.value);
  if (decoded._tag === 'Left') return { kind: 'refused', reason: `not a Stripe event: ${firstProblem(decoded.left)}` };
  const event = decoded.right;
  const read = READERS[event.type];
  return read === undefined
    ? { kind: 'ignored', ...labelsOf(event), reason: `Stripe's ${event.type} does not concern orders` }
    : read(event);
};
