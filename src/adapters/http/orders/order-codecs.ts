import * as t from 'io-ts';
import { isCents, isCurrencyCode, MAX_CENTS } from '../../../domain/money';
import { ORDER_STATUSES } from '../../../domain/order-status';
import { arrayOf, bool, check, int, objectValues, oneOf, str, strictObject } from '../kit/codec-kit';
import { isoInstant, queryInstant } from '../kit/dates';
import { FREE_FORM_LIMITS, freeFormObject } from '../kit/free-form';
import { component, described, Documented } from '../kit/json-schema';
import { intParam, MAX_PAGE, pagingParams, QUERY_INSTANT_NOTE, single } from '../kit/list-query';

/** Codecs of what a caller sends about orders (specification, decisions 0003, 0006). */

/** The domain's rule for money, said in the edge's words. */
export const cents = component(
  'Cents',
  check('Cents', isCents, `must be an integer from 0 to ${MAX_CENTS}`, { type: 'integer', minimum: 0, maximum: MAX_CENTS }),
  'An amount of money as an integer count of cents.',
);

export const orderStatus = component(
  'OrderStatus',
  oneOf(ORDER_STATUSES),
  "The order states of the specification. Which changes between them are allowed is decided by the operator's transition " +
    'table; the service ships none (see PATCH /api/v1/orders/{externalId}).',
);

export const currency = component(
  'CurrencyCode',
  check('CurrencyCode', isCurrencyCode, 'must be a three-letter uppercase currency code, such as BRL', {
    type: 'string',
    pattern: '^[A-Z]{3}$',
    examples: ['BRL'],
  }),
  'A three-letter uppercase code (the shape of ISO 4217).',
);

export const TEXT_MAX = 255;
/** Strings the specification leaves open: 1 to 255 characters (decision 0003). */
export const text = str(1, TEXT_MAX);

/**
 * An order's externalId: any text but `.` and `..`, the two path segments every URL resolver removes,
 * so that a client generated from the document cannot turn a read of one order into another route.
 */
const orderExternalId = new Documented<string>(
  'OrderExternalId',
  (u): u is string => text.is(u) && u !== '.' && u !== '..',
  (u, c) =>
    u === '.' || u === '..' ? t.failure(u, c, 'must not be . or .., which URLs cannot carry as a path segment') : text.validate(u, c),
  t.identity,
  () => ({ type: 'string', minLength: 1, maxLength: TEXT_MAX, not: { type: 'string', enum: ['.', '..'] } }),
);

export const MAX_PRODUCTS = 500;
export const MAX_QUANTITY = 1_000_000;

const omittedIsZero = (codec: typeof cents) => described(codec, 'Stored as 0 when omitted.');

const Amounts = strictObject(
  'CreateOrderAmounts',
  { currency, grossCents: cents, netToSellerCents: cents },
  {
    discountCents: omittedIsZero(cents),
    shippingCents: omittedIsZero(cents),
    taxesCents: omittedIsZero(cents),
    totalFeesCents: omittedIsZero(cents),
  },
);

export const Product = strictObject(
  'Product',
  { name: text, quantity: int(1, MAX_QUANTITY), unitPriceCents: cents },
  { externalId: text, sku: text },
);

export const Tracking = strictObject(
  'Tracking',
  { utmSource: text, utmMedium: text, utmCampaign: text },
  {
    utmContent: described(text, 'The ad or creative; reports read it here, else from `trackingExtras.utmContent`.'),
    utmTerm: described(text, 'The keyword; reports read it here, else from `trackingExtras.utmTerm`.'),
    utmId: text,
  },
);

const statusDate = (status: string) => described(isoInstant, `When omitted and \`status\` is \`${status}\`, \`createdAt\` is used.`);

/** The creation payload (specification, decision 0003). */
export const CreateOrderBody = strictObject(
  'CreateOrderRequest',
  {
    externalId: described(orderExternalId, "The caller's identifier of the order, unique within the dashboard; not `.` or `..`."),
    platform: text,
    paymentMethod: text,
    status: orderStatus,
    createdAt: isoInstant,
    isTest: bool,
    amounts: Amounts,
    products: arrayOf(Product, 1, MAX_PRODUCTS),
    tracking: Tracking,
  },
  {
    customer: freeFormObject,
    fees: freeFormObject,
    metadata: described(freeFormObject, 'Non-sensitive operational data.'),
    trackingExtras: freeFormObject,
    paidAt: statusDate('paid'),
    refundedAt: statusDate('refunded'),
    chargedbackAt: statusDate('chargedback'),
  },
  { description: 'The creation payload. Unknown fields, at any level of the known objects, are refused.' },
);

/** The free-form objects of an order. */
const FREE_FORM_FIELDS = ['customer', 'fees', 'metadata', 'trackingExtras'] as const;

/**
 * The most JSON values an order holds at its limits, which the check of a body's text counts before
 * anything is built (decision 0023): the order and one value per field (17), what amounts and tracking
 * hold besides (7 + 6), MAX_PRODUCTS products of an object and its 5 fields (3,000), and each
 * free-form object's FREE_FORM_LIMITS.keys keys (4 × 50): 3,230. A free-form object nested deeper
 * shares the same count.
 */
export const MAX_ORDER_VALUES =
  objectValues(CreateOrderBody) +
  objectValues(Amounts) -
  1 +
  objectValues(Tracking) -
  1 +
  MAX_PRODUCTS * objectValues(Product) +
  FREE_FORM_FIELDS.length * FREE_FORM_LIMITS.keys;

/** The PATCH body: any of these, at least one (decision 0006). */
export const UpdateOrderBody = strictObject(
  'UpdateOrderRequest',
  {},
  {
    status: orderStatus,
    paidAt: isoInstant,
    refundedAt: isoInstant,
    chargedbackAt: isoInstant,
    metadata: described(freeFormObject, 'Replaces the stored metadata as a whole.'),
  },
  {
    description: 'At least one of the fields; unknown fields are refused.',
    atLeastOne: 'must change at least one of status, paidAt, refundedAt, chargedbackAt, metadata',
  },
);

/** The query string of GET /api/v1/orders (specification, decision 0005). Unknown parameters are refused. */
export const ListOrdersQuery = strictObject(
  'ListOrdersQuery',
  {},
  {
    page: described(
      single(intParam(1, MAX_PAGE)),
      '1-based page number; 1 when neither `page` nor `after` is given. Not combined with `after`.',
    ),
    pageSize: pagingParams('Orders').pageSize,
    after: described(
      single(str(1, 512)),
      'The `nextCursor` of the previous answer: the page that follows it, under the same filters, at the cost of the first page whatever its depth; orders created meanwhile never shift it (decision 0019). Not combined with `page`.',
    ),
    status: described(single(orderStatus), 'Only orders with this status.'),
    from: described(single(queryInstant), `Only orders with \`createdAt\` at or after this instant. ${QUERY_INSTANT_NOTE}`),
    to: described(single(queryInstant), `Only orders with \`createdAt\` at or before this instant. ${QUERY_INSTANT_NOTE}`),
  },
);
export type ListOrdersQuery = t.TypeOf<typeof ListOrdersQuery>;
