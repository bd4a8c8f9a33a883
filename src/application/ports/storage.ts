import type { AdAccountRepository } from './ad-account-repository';
import type { AccountStores } from './account-repositories';
import type { ConversionRepository } from './conversion-repository';
import type { EventFeed } from './event-feed';
import type { BackgroundWorker } from './background-worker';
import type { DashboardRepository } from './dashboard-repository';
import type { DeliveryRepository } from './delivery-repository';
import type { IdempotencyStore } from './idempotency-store';
import type { LinkRepository } from './link-repository';
import type { OrderRepository } from './order-repository';
import type { ProductCostRepository } from './product-cost-repository';
import type { RateLimitCounter } from './rate-limit-counter';
import type { ReportReader } from './report-reader';
import type { SourceDeliveryLog } from './source-delivery-log';
import type { SourceRepository } from './source-repository';
import type { SpendRepository } from './spend-repository';
import type { StorageHealth } from './storage-health';
import type { TokenRepository } from './token-repository';
import type { WebhookEndpointRepository } from './webhook-endpoint-repository';
import type { WebhookOutbox } from './webhook-outbox';

/**
 * One store's adapters for every storage port: what swapping the store means. Each store builds its
 * own in its adapter folder (`inMemoryStorage`, `connectMongoStorage`); bootstrap picks one.
 */
export interface Storage {
  /** Said in the first log line. */
  readonly description: string;
  /** Whether data outlives the process (the CLI refuses a store that does not). */
  readonly persistent: boolean;
  readonly orders: OrderRepository;
  readonly dashboards: DashboardRepository;
  readonly tokens: TokenRepository;
  readonly links: LinkRepository;
  readonly idempotency: IdempotencyStore;
  readonly rateLimits: RateLimitCounter;
  readonly webhooks: WebhookEndpointRepository;
  readonly deliveries: DeliveryRepository;
  /** The orders' outboxes, as the webhook relay reads and empties them. */
  readonly outbox: WebhookOutbox;
  /** The order events of the last 30 days, as the relay took them out of the outboxes (decision 0019). */
  readonly events: EventFeed;
  /** Reports over the orders (decision 0016). */
  readonly reports: ReportReader;
  readonly spend: SpendRepository;
  /** Sources and the log of their deliveries (decision 0021). */
  readonly sources: SourceRepository;
  readonly sourceDeliveries: SourceDeliveryLog;
  /** What each product costs, from which day (decision 0020). */
  readonly productCosts: ProductCostRepository;
  /** Ad accounts and where each one's sync stands (docs/ad-platforms.md). */
  readonly adAccounts: AdAccountRepository;
  /** Paid orders on their way to the ad accounts' conversions APIs, and their log (docs/ad-platforms.md). */
  readonly conversions: ConversionRepository;
  /** Console users, memberships, invitations and sessions (decision 0017). */
  readonly accounts: AccountStores;
  readonly health: StorageHealth;
  /**
   * The longest one write held the event loop since the last call, in ms, for a store whose writes run
   * on it (SQLite's group commit); absent for a store whose writes wait on the network.
   */
  readonly longestWriteMs?: () => number;
  /** Work the store does beside the requests (MongoDB's report rollup); run by the service, not the CLI. */
  readonly workers?: readonly BackgroundWorker[];
}
