import type { ProductMetricName } from '../../../domain/product-report';
import type { AttributionModel, ReportDimension } from '../../../domain/attribution';
import type { Role } from '../../../domain/account';
import type { OrderStatus } from '../../../domain/order-status';
import type { MetricName, Metrics } from '../../../domain/report';
import type { Scope } from '../../../domain/scope';
import type { WebhookEventType } from '../../../domain/webhook';
import { count, money, percent, ratio } from './format';

/**
 * The console's words for the API's names (decision 0022): a person reads "Paid revenue", not
 * `paidGrossCents`. Each table is a record over the API's names, so a new metric, dimension or
 * status does not compile until it has its words. CSV exports keep the API's names.
 */

/** How a metric's value reads: a count, money of the row's currency, a share, or a multiple. */
type MetricKind = 'count' | 'money' | 'rate' | 'multiple';

/**
 * A metric's words and how it reads; `profit` marks what is left after product costs (contribution,
 * profit, margin, ROI): a loss below zero, and incomplete while some units sold have no cost.
 */
export const METRIC_WORDS: Readonly<Record<MetricName, { readonly label: string; readonly kind: MetricKind; readonly profit?: true }>> = {
  orders: { label: 'Orders', kind: 'count' },
  pending: { label: 'Pending orders', kind: 'count' },
  paid: { label: 'Paid orders', kind: 'count' },
  refused: { label: 'Refused orders', kind: 'count' },
  refunded: { label: 'Refunded orders', kind: 'count' },
  chargedback: { label: 'Charged-back orders', kind: 'count' },
  grossCents: { label: 'Gross sales', kind: 'money' },
  paidGrossCents: { label: 'Paid revenue', kind: 'money' },
  paidNetCents: { label: 'Net revenue', kind: 'money' },
  refundedCents: { label: 'Refunds', kind: 'money' },
  chargedbackCents: { label: 'Chargebacks', kind: 'money' },
  approvalRate: { label: 'Approval rate', kind: 'rate' },
  averageOrderCents: { label: 'Average order', kind: 'money' },
  spendCents: { label: 'Ad spend', kind: 'money' },
  roas: { label: 'ROAS', kind: 'multiple' },
  cpaCents: { label: 'CPA', kind: 'money' },
  productCostCents: { label: 'Product costs', kind: 'money' },
  uncostedUnits: { label: 'Units without a cost', kind: 'count' },
  taxCents: { label: 'Taxes', kind: 'money' },
  contributionCents: { label: 'Contribution', kind: 'money', profit: true },
  profitCents: { label: 'Profit', kind: 'money', profit: true },
  marginRate: { label: 'Margin', kind: 'rate', profit: true },
  roi: { label: 'ROI', kind: 'multiple', profit: true },
};

/** A metric's value as a person reads it: `R$1,234.50`, `93.4%`, `3.96x`, `1,300`; `—` where there is none. */
export const metricText = (name: MetricName, metrics: Metrics, currency: string): string => {
  const value = metrics[name];
  switch (METRIC_WORDS[name].kind) {
    case 'money':
      return money(value, currency);
    case 'rate':
      return percent(value);
    case 'multiple':
      return ratio(value);
    case 'count':
      return value === null ? '—' : count(value);
  }
};

export const DIMENSION_WORDS: Readonly<Record<ReportDimension, string>> = {
  utmSource: 'Source',
  utmMedium: 'Medium',
  utmCampaign: 'Campaign',
  utmContent: 'Ad content',
  utmTerm: 'Keyword',
  platform: 'Platform',
  paymentMethod: 'Payment method',
};

export const MODEL_WORDS: Readonly<Record<AttributionModel, string>> = {
  last: 'Last touch',
  first: 'First touch',
};

/** The test-order filter's choices, as the query names them (the API's `isTest`). */
export const TEST_ORDER_WORDS: Readonly<Record<'false' | 'true' | 'all', string>> = {
  false: 'Leave out test orders',
  true: 'Only test orders',
  all: 'Include test orders',
};

export const STATUS_WORDS: Readonly<Record<OrderStatus, string>> = {
  pending: 'Pending',
  paid: 'Paid',
  refused: 'Refused',
  refunded: 'Refunded',
  chargedback: 'Charged back',
};

export const ROLE_WORDS: Readonly<Record<Role, string>> = {
  owner: 'Owner',
  analyst: 'Analyst',
};

/** What a token with each scope may do; the page shows the scope's name beside it, for the API's documents. */
export const SCOPE_WORDS: Readonly<Record<Scope, string>> = {
  'orders:read': 'Read orders',
  'orders:write': 'Send orders (a checkout needs only this)',
  'reports:read': 'Read reports',
  'spend:read': 'Read ad spend',
  'spend:write': 'Send ad spend',
  'links:read': 'Read links',
  'links:write': 'Make links',
  'webhooks:read': 'Read webhook endpoints',
  'webhooks:write': 'Manage webhook endpoints',
  'sources:read': 'Read sources',
  'sources:write': 'Manage sources',
  'ads:read': 'Read ad accounts',
  'ads:write': 'Connect and sync ad accounts',
};

export const EVENT_WORDS: Readonly<Record<WebhookEventType, string>> = {
  'order.created': 'An order is created',
  'order.updated': 'An order is changed',
  'order.paid': 'An order is paid',
  'order.refused': 'An order is refused',
  'order.refunded': 'An order is refunded',
  'order.chargedback': 'An order is charged back',
  'webhook.test': 'A test event',
};

/** The products report's columns (decisions 0020, 0022), in words; `profit` as for METRIC_WORDS. */
export const PRODUCT_METRIC_WORDS: Readonly<
  Record<ProductMetricName, { readonly label: string; readonly kind: 'count' | 'money'; readonly profit?: true }>
> = {
  orders: { label: 'Orders', kind: 'count' },
  units: { label: 'Units', kind: 'count' },
  paidUnits: { label: 'Paid units', kind: 'count' },
  paidRevenueCents: { label: 'Paid revenue', kind: 'money' },
  productCostCents: { label: 'Product costs', kind: 'money' },
  grossMarginCents: { label: 'Gross margin', kind: 'money', profit: true },
  uncostedUnits: { label: 'Units without a cost', kind: 'count' },
};
