import type { AuthenticateToken } from './authenticate-token';
import type { BuildLinkUrl } from './build-link-url';
import type { CheckRateLimit } from './check-rate-limit';
import type { CreateDashboard } from './create-dashboard';
import type { CreateLink } from './create-link';
import type { CreateOrder } from './create-order';
import type { CreateToken } from './create-token';
import type { CreateWebhook } from './create-webhook';
import type { DeleteWebhook } from './delete-webhook';
import type { DeliverWebhooks } from './deliver-webhooks';
import type { DeleteLink } from './delete-link';
import type { FollowShortLink } from './follow-short-link';
import type { GetLink } from './get-link';
import type { GetOrder } from './get-order';
import type { GetWebhook } from './get-webhook';
import type { IdempotencyGate } from './idempotency-gate';
import type { ListDashboards } from './list-dashboards';
import type { ListDeliveries } from './list-deliveries';
import type { ListLinks } from './list-links';
import type { ListOrders } from './list-orders';
import type { ListTokens } from './list-tokens';
import type { ListWebhooks } from './list-webhooks';
import type { RelayOrderEvents } from './relay-order-events';
import type { RetryDelivery } from './retry-delivery';
import type { RevokeToken } from './revoke-token';
import type { RotateWebhookSecret } from './rotate-webhook-secret';
import type { SendTestWebhook } from './send-test-webhook';
import type { UpdateOrder } from './update-order';
import type { UpdateWebhook } from './update-webhook';

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
