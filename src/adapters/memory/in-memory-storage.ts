import type { Storage } from '../../application/ports/storage';
import { InMemoryDashboardRepository } from './in-memory-dashboard-repository';
import { InMemoryIdempotencyStore } from './in-memory-idempotency-store';
import { InMemoryLinkRepository } from './in-memory-link-repository';
import { InMemoryOrderRepository } from './in-memory-order-repository';
import { InMemoryRateLimitCounter } from './in-memory-rate-limit-counter';
import { InMemoryStorageHealth } from './in-memory-storage-health';
import { InMemoryTokenRepository } from './in-memory-token-repository';

/** The in-memory store: every port in the process, gone at exit. */
export const inMemoryStorage = (): Storage => ({
  description: 'in-memory store (STORE=memory: data lives only as long as the process)',
  persistent: false,
  orders: new InMemoryOrderRepository(),
  dashboards: new InMemoryDashboardRepository(),
  tokens: new InMemoryTokenRepository(),
  links: new InMemoryLinkRepository(),
  idempotency: new InMemoryIdempotencyStore(),
  rateLimits: new InMemoryRateLimitCounter(),
  health: new InMemoryStorageHealth(),
});
