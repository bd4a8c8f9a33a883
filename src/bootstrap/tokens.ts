import type { InjectionToken } from 'tsyringe';
import type { Storage } from '../application/ports/storage';
import type { Ports, UseCases } from '../application/use-cases';
import type { HttpWebhookSender } from '../adapters/webhooks/http-webhook-sender';
import type { Wiring } from './composition';

/**
 * The container's tokens, typed constants: `container.resolve(PORTS.orders)` is an OrderRepository.
 * They live here rather than beside each port because the application imports no container.
 */

/** One token per port the use cases take: a port added to `Ports` without one does not compile. */
export const PORTS: { readonly [K in keyof Ports]-?: InjectionToken<Ports[K]> } = {
  orders: Symbol('OrderRepository'),
  dashboards: Symbol('DashboardRepository'),
  tokens: Symbol('TokenRepository'),
  links: Symbol('LinkRepository'),
  idempotency: Symbol('IdempotencyStore'),
  rateLimits: Symbol('RateLimitCounter'),
  localRateLimits: Symbol('RateLimitCounter (this process)'),
  webhooks: Symbol('WebhookEndpointRepository'),
  deliveries: Symbol('DeliveryRepository'),
  outbox: Symbol('WebhookOutbox'),
  events: Symbol('EventFeed'),
  reports: Symbol('ReportReader'),
  spend: Symbol('SpendRepository'),
  productCosts: Symbol('ProductCostRepository'),
  accounts: Symbol('AccountStores'),
  sources: Symbol('SourceRepository'),
  sourceDeliveries: Symbol('SourceDeliveryLog'),
  sourcePlatforms: Symbol('SourcePlatformAdapters'),
  clock: Symbol('Clock'),
  ids: Symbol('IdGenerator'),
  slugs: Symbol('SlugGenerator'),
  tokenSecrets: Symbol('TokenSecrets'),
  transitions: Symbol('TransitionPolicy'),
  rateLimitSettings: Symbol('RateLimitSettings'),
  idempotencySettings: Symbol('IdempotencySettings'),
  webhookPayloads: Symbol('WebhookPayloads'),
  webhookSecrets: Symbol('WebhookSecrets'),
  webhookSender: Symbol('WebhookSender'),
  webhookUrls: Symbol('WebhookUrlPolicy'),
  webhookSettings: Symbol('WebhookSettings'),
  nudge: Symbol('WebhookNudge'),
  passwords: Symbol('PasswordHasher'),
  opaqueSecrets: Symbol('OpaqueSecrets'),
  signInLimits: Symbol('SignInLimits'),
  adAccounts: Symbol('AdAccountRepository'),
  adPlatforms: Symbol('AdPlatforms'),
  credentialVault: Symbol('CredentialVault'),
  adSyncNudge: Symbol('AdSyncNudge'),
  adSyncSettings: Symbol('AdSyncSettings'),
  conversions: Symbol('ConversionRepository'),
  conversionPlatforms: Symbol('ConversionPlatforms'),
  conversionSending: Symbol('ConversionSendingSettings'),
  conversionNudge: Symbol('ConversionNudge'),
};

/** What the service was started with: the store it opened and the settings of its configuration. */
export const WIRING: InjectionToken<Wiring> = Symbol('Wiring');
export const STORAGE: InjectionToken<Storage> = Symbol('Storage');
/** The webhook sender as bootstrap sees it: the port, and the pool of connections it closes at shutdown. */
export const HTTP_WEBHOOK_SENDER: InjectionToken<HttpWebhookSender> = Symbol('HttpWebhookSender');
/** Every use case, built once per container from the ports resolved in it. */
export const USE_CASES: InjectionToken<UseCases> = Symbol('UseCases');
