/** The five order states of the specification. Their order here carries no meaning. */
export const ORDER_STATUSES = ['pending', 'paid', 'refused', 'refunded', 'chargedback'] as const;

export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const isOrderStatus = (value: unknown): value is OrderStatus =>
  typeof value === 'string' && (ORDER_STATUSES as readonly string[]).includes(value);

/**
 * The statuses that carry a date of their own. A stored order in one of these statuses always has
 * that date (decision 0004).
 */
export const STATUS_DATE_FIELD = {
  paid: 'paidAt',
  refunded: 'refundedAt',
  chargedback: 'chargedbackAt',
} as const satisfies Partial<Record<OrderStatus, string>>;

export type StatusDateField = (typeof STATUS_DATE_FIELD)[keyof typeof STATUS_DATE_FIELD];

export const dateFieldOf = (status: OrderStatus): StatusDateField | undefined =>
  (STATUS_DATE_FIELD as Partial<Record<OrderStatus, StatusDateField>>)[status];
