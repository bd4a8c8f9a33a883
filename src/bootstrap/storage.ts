import type { DashboardRepository } from '../application/ports/dashboard-repository';
import type { IdempotencyStore } from '../application/ports/idempotency-store';
import type { OrderRepository } from '../application/ports/order-repository';
import type { StorageHealth } from '../application/ports/storage-health';
import type { RateLimitCounter } from '../application/ports/rate-limit-counter';
import type { TokenRepository } from '../application/ports/token-repository';
import { InMemoryDashboardRepository } from '../adapters/memory/in-memory-dashboard-repository';
import { InMemoryIdempotencyStore } from '../adapters/memory/in-memory-idempotency-store';
import { InMemoryOrderRepository } from '../adapters/memory/in-memory-order-repository';
import { InMemoryRateLimitCounter } from '../adapters/memory/in-memory-rate-limit-counter';
import { InMemoryStorageHealth } from '../adapters/memory/in-memory-storage-health';
import { InMemoryTokenRepository } from '../adapters/memory/in-memory-token-repository';

/** One store's adapters for every storage port: what swapping the store means. */
export interface Storage {
  /** Said in the first log line. */
  readonly description: string;
  /** Whether data outlives the process (the CLI refuses a store that does not). */
  readonly persistent: boolean;
  readonly orders: OrderRepository;
  readonly dashboards: DashboardRepository;
  readonly tokens: TokenRepository;
  readonly idempotency: IdempotencyStore;
  readonly rateLimits: RateLimitCounter;
  readonly health: StorageHealth;
}

export const inMemoryStorage = (): Storage => ({
  description: 'embedded in-memory store (MONGODB_URI is unset; data lives only as long as the process)',
  persistent: false,
  orders: new InMemoryOrderRepository(),
  dashboards: new InMemoryDashboardRepository(),
  tokens: new InMemoryTokenRepository(),
  idempotency: new InMemoryIdempotencyStore(),
  rateLimits: new InMemoryRateLimitCounter(),
  health: new InMemoryStorageHealth(),
});
