import type { AuthenticateToken } from './access/authenticate-token';
import type { BuildLinkUrl } from './links/build-link-url';
import type { CheckRateLimit } from './guards/check-rate-limit';
import type { CreateDashboard } from './access/create-dashboard';
import type { CreateLink } from './links/create-link';
import type { CreateOrder } from './orders/create-order';
import type { CreateToken } from './access/create-token';
import type { CreateWebhook } from './webhooks/create-webhook';
import type { DeleteWebhook } from './webhooks/delete-webhook';
import type { DeliverWebhooks } from './webhooks/deliver-webhooks';
import type { DeleteLink } from './links/delete-link';
import type { FollowShortLink } from './links/follow-short-link';
import type { GetLink } from './links/get-link';
import type { GetOrder } from './orders/get-order';
import type { GetWebhook } from './webhooks/get-webhook';
import type { IdempotencyGate } from './guards/idempotency-gate';
import type { ListDashboards } from './access/list-dashboards';
import type { ListDeliveries } from './webhooks/list-deliveries';
import type { ListLinks } from './links/list-links';
import type { ListOrders } from './orders/list-orders';
import type { ListTokens } from './access/list-tokens';
import type { ListWebhooks } from './webhooks/list-webhooks';
import type { RelayOrderEvents } from './webhooks/relay-order-events';
import type { RetryDelivery } from './webhooks/retry-delivery';
import type { RevokeToken } from './access/revoke-token';
import type { RotateWebhookSecret } from './webhooks/rotate-webhook-secret';
import type { SendTestWebhook } from './webhooks/send-test-webhook';
import type { UpdateOrder } from './orders/update-order';
import type { UpdateWebhook } from './webhooks/update-webhook';

/**
 * Every use case of the service, resolved once by bootstrap and handed to the driving adapters (the
 * HTTP app, the CLI, the webhook workers), which never reach into the container themselves.
 */
export interface UseCases {
  readonly authenticateToken: AuthenticateToken;
  readonly checkRateLimit: CheckRateLimit;
  readonly idempotencyGate: IdempotencyGate;
  readonly createOrder: CreateOrder;
  readonly listOrders: ListOrders;
  readonly getOrder: GetOrder;
  readonly updateOrder: UpdateOrder;
  readonly createDashboard: CreateDashboard;
  readonly listDashboards: ListDashboards;
  readonly createToken: CreateToken;
  readonly listTokens: ListTokens;
  readonly revokeToken: RevokeToken;
  readonly createWebhook: CreateWebhook;
  readonly listWebhooks: ListWebhooks;
  readonly getWebhook: GetWebhook;
  readonly updateWebhook: UpdateWebhook;
  readonly deleteWebhook: DeleteWebhook;
  readonly rotateWebhookSecret: RotateWebhookSecret;
  readonly sendTestWebhook: SendTestWebhook;
  readonly listDeliveries: ListDeliveries;
  readonly retryDelivery: RetryDelivery;
  readonly relayOrderEvents: RelayOrderEvents;
  readonly deliverWebhooks: DeliverWebhooks;
  readonly buildLinkUrl: BuildLinkUrl;
  readonly createLink: CreateLink;
  readonly listLinks: ListLinks;
  readonly getLink: GetLink;
  readonly deleteLink: DeleteLink;
  readonly followShortLink: FollowShortLink;
}
