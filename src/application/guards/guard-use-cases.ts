import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { IdempotencyStore } from '../ports/idempotency-store';
import type { RateLimitCounter } from '../ports/rate-limit-counter';
import { CheckRateLimit, type RateLimitSettings } from './check-rate-limit';
import { IdempotencyGate, type IdempotencySettings } from './idempotency-gate';

export interface GuardPorts {
  readonly rateLimits: RateLimitCounter;
  /** Counts in this process's memory, for reads while `rateLimits` cannot take a write. */
  readonly localRateLimits: RateLimitCounter;
  readonly rateLimitSettings: RateLimitSettings;
  readonly idempotency: IdempotencyStore;
  readonly idempotencySettings: IdempotencySettings;
  readonly ids: IdGenerator;
  readonly clock: Clock;
}

export const guardUseCases = ({
  rateLimits,
  localRateLimits,
  rateLimitSettings,
  idempotency,
  idempotencySettings,
  ids,
  clock,
}: GuardPorts) => ({
  checkRateLimit: new CheckRateLimit(rateLimits, rateLimitSettings, clock, localRateLimits),
  idempotencyGate: new IdempotencyGate(idempotency, idempotencySettings, ids, clock),
});

export type GuardUseCases = ReturnType<typeof guardUseCases>;
