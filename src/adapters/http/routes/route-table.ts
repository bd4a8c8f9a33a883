import { adminRoutes } from './admin-routes';
import { linkRoutes } from './link-routes';
import { opsRoutes } from './ops-routes';
import { orderRoutes } from './order-routes';
import type { Route } from './route';
import { trackerRoutes } from './tracker-routes';
import { webhookRoutes } from './webhook-routes';

/** Every endpoint of the service: the router and the OpenAPI document are both made from this list. */
export const ROUTES: readonly Route[] = [...orderRoutes, ...webhookRoutes, ...linkRoutes, ...adminRoutes, ...opsRoutes, ...trackerRoutes];
