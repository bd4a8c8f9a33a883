import { container as root, type DependencyContainer } from 'tsyringe';
import { AuthenticateToken } from '../application/access/authenticate-token';
import { BuildLinkUrl } from '../application/links/build-link-url';
import { CheckRateLimit, RATE_LIMIT_SETTINGS, type RateLimitSettings } from '../application/guards/check-rate-limit';
import { CreateDashboard } from '../application/access/create-dashboard';
import { CreateLink } from '../application/links/create-link';
import { CreateOrder } from '../application/orders/create-order';
import { CreateToken } from '../application/access/create-token';
import { DeleteLink } from '../application/links/delete-link';
import { FollowShortLink } from '../application/links/follow-short-link';
import { GetLink } from '../application/links/get-link';
import { GetOrder } from '../application/orders/get-order';
import { IDEMPOTENCY_SETTINGS, IdempotencyGate, type IdempotencySettings } from '../application/guards/idempotency-gate';
import { ListDashboards } from '../application/access/list-dashboards';
import { ListLinks } from '../application/links/list-links';
import { ListOrders } from '../application/orders/list-orders';
import { ListTokens } from '../application/access/list-tokens';
import { RevokeToken } from '../application/access/revoke-token';
import { UpdateOrder } from '../application/orders/update-order';
import { CreateWebhook } from '../application/webhooks/create-webhook';
import { DeleteWebhook } from '../application/webhooks/delete-webhook';
import { DeliverWebhooks, WEBHOOK_SETTINGS } from '../application/webhooks/deliver-webhooks';
import { GetWebhook } from '../application/webhooks/get-webhook';
import { ListDeliveries } from '../application/webhooks/list-deliveries';
import { ListWebhooks } from '../application/webhooks/list-webhooks';
import { RelayOrderEvents } from '../application/webhooks/relay-order-events';
import { RetryDelivery } from '../application/webhooks/retry-delivery';
import { RotateWebhookSecret } from '../application/webhooks/rotate-webhook-secret';
import { SendTestWebhook } from '../application/webhooks/send-test-webhook';
import { UpdateWebhook } from '../application/webhooks/update-webhook';
import type { UseCases } from '../application/use-cases';
import { CLOCK, type Clock } from '../application/ports/clock';
import { DASHBOARD_REPOSITORY } from '../application/ports/dashboard-repository';
import { ID_GENERATOR, type IdGenerator } from '../application/ports/id-generator';
import { IDEMPOTENCY_STORE } from '../application/ports/idempotency-store';
import { LINK_REPOSITORY } from '../application/ports/link-repository';
import { LOGGER, type Logger } from '../application/ports/logger';
import { ORDER_REPOSITORY } from '../application/ports/order-repository';
import { RATE_LIMIT_COUNTER } from '../application/ports/rate-limit-counter';
import { SLUG_GENERATOR, type SlugGenerator } from '../application/ports/slug-generator';
import { STORAGE_HEALTH } from '../application/ports/storage-health';
import { TOKEN_REPOSITORY } from '../application/ports/token-repository';
import { TOKEN_SECRETS } from '../application/ports/token-secrets';
import { DELIVERIES } from '../application/ports/delivery-repository';
import { WEBHOOK_ENDPOINTS } from '../application/ports/webhook-endpoint-repository';
import { WEBHOOK_NUDGE, type WebhookNudge } from '../application/ports/webhook-nudge';
import { WEBHOOK_OUTBOX } from '../application/ports/webhook-outbox';
import { WEBHOOK_PAYLOADS } from '../application/ports/webhook-payloads';
import { WEBHOOK_SECRETS } from '../application/ports/webhook-secrets';
import { WEBHOOK_SENDER } from '../application/ports/webhook-sender';
import { WEBHOOK_URL_POLICY } from '../application/ports/webhook-url-policy';
import { ApiWebhookPayloads } from '../adapters/http/webhooks/webhook-payloads';
import { RandomWebhookSecrets } from '../adapters/system/random-webhook-secrets';
import { HttpWebhookSender } from '../adapters/webhooks/http-webhook-sender';
import { SYSTEM_RESOLVER, type Resolver } from '../adapters/webhooks/outbound-addresses';
import { OutboundUrlPolicy } from '../adapters/webhooks/outbound-url-policy';
import { DEFAULT_RETRY_SCHEDULE } from './config';
import { TRANSITION_POLICY } from '../domain/transition-policy';
import { RandomIdGenerator } from '../adapters/system/random-id-generator';
import { RandomSlugGenerator } from '../adapters/system/random-slug-generator';
import { Sha256TokenSecrets } from '../adapters/system/sha256-token-secrets';
import { SystemClock } from '../adapters/system/system-clock';
import { TableTransitionPolicy, type TransitionTable } from '../adapters/transitions/table-transition-policy';
import type { Storage } from '../application/ports/storage';

export interface Wiring {
  readonly storage: Storage;
  readonly logger: Logger;
  readonly transitions: TransitionTable;
  readonly rateLimit: RateLimitSettings;
  readonly idempotency: IdempotencySettings;
  /** The outbound side of webhooks; by default the configuration's defaults, with no nudge. */
  readonly webhooks?: WebhookWiring;
  /** Tests move time and fix ids and slugs; production uses the system's. */
  readonly clock?: Clock;
  readonly ids?: IdGenerator;
  readonly slugs?: SlugGenerator;
}

export interface WebhookWiring {
  readonly timeoutMs: number;
  readonly retrySchedule: readonly number[];
  readonly allowPrivateUrls: boolean;
  /** Resolves host names, for the outbound checks and the connections; the system's by default (tests give their own). */
  readonly resolver?: Resolver;
  /** Wakes the webhook workers after a write; none when the process runs no worker (the CLI). */
  readonly nudge?: WebhookNudge;
}

const DEFAULT_WEBHOOKS: WebhookWiring = { timeoutMs: 15_000, retrySchedule: DEFAULT_RETRY_SCHEDULE, allowPrivateUrls: false };

/**
 * How long a claim on a delivery holds: twice the attempt's timeout and 10 s more, room for the
 * writes around the request, so that a lease ends only when its claimant died (40 s by default). A
 * delivery claimed by a process that was killed is taken again once this has passed.
 */
const leaseMsFor = (timeoutMs: number): number => 2 * timeoutMs + 10_000;

const NO_NUDGE: WebhookNudge = { outboxChanged: () => undefined, deliveriesDue: () => undefined };

/** What the driving adapters (HTTP app, CLI) are handed: the use cases and the few ports they use directly. */
export interface Composition {
  readonly useCases: UseCases;
  readonly ids: IdGenerator;
  /** Keeps connections to receivers open for reuse; closed once the workers have stopped. */
  readonly webhookSender: HttpWebhookSender;
}

/**
 * The only place that registers implementations against ports and resolves from the container. Each
 * call makes a child container, so several services (or tests) in one process never share state; the
 * container does not leave this file.
 */
export const compose = (wiring: Wiring): Composition => {
  const c = root.createChildContainer();
  const ids = wiring.ids ?? new RandomIdGenerator();
  c.registerInstance(LOGGER, wiring.logger);
  c.registerInstance(CLOCK, wiring.clock ?? new SystemClock());
  c.registerInstance(ID_GENERATOR, ids);
  c.registerInstance(SLUG_GENERATOR, wiring.slugs ?? new RandomSlugGenerator());
  c.registerInstance(TOKEN_SECRETS, new Sha256TokenSecrets());
  c.registerInstance(TRANSITION_POLICY, new TableTransitionPolicy(wiring.transitions));
  c.registerInstance(ORDER_REPOSITORY, wiring.storage.orders);
  c.registerInstance(DASHBOARD_REPOSITORY, wiring.storage.dashboards);
  c.registerInstance(TOKEN_REPOSITORY, wiring.storage.tokens);
  c.registerInstance(LINK_REPOSITORY, wiring.storage.links);
  c.registerInstance(IDEMPOTENCY_STORE, wiring.storage.idempotency);
  c.registerInstance(RATE_LIMIT_COUNTER, wiring.storage.rateLimits);
  c.registerInstance(STORAGE_HEALTH, wiring.storage.health);
  c.registerInstance(RATE_LIMIT_SETTINGS, wiring.rateLimit);
  c.registerInstance(IDEMPOTENCY_SETTINGS, wiring.idempotency);
  const webhooks = wiring.webhooks ?? DEFAULT_WEBHOOKS;
  const resolver = webhooks.resolver ?? SYSTEM_RESOLVER;
  const webhookSender = new HttpWebhookSender({ timeoutMs: webhooks.timeoutMs, allowPrivateUrls: webhooks.allowPrivateUrls, resolver });
  c.registerInstance(WEBHOOK_ENDPOINTS, wiring.storage.webhooks);
  c.registerInstance(DELIVERIES, wiring.storage.deliveries);
  c.registerInstance(WEBHOOK_OUTBOX, wiring.storage.outbox);
  c.registerInstance(WEBHOOK_PAYLOADS, new ApiWebhookPayloads());
  c.registerInstance(WEBHOOK_SECRETS, new RandomWebhookSecrets());
  c.registerInstance(WEBHOOK_SENDER, webhookSender);
  c.registerInstance(WEBHOOK_URL_POLICY, new OutboundUrlPolicy({ allowPrivateUrls: webhooks.allowPrivateUrls, resolver }));
  c.registerInstance(WEBHOOK_NUDGE, webhooks.nudge ?? NO_NUDGE);
  c.registerInstance(WEBHOOK_SETTINGS, { retrySchedule: webhooks.retrySchedule, leaseMs: leaseMsFor(webhooks.timeoutMs) });
  return { useCases: resolveUseCases(c), ids, webhookSender };
};

/** Every use case, resolved once. */
const resolveUseCases = (c: DependencyContainer): UseCases => ({
  authenticateToken: c.resolve(AuthenticateToken),
  checkRateLimit: c.resolve(CheckRateLimit),
  idempotencyGate: c.resolve(IdempotencyGate),
  createOrder: c.resolve(CreateOrder),
  listOrders: c.resolve(ListOrders),
  getOrder: c.resolve(GetOrder),
  updateOrder: c.resolve(UpdateOrder),
  createDashboard: c.resolve(CreateDashboard),
  listDashboards: c.resolve(ListDashboards),
  createToken: c.resolve(CreateToken),
  listTokens: c.resolve(ListTokens),
  revokeToken: c.resolve(RevokeToken),
  createWebhook: c.resolve(CreateWebhook),
  listWebhooks: c.resolve(ListWebhooks),
  getWebhook: c.resolve(GetWebhook),
  updateWebhook: c.resolve(UpdateWebhook),
  deleteWebhook: c.resolve(DeleteWebhook),
  rotateWebhookSecret: c.resolve(RotateWebhookSecret),
  sendTestWebhook: c.resolve(SendTestWebhook),
  listDeliveries: c.resolve(ListDeliveries),
  retryDelivery: c.resolve(RetryDelivery),
  relayOrderEvents: c.resolve(RelayOrderEvents),
  deliverWebhooks: c.resolve(DeliverWebhooks),
  buildLinkUrl: c.resolve(BuildLinkUrl),
  createLink: c.resolve(CreateLink),
  listLinks: c.resolve(ListLinks),
  getLink: c.resolve(GetLink),
  deleteLink: c.resolve(DeleteLink),
  followShortLink: c.resolve(FollowShortLink),
});
