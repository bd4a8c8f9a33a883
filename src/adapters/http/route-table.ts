import { adAccountRoutes } from './ads/ad-account-routes';
import { adminRoutes } from './access/admin-routes';
import { dashboardRoutes } from './access/dashboard-routes';
import { costRoutes } from './costs/cost-routes';
import { linkRoutes } from './links/link-routes';
import { opsRoutes } from './operations/ops-routes';
import { orderRoutes } from './orders/order-routes';
import { reportRoutes } from './reports/report-routes';
import { sourceRoutes } from './sources/source-routes';
import { spendRoutes } from './spend/spend-routes';
import type { Route } from './kit/route';
import { trackerRoutes } from './operations/tracker-routes';
import { webhookRoutes } from './webhooks/webhook-routes';

/** Every endpoint of the service: the router and the OpenAPI document are both made from this list. */
export const ROUTES: readonly Route[] = [
  ...orderRoutes,
  ...reportRoutes,
  ...spendRoutes,
  ...costRoutes,
  ...dashboardRoutes,
  ...webhookRoutes,
  ...linkRoutes,
  ...sourceRoutes,
  ...adAccountRoutes,
  ...adminRoutes,
  ...opsRoutes,
  ...trackerRoutes,
];
