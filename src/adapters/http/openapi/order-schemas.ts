import { MAX_CENTS } from '../../../domain/money';
import { ORDER_STATUSES } from '../../../domain/order-status';
import { FREE_FORM_LIMITS } from '../codecs/free-form';
import { MAX_PAGE, MAX_PAGE_SIZE } from '../codecs/list-query';
import { schemaRef } from './refs';
import type { JsonSchema } from './types';

/**
 * The order schemas, written to accept exactly what the io-ts codecs in `codecs/order-codecs.ts`
 * accept (a test feeds the same payloads to both). Limits come from the constants the codecs use.
 */

/** What `isoInstant` accepts; `format` adds the calendar check (no 2026-02-30). */
export const REQUEST_DATE_TIME_PATTERN =
  '^\\d{4}-\\d{2}-\\d{2}T([01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(\\.\\d{1,9})?(Z|[+-]([01]\\d|2[0-3]):[0-5]\\d)$';

const text: JsonSchema = { type: 'string', minLength: 1, maxLength: 255 };

const strictObject = (
  required: Record<string, JsonSchema>,
  optional: Record<string, JsonSchema> = {},
  description?: string,
): JsonSchema => ({
  type: 'object',
  ...(description === undefined ? {} : { description }),
  properties: { ...required, ...optional },
  required: Object.keys(required),
  additionalProperties: false,
});

/** The list item of the specification (the order as listed). */
const orderItemFields: Record<string, JsonSchema> = {
  id: { type: 'string', description: 'Made by the service; opaque.' },
  externalId: text,
  status: schemaRef('OrderStatus'),
  isTest: { type: 'boolean' },
  platform: text,
  paymentMethod: text,
  createdAt: schemaRef('UtcDateTime'),
  amounts: schemaRef('OrderAmounts'),
  tracking: schemaRef('Tracking'),
};

const statusDates: Record<string, JsonSchema> = {
  paidAt: { ...schemaRef('UtcDateTime'), description: 'Present when the order has one; always for a paid order.' },
  refundedAt: { ...schemaRef('UtcDateTime'), description: 'Present when the order has one; always for a refunded order.' },
  chargedbackAt: { ...schemaRef('UtcDateTime'), description: 'Present when the order has one; always for a charged-back order.' },
};

/** Keys a free-form object may hold (codecs/free-form.ts `SAFE_KEY`). */
const freeFormKey: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 1000,
  pattern: '^(?!\\$)(?!__proto__$)[^.\\u0000]*$',
};

/**
 * JSON Schema cannot count depth, so the nesting limit is spelled out level by level: a value at
 * level `depth` may be a container only while `depth` is within the limit.
 */
const freeFormLevels = (): Record<string, JsonSchema> => {
  const levels: Record<string, JsonSchema> = {};
  const scalar = { maxLength: FREE_FORM_LIMITS.stringLength } as const;
  for (let depth = 2; depth <= FREE_FORM_LIMITS.depth + 1; depth++) {
    const next = { $ref: `#/components/schemas/FreeFormObject/$defs/depth${depth + 1}` };
    levels[`depth${depth}`] =
      depth > FREE_FORM_LIMITS.depth
        ? { type: ['string', 'number', 'boolean', 'null'], ...scalar }
        : {
            type: ['string', 'number', 'boolean', 'null', 'object', 'array'],
            ...scalar,
            maxProperties: FREE_FORM_LIMITS.keys,
            propertyNames: freeFormKey,
            additionalProperties: next,
            maxItems: FREE_FORM_LIMITS.items,
            items: next,
          };
  }
  return levels;
};

export const orderSchemas: Record<string, JsonSchema> = {
  OrderStatus: {
    type: 'string',
    enum: ORDER_STATUSES,
    description:
      'The order states of the specification. Which changes between them are allowed is decided by the ' +
      "operator's transition table; the service ships none (see PATCH /api/v1/orders/{externalId}).",
  },
  Cents: { type: 'integer', minimum: 0, maximum: MAX_CENTS, description: 'An amount of money as an integer count of cents.' },
  CurrencyCode: { type: 'string', pattern: '^[A-Z]{3}$', description: 'A three-letter uppercase code (the shape of ISO 4217).', examples: ['BRL'] },
  DateTimeWithTimezone: {
    type: 'string',
    format: 'date-time',
    pattern: REQUEST_DATE_TIME_PATTERN,
    description:
      'An ISO 8601 date-time with a timezone (`Z` or `±hh:mm`) naming a real calendar date, with at most ' +
      '9 fraction digits. A date-time without a timezone is refused.',
    examples: ['2026-01-02T03:04:05Z', '2026-01-02T00:04:05-03:00'],
  },
  UtcDateTime: {
    type: 'string',
    format: 'date-time',
    pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$',
    description: 'An instant in UTC with milliseconds.',
    examples: ['2026-01-02T03:04:05.000Z'],
  },
  FreeFormObject: {
    type: 'object',
    description:
      `Any JSON object, not an array and not null, within limits: at most ${FREE_FORM_LIMITS.depth} levels of ` +
      `objects and arrays (this object is level 1), at most ${FREE_FORM_LIMITS.keys} keys per object and ` +
      `${FREE_FORM_LIMITS.items} items per array, strings of at most ${FREE_FORM_LIMITS.stringLength} characters, ` +
      'keys that are not empty, do not start with `$` and hold neither `.` nor NUL.',
    maxProperties: FREE_FORM_LIMITS.keys,
    propertyNames: freeFormKey,
    additionalProperties: { $ref: '#/components/schemas/FreeFormObject/$defs/depth2' },
    $defs: freeFormLevels(),
  },
  CreateOrderAmounts: strictObject(
    { currency: schemaRef('CurrencyCode'), grossCents: schemaRef('Cents'), netToSellerCents: schemaRef('Cents') },
    {
      discountCents: { ...schemaRef('Cents'), description: 'Stored as 0 when omitted.' },
      shippingCents: { ...schemaRef('Cents'), description: 'Stored as 0 when omitted.' },
      taxesCents: { ...schemaRef('Cents'), description: 'Stored as 0 when omitted.' },
      totalFeesCents: { ...schemaRef('Cents'), description: 'Stored as 0 when omitted.' },
    },
  ),
  Product: strictObject(
    { name: text, quantity: { type: 'integer', minimum: 1, maximum: 1_000_000 }, unitPriceCents: schemaRef('Cents') },
    { externalId: text, sku: text },
  ),
  Tracking: strictObject({ utmSource: text, utmMedium: text, utmCampaign: text }),
  CreateOrderRequest: strictObject(
    {
      externalId: { ...text, description: "The caller's identifier of the order, unique within the dashboard." },
      platform: text,
      paymentMethod: text,
      status: schemaRef('OrderStatus'),
      createdAt: schemaRef('DateTimeWithTimezone'),
      isTest: { type: 'boolean' },
      amounts: schemaRef('CreateOrderAmounts'),
      products: { type: 'array', items: schemaRef('Product'), minItems: 1, maxItems: 500 },
      tracking: schemaRef('Tracking'),
    },
    {
      customer: schemaRef('FreeFormObject'),
      fees: schemaRef('FreeFormObject'),
      metadata: { ...schemaRef('FreeFormObject'), description: 'Non-sensitive operational data.' },
      trackingExtras: schemaRef('FreeFormObject'),
      paidAt: { ...schemaRef('DateTimeWithTimezone'), description: 'When omitted and `status` is `paid`, `createdAt` is used.' },
      refundedAt: { ...schemaRef('DateTimeWithTimezone'), description: 'When omitted and `status` is `refunded`, `createdAt` is used.' },
      chargedbackAt: {
        ...schemaRef('DateTimeWithTimezone'),
        description: 'When omitted and `status` is `chargedback`, `createdAt` is used.',
      },
    },
    'The creation payload. Unknown fields, at any level of the known objects, are refused.',
  ),
  UpdateOrderRequest: {
    ...strictObject(
      {},
      {
        status: schemaRef('OrderStatus'),
        paidAt: schemaRef('DateTimeWithTimezone'),
        refundedAt: schemaRef('DateTimeWithTimezone'),
        chargedbackAt: schemaRef('DateTimeWithTimezone'),
        metadata: { ...schemaRef('FreeFormObject'), description: 'Replaces the stored metadata as a whole.' },
      },
      'At least one of the fields; unknown fields are refused.',
    ),
    minProperties: 1,
  },
  CreatedOrder: strictObject({ id: { type: 'string', description: 'Made by the service; opaque.' }, externalId: text, status: schemaRef('OrderStatus'), isTest: { type: 'boolean' } }),
  CreateOrderResponse: strictObject({ order: schemaRef('CreatedOrder') }),
  OrderAmounts: strictObject({ currency: schemaRef('CurrencyCode'), grossCents: schemaRef('Cents'), netToSellerCents: schemaRef('Cents') }),
  Order: strictObject(orderItemFields, statusDates, 'An order as listed, and as a PATCH answers it.'),
  OrderResponse: strictObject({ order: schemaRef('Order') }),
  StoredAmounts: strictObject({
    currency: schemaRef('CurrencyCode'),
    grossCents: schemaRef('Cents'),
    netToSellerCents: schemaRef('Cents'),
    discountCents: schemaRef('Cents'),
    shippingCents: schemaRef('Cents'),
    taxesCents: schemaRef('Cents'),
    totalFeesCents: schemaRef('Cents'),
  }),
  OrderDetail: strictObject(
    {
      ...orderItemFields,
      updatedAt: { ...schemaRef('UtcDateTime'), description: 'When the service last stored a change of the order.' },
      version: {
        type: 'integer',
        minimum: 1,
        description:
          'Starts at 1 and grows by one with every change the service stores; a PATCH that changes nothing keeps it. ' +
          'Webhook events carry the order with its version, so a receiver can drop stale ones.',
      },
      amounts: { ...schemaRef('StoredAmounts'), description: 'Every amount, the omitted ones as 0.' },
      products: { type: 'array', items: schemaRef('Product'), minItems: 1, maxItems: 500 },
    },
    {
      ...statusDates,
      customer: schemaRef('FreeFormObject'),
      fees: schemaRef('FreeFormObject'),
      metadata: schemaRef('FreeFormObject'),
      trackingExtras: schemaRef('FreeFormObject'),
    },
    'An order as read on its own: everything that was stored, the optional objects when they were sent.',
  ),
  OrderDetailResponse: strictObject({ order: schemaRef('OrderDetail') }),
  OrderList: strictObject({
    orders: { type: 'array', items: schemaRef('Order'), maxItems: MAX_PAGE_SIZE, description: 'Newest first: `createdAt` descending, then `id` descending.' },
    page: { type: 'integer', minimum: 1, maximum: MAX_PAGE },
    pageSize: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE },
    total: { type: 'integer', minimum: 0, description: "Every order of the dashboard matching the filters, on all pages." },
  }),
};
