import type { Clock } from '../application/ports/clock';
import type { IdGenerator } from '../application/ports/id-generator';
import type { SlugGenerator } from '../application/ports/slug-generator';
import type { Storage } from '../application/ports/storage';
import type { WebhookNudge } from '../application/ports/webhook-nudge';
import type { RateLimitSettings } from '../application/guards/check-rate-limit';
import type { IdempotencySettings } from '../application/guards/idempotency-gate';
import { buildUseCases, type UseCases } from '../application/use-cases';
import { InMemoryRateLimitCounter } from '../adapters/memory/in-memory-rate-limit-counter';
import { ApiWebhookPayloads } from '../adapters/http/webhooks/webhook-payloads';
import { RandomIdGenerator } from '../adapters/system/random-id-generator';
import { RandomSlugGenerator } from '../adapters/system/random-slug-generator';
import { RandomWebhookSecrets } from '../adapters/system/random-webhook-secrets';
import { Sha256TokenSecrets } from '../adapters/system/sha256-token-secrets';
import { SOURCE_PLATFORM_ADAPTERS } from '../adapters/sources/registry';
import { SystemClock } from '../adapters/system/system-clock';
import { RandomOpaqueSecrets, ScryptPasswordHasher } from '../adapters/system/scrypt-password-hasher';
import type { PasswordHasher } from '../application/ports/password-hasher';
import type { SignInLimits } from '../application/accounts/sign-in';
import { TableTransitionPolicy, type TransitionTable } from '../adapters/transitions/table-transition-policy';
import { HttpWebhookSender } from '../adapters/webhooks/http-webhook-sender';
import { SYSTEM_RESOLVER, type Resolver } from '../adapters/webhooks/outbound-addresses';
import { OutboundUrlPolicy } from '../adapters/webhooks/outbound-url-policy';
import { DEFAULT_RETRY_SCHEDULE } from './config-variables';

export interface Wiring {
  readonly storage: Storage;
  readonly transitions: TransitionTable;
  readonly rateLimit: RateLimitSettings;
  readonly idempotency: IdempotencySettings;
  /** The outbound side of webhooks; by default the configuration's defaults, with no nudge. */
  readonly webhooks?: WebhookWiring;
  /** Tests move time and fix ids and slugs; production uses the system's. */
  readonly clock?: Clock;
  readonly ids?: IdGenerator;
  readonly slugs?: SlugGenerator;
  /** scrypt with OWASP's parameters by default; tests pass cheaper ones. */
  readonly passwords?: PasswordHasher;
  readonly signInLimits?: SignInLimits;
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
 * A claim on a delivery holds 5 s and is renewed every 1.5 s while its attempt runs: the claims of a
 * process killed mid-attempt end within 5 s, on every store, whatever WEBHOOK_TIMEOUT_MS is.
 */
const DELIVERY_LEASE = { leaseMs: 5_000, renewEveryMs: 1_500 } as const;

const NO_NUDGE: WebhookNudge = { outboxChanged: () => undefined, deliveriesDue: () => undefined };

/** What the driving adapters (HTTP app, CLI) are handed: the use cases and the few ports they use directly. */
export interface Composition {
  readonly useCases: UseCases;
  readonly ids: IdGenerator;
  /** Keeps connections to receivers open for reuse; closed once the workers have stopped. */
  readonly webhookSender: HttpWebhookSender;
}

/**
 * The only place that picks an adapter for each port. Plain function calls rather than a container:
 * a port left out is a compile error here, not a failed resolution at start-up, and each call builds
 * its own adapters, so several services (or tests) in one process never share state.
 */
export const compose = (wiring: Wiring): Composition => {
  const { storage } = wiring;
  const ids = wiring.ids ?? new RandomIdGenerator();
  const webhooks = wiring.webhooks ?? DEFAULT_WEBHOOKS;
  const resolver = webhooks.resolver ?? SYSTEM_RESOLVER;
  const webhookSender = new HttpWebhookSender({ timeoutMs: webhooks.timeoutMs, allowPrivateUrls: webhooks.allowPrivateUrls, resolver });
  const useCases = buildUseCases({
    ...storage,
    clock: wiring.clock ?? new SystemClock(),
    ids,
    slugs: wiring.slugs ?? new RandomSlugGenerator(),
    tokenSecrets: new Sha256TokenSecrets(),
    transitions: new TableTransitionPolicy(wiring.transitions),
    localRateLimits: new InMemoryRateLimitCounter(),
    rateLimitSettings: wiring.rateLimit,
    idempotencySettings: wiring.idempotency,
    webhookPayloads: new ApiWebhookPayloads(),
    webhookSecrets: new RandomWebhookSecrets(),
    webhookSender,
    webhookUrls: new OutboundUrlPolicy({ allowPrivateUrls: webhooks.allowPrivateUrls, resolver }),
    webhookSettings: { retrySchedule: webhooks.retrySchedule, ...DELIVERY_LEASE },
    nudge: webhooks.nudge ?? NO_NUDGE,
    passwords: wiring.passwords ?? new ScryptPasswordHasher(),
    opaqueSecrets: new RandomOpaqueSecrets(),
    sourcePlatforms: SOURCE_PLATFORM_ADAPTERS,
    ...(wiring.signInLimits === undefined ? {} : { signInLimits: wiring.signInLimits }),
  });
  return { useCases, ids, webhookSender };
};
