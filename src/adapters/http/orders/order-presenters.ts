import type * as t from 'io-ts';
import type { OrderSummary } from '../../../application/ports/order-repository';
import type { ApiToken, Dashboard } from '../../../domain/dashboard';
import type { Link } from '../../../domain/link';
import type { Order } from '../../../domain/order';
import type { DashboardResponse, IssuedTokenResponse, RevokedTokenResponse, TokenList } from '../access/admin-codecs';
import type { LinkView } from '../links/link-views';
import type { CreateOrderResponse, OrderDetail, OrderListItem } from './order-views';

/** Domain objects as the API shows them; each is typed by the codec that documents it. */

/** Takes a summary, what a listing reads; a full order is one too (the GET of one order, webhooks). */
export const orderListItem = (order: OrderSummary): t.TypeOf<typeof OrderListItem> => ({
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

export const orderDetail = (order: Order): t.TypeOf<typeof OrderDetail> => ({
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

export const createdOrder = (order: Order): t.TypeOf<typeof CreateOrderResponse>['order'] => ({
  id: order.id,
  externalId: order.externalId,
  status: order.status,
  isTest: order.isTest,
});

export const dashboardView = (dashboard: Dashboard): t.TypeOf<typeof DashboardResponse>['dashboard'] => ({
  id: dashboard.id,
  name: dashboard.name,
  createdAt: dashboard.createdAt.toISOString(),
});

/** A token as listed: never its hash, and the plain value no longer exists. */
export const tokenView = (token: ApiToken): t.TypeOf<typeof TokenList>['tokens'][number] => ({
  id: token.id,
  name: token.name ?? null,
  createdAt: token.createdAt.toISOString(),
  revokedAt: token.revokedAt?.toISOString() ?? null,
});

/** The one answer that shows a token's value: right after it was made. */
export const issuedTokenView = (token: ApiToken, plain: string): t.TypeOf<typeof IssuedTokenResponse>['token'] => ({
  id: token.id,
  dashboardId: token.dashboardId,
  name: token.name ?? null,
  token: plain,
  createdAt: token.createdAt.toISOString(),
});

export const revokedTokenView = (token: ApiToken & { revokedAt: Date }): t.TypeOf<typeof RevokedTokenResponse>['token'] => ({
  id: token.id,
  revokedAt: token.revokedAt.toISOString(),
});

/** A link as the API shows it, with its short link under `publicBaseUrl`; its params as an object, in their order. */
export const linkView = (link: Link, publicBaseUrl: string): t.TypeOf<typeof LinkView> => ({
  id: link.id,
  ...(link.name === undefined ? {} : { name: link.name }),
  destinationUrl: link.destinationUrl,
  utmSource: link.utmSource,
  utmMedium: link.utmMedium,
  utmCampaign: link.utmCampaign,
  ...(link.utmTerm === undefined ? {} : { utmTerm: link.utmTerm }),
  ...(link.utmContent === undefined ? {} : { utmContent: link.utmContent }),
  ...(link.utmId === undefined ? {} : { utmId: link.utmId }),
  params: Object.fromEntries(link.params.map(({ key, value }) => [key, value])),
  url: link.url,
  shortUrl: `${publicBaseUrl}/l/${link.slug}`,
  clicks: link.clicks,
  createdAt: link.createdAt.toISOString(),
});
