import type { ApiToken, Dashboard } from '../../domain/dashboard';
import type { Order } from '../../domain/order';

/** The list item of the specification, plus the dates of refund and chargeback when an order has them. */
export const orderListItem = (order: Order) => ({
  id: order.id,
  externalId: order.externalId,
  status: order.status,
  isTest: order.isTest,
  platform: order.platform,
  paymentMethod: order.paymentMethod,
  createdAt: order.createdAt.toISOString(),
  ...(order.paidAt ? { paidAt: order.paidAt.toISOString() } : {}),
  ...(order.refundedAt ? { refundedAt: order.refundedAt.toISOString() } : {}),
  ...(order.chargedbackAt ? { chargedbackAt: order.chargedbackAt.toISOString() } : {}),
  amounts: {
    currency: order.amounts.currency,
    grossCents: order.amounts.grossCents,
    netToSellerCents: order.amounts.netToSellerCents,
  },
  tracking: {
    utmSource: order.tracking.utmSource,
    utmMedium: order.tracking.utmMedium,
    utmCampaign: order.tracking.utmCampaign,
  },
});

/** An order read on its own: the list item, and everything else that was stored. */
export const orderDetail = (order: Order) => ({
  ...orderListItem(order),
  updatedAt: order.updatedAt.toISOString(),
  version: order.version,
  amounts: { ...order.amounts },
  products: order.products.map((product) => ({ ...product })),
  ...(order.customer ? { customer: order.customer } : {}),
  ...(order.fees ? { fees: order.fees } : {}),
  ...(order.metadata ? { metadata: order.metadata } : {}),
  ...(order.trackingExtras ? { trackingExtras: order.trackingExtras } : {}),
});

/** The creation response of the specification. */
export const createdOrder = (order: Order) => ({
  id: order.id,
  externalId: order.externalId,
  status: order.status,
  isTest: order.isTest,
});

export const dashboardView = (dashboard: Dashboard) => ({
  id: dashboard.id,
  name: dashboard.name,
  createdAt: dashboard.createdAt.toISOString(),
});

/** A token as listed: never its hash, and the plain value no longer exists. */
export const tokenView = (token: ApiToken) => ({
  id: token.id,
  name: token.name ?? null,
  createdAt: token.createdAt.toISOString(),
  revokedAt: token.revokedAt?.toISOString() ?? null,
});
