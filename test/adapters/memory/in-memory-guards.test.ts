import { InMemoryIdempotencyStore } from '../../../src/adapters/memory/guards/in-memory-idempotency-store';
import { InMemoryRateLimitCounter } from '../../../src/adapters/memory/guards/in-memory-rate-limit-counter';
import { idempotencyStoreContract } from '../../contract/idempotency-store.contract';
import { rateLimitCounterContract } from '../../contract/rate-limit-counter.contract';

idempotencyStoreContract('in-memory', async () => new InMemoryIdempotencyStore());
rateLimitCounterContract('in-memory', async () => new InMemoryRateLimitCounter());
