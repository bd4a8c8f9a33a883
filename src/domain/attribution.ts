import type { JsonObject, Order } from './order';

/** The campaign fields an order is attributed by, in the order reports name them (decision 0016). */
export const UTM_DIMENSIONS = ['utmSource', 'utmMedium', 'utmCampaign', 'utmContent', 'utmTerm'] as const;
export type UtmDimension = (typeof UTM_DIMENSIONS)[number];

/** What a report can group by: the campaign fields, and where and how the order was paid. */
export const REPORT_DIMENSIONS = [...UTM_DIMENSIONS, 'platform', 'paymentMethod'] as const;
export type ReportDimension = (typeof REPORT_DIMENSIONS)[number];

export const ATTRIBUTION_MODELS = ['last', 'first'] as const;
export type AttributionModel = (typeof ATTRIBUTION_MODELS)[number];

/** A campaign field that is missing, or not a string. */
export const NOT_SET = '(not set)';

export type Touch = Readonly<Record<UtmDimension, string>>;

/** Both touches of an order, each field resolved: what the stores keep beside the order for reports. */
export interface Attribution {
  readonly last: Touch;
  readonly first: Touch;
}

const stringAt = (object: JsonObject | undefined, key: string): string | undefined => {
  const value = object?.[key];
  return typeof value === 'string' ? value : undefined;
};

const objectAt = (object: JsonObject | undefined, key: string): JsonObject | undefined => {
  const value = object?.[key];
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;
};

/**
 * Last touch: `tracking`, its `utmContent` and `utmTerm` else those of `trackingExtras` (where the
 * tracking script puts them). First touch: `trackingExtras.firstTouch`, each field a string or
 * `(not set)`; the last touch when the order has no first touch at all.
 */
export const attributionOf = (order: Pick<Order, 'tracking' | 'trackingExtras'>): Attribution => {
  const extras = order.trackingExtras;
  const last: Touch = {
    utmSource: order.tracking.utmSource,
    utmMedium: order.tracking.utmMedium,
    utmCampaign: order.tracking.utmCampaign,
    utmContent: order.tracking.utmContent ?? stringAt(extras, 'utmContent') ?? NOT_SET,
    utmTerm: order.tracking.utmTerm ?? stringAt(extras, 'utmTerm') ?? NOT_SET,
  };
  const firstTouch = objectAt(extras, 'firstTouch');
  const first: Touch =
    firstTouch === undefined
      ? last
      : {
          utmSource: stringAt(firstTouch, 'utmSource') ?? NOT_SET,
          utmMedium: stringAt(firstTouch, 'utmMedium') ?? NOT_SET,
          utmCampaign: stringAt(firstTouch, 'utmCampaign') ?? NOT_SET,
          utmContent: stringAt(firstTouch, 'utmContent') ?? NOT_SET,
          utmTerm: stringAt(firstTouch, 'utmTerm') ?? NOT_SET,
        };
  return { last, first };
};
