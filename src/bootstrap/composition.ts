import { container, instanceCachingFactory, type DependencyContainer, type InjectionToken } from 'tsyringe';
import type { Clock } from '../application/ports/clock';
import type { IdGenerator } from '../application/ports/id-generator';
import type { SlugGenerator } from '../application/ports/slug-generator';
import type { Storage } from '../application/ports/storage';
import type { WebhookNudge } from '../application/ports/webhook-nudge';
import type { RateLimitSettings } from '../application/guards/check-rate-limit';
import type { IdempotencySettings } from '../application/guards/idempotency-gate';
import { buildUseCases, type Ports, type UseCases } from '../application/use-cases';
import { InMemoryRateLimitCounter } from '../adapters/memory/guards/in-memory-rate-limit-counter';
import { ApiWebhookPayloads } from '../adapters/http/webhooks/webhook-payloads';
import { RandomIdGenerator } from '../adapters/system/random-id-generator';
import { RandomSlugGenerator } from '../adapters/system/random-slug-generator';
import { RandomWebhookSecrets } from '../adapters/system/random-webhook-secrets';
import { Sha256TokenSecrets } from '../adapters/system/sha256-token-secrets';
import { SOURCE_PLATFORM_ADAPTERS } from '../adapters/sources/registry';
import { SystemClock } from '../adapters/system/system-clock';
import { RandomOpaqueSecrets, ScryptPasswordHasher } from '../adapters/system/scrypt-password-hasher';
import { BoundedPasswordHasher } from '../adapters/system/bounded-password-hasher';
import type { PasswordHasher } from '../application/ports/password-hasher';
import type { SignInLimits } from '../application/accounts/password-attempts';
import { TableTransitionPolicy, type TransitionTable } from '../adapters/transitions/table-transition-policy';
import { HttpWebhookSender } from '../adapters/webhooks/http-webhook-sender';
import { SYSTEM_RESOLVER, type Resolver } from '../adapters/webhooks/outbound-addresses';
import { OutboundUrlPolicy } from '../adapters/webhooks/outbound-url-policy';
import type { Config } from './config';
import type { AdSyncNudge } from '../application/ads/ad-sync-nudge';
import type { AdSyncSettings } from '../application/ads/sync-ad-accounts';
import { adPlatformAdapters, conversionPlatformAdapters, type AdPlatformSettings } from '../adapters/ads/registry';
import type { ConversionNudge } from '../application/conversions/conversion-nudge';
import type { ConversionSendingSettings } from '../application/conversions/send-conversions';
import { AesGcmCredentialVault } from '../adapters/system/aes-gcm-credential-vault';
import { DEFAULT_RETRY_SCHEDULE } from './config-variables';
import { HTTP_WEBHOOK_SENDER, PORTS, STORAGE, USE_CASES, WIRING } from './tokens';

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
  /** scrypt with OWASP's parameters by default; tests pass cheaper ones. Bounded either way (decision 0023). */
  readonly passwords?: PasswordHasher;
  readonly signInLimits?: SignInLimits;
  /** The ad platforms; by default the configuration's defaults (the platforms' own addresses), with no key. */
  readonly ads?: AdsWiring;
}

export interface AdsWiring {
  readonly credentialsKey?: Buffer;
  readonly platforms: AdPlatformSettings;
  /** Wakes the sync workers after a change; none when the process runs none (the CLI). */
  readonly nudge?: AdSyncNudge;
  /** Tests shorten the leases; an hour between syncs, leases of a minute by default. */
  readonly sync?: Partial<AdSyncSettings>;
  /** AD_CONVERSIONS_RETRY_SCHEDULE: seconds between the attempts of a conversion; the webhooks' schedule by default. */
  readonly conversionRetrySchedule?: readonly number[];
  /** Wakes the conversion senders after a relay; none when the process runs none (the CLI). */
  readonly conversionNudge?: ConversionNudge;
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

/** What the configuration decides of the wiring; the caller adds the store and what it overrides. */
export const configuredWiring = (config: Config): Omit<Wiring, 'storage'> => ({
  transitions: config.transitions,
  rateLimit: { max: config.rateLimitMax, windowSeconds: config.rateLimitWindowSeconds },
  idempotency: { ttlMs: config.idempotencyTtlSeconds * 1000, leaseMs: config.idempotencyLeaseSeconds * 1000 },
  webhooks: config.webhooks,
  ads: adsWiringOf(config),
});

/** The ad platforms' part of the wiring, from the configuration. */
export const adsWiringOf = (config: Config): AdsWiring => ({
  ...(config.ads.credentialsKey === undefined ? {} : { credentialsKey: config.ads.credentialsKey }),
  platforms: {
    metaApiUrl: config.ads.metaApiUrl,
    googleAdsApiUrl: config.ads.googleAdsApiUrl,
    googleOAuthUrl: config.ads.googleOAuthUrl,
    tiktokApiUrl: config.ads.tiktokApiUrl,
    timeoutMs: config.ads.timeoutMs,
  },
  conversionRetrySchedule: config.ads.conversionRetrySchedule,
});

const DEFAULT_ADS: AdsWiring = {
  platforms: {
    metaApiUrl: 'https://graph.facebook.com',
    googleAdsApiUrl: 'https://googleads.googleapis.com',
    googleOAuthUrl: 'https://oauth2.googleapis.com/token',
    tiktokApiUrl: 'https://business-api.tiktok.com',
    timeoutMs: 30_000,
  },
};

/** An hour between syncs; a claim holds a minute and is renewed every 20 s while the sync runs. */
const DEFAULT_AD_SYNC: AdSyncSettings = { everyMs: 3_600_000, leaseMs: 60_000, renewEveryMs: 20_000 };
const NO_AD_NUDGE: AdSyncNudge = { syncDue: () => undefined };
const NO_CONVERSION_NUDGE: ConversionNudge = { conversionsDue: () => undefined };

/**
 * A claim on a conversion holds 5 s and is renewed every 1.5 s while its request runs, as a webhook
 * delivery's: the claims of a process killed mid-request end within 5 s.
 */
const conversionSendingOf = (ads: AdsWiring): ConversionSendingSettings => ({
  retrySchedule: ads.conversionRetrySchedule ?? DEFAULT_RETRY_SCHEDULE,
  leaseMs: 5_000,
  renewEveryMs: 1_500,
});

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
  /** The service's own container, where every port and the use cases resolve. */
  readonly container: DependencyContainer;
}

/** How to make each port, given the container it is resolved in: a port left out does not compile. */
export type PortRegistrations = { readonly [K in keyof Ports]-?: (c: DependencyContainer) => Ports[K] };

const wiringOf = (c: DependencyContainer): Wiring => c.resolve(WIRING);
const storageOf = (c: DependencyContainer): Storage => c.resolve(STORAGE);
const webhooksOf = (c: DependencyContainer): WebhookWiring => wiringOf(c).webhooks ?? DEFAULT_WEBHOOKS;
const adsOf = (c: DependencyContainer): AdsWiring => wiringOf(c).ads ?? DEFAULT_ADS;
const outbound = (c: DependencyContainer) => ({
  allowPrivateUrls: webhooksOf(c).allowPrivateUrls,
  resolver: webhooksOf(c).resolver ?? SYSTEM_RESOLVER,
});

/** The only place that picks an adapter for each port. */
export const PORT_REGISTRATIONS: PortRegistrations = {
  orders: (c) => storageOf(c).orders,
  dashboards: (c) => storageOf(c).dashboards,
  tokens: (c) => storageOf(c).tokens,
  links: (c) => storageOf(c).links,
  idempotency: (c) => storageOf(c).idempotency,
  rateLimits: (c) => storageOf(c).rateLimits,
  webhooks: (c) => storageOf(c).webhooks,
  deliveries: (c) => storageOf(c).deliveries,
  outbox: (c) => storageOf(c).outbox,
  events: (c) => storageOf(c).events,
  reports: (c) => storageOf(c).reports,
  spend: (c) => storageOf(c).spend,
  productCosts: (c) => storageOf(c).productCosts,
  accounts: (c) => storageOf(c).accounts,
  sources: (c) => storageOf(c).sources,
  sourceDeliveries: (c) => storageOf(c).sourceDeliveries,
  sourcePlatforms: () => SOURCE_PLATFORM_ADAPTERS,
  localRateLimits: () => new InMemoryRateLimitCounter(),
  clock: (c) => wiringOf(c).clock ?? new SystemClock(),
  ids: (c) => wiringOf(c).ids ?? new RandomIdGenerator(),
  slugs: (c) => wiringOf(c).slugs ?? new RandomSlugGenerator(),
  tokenSecrets: () => new Sha256TokenSecrets(),
  transitions: (c) => new TableTransitionPolicy(wiringOf(c).transitions),
  rateLimitSettings: (c) => wiringOf(c).rateLimit,
  idempotencySettings: (c) => wiringOf(c).idempotency,
  webhookPayloads: () => new ApiWebhookPayloads(),
  webhookSecrets: () => new RandomWebhookSecrets(),
  webhookSender: (c) => c.resolve(HTTP_WEBHOOK_SENDER),
  webhookUrls: (c) => new OutboundUrlPolicy(outbound(c)),
  webhookSettings: (c) => ({ retrySchedule: webhooksOf(c).retrySchedule, ...DELIVERY_LEASE }),
  nudge: (c) => webhooksOf(c).nudge ?? NO_NUDGE,
  passwords: (c) => new BoundedPasswordHasher(wiringOf(c).passwords ?? new ScryptPasswordHasher()),
  opaqueSecrets: () => new RandomOpaqueSecrets(),
  signInLimits: (c) => wiringOf(c).signInLimits,
  adAccounts: (c) => storageOf(c).adAccounts,
  adPlatforms: (c) => adPlatformAdapters(adsOf(c).platforms),
  credentialVault: (c) => new AesGcmCredentialVault(adsOf(c).credentialsKey),
  adSyncNudge: (c) => adsOf(c).nudge ?? NO_AD_NUDGE,
  adSyncSettings: (c) => ({ ...DEFAULT_AD_SYNC, ...adsOf(c).sync }),
  conversions: (c) => storageOf(c).conversions,
  conversionPlatforms: (c) => conversionPlatformAdapters(adsOf(c).platforms),
  conversionSending: (c) => conversionSendingOf(adsOf(c)),
  conversionNudge: (c) => adsOf(c).conversionNudge ?? NO_CONVERSION_NUDGE,
};

const PORT_NAMES = Object.keys(PORT_REGISTRATIONS) as (keyof Ports)[];

/**
 * The two tables are typed entry by entry (`Ports` is an intersection, which TypeScript cannot index
 * generically): pairing them by name, the token's own type can go.
 */
const tokenOf = (name: keyof Ports): InjectionToken<unknown> => PORTS[name];

/** Each port once per container: every use case of a service shares its clock, counters and sender. */
const registerPorts = (c: DependencyContainer): void => {
  for (const name of PORT_NAMES) c.register(tokenOf(name), { useFactory: instanceCachingFactory<unknown>(PORT_REGISTRATIONS[name]) });
};

/** Every port resolved in `c`; an optional one left unset stays out, as its use case's default expects. */
export const resolvePorts = (c: DependencyContainer): Ports =>
  Object.fromEntries(PORT_NAMES.map((name) => [name, c.resolve(tokenOf(name))]).filter(([, port]) => port !== undefined)) as Ports;

/**
 * A container of the service's own, a child of tsyringe's root that holds nothing: two services (or
 * tests) in one process share no adapter, counter or connection. Registrations are factories, not
 * decorators, so nothing depends on the metadata a compiler emits.
 */
export const composeContainer = (wiring: Wiring): DependencyContainer => {
  const c = container.createChildContainer();
  c.register(WIRING, { useValue: wiring });
  c.register(STORAGE, { useValue: wiring.storage });
  c.register(HTTP_WEBHOOK_SENDER, {
    useFactory: instanceCachingFactory((inner) => new HttpWebhookSender({ timeoutMs: webhooksOf(inner).timeoutMs, ...outbound(inner) })),
  });
  registerPorts(c);
  c.register(USE_CASES, { useFactory: instanceCachingFactory((inner) => buildUseCases(resolvePorts(inner))) });
  return c;
};

export const compose = (wiring: Wiring): Composition => {
  const c = composeContainer(wiring);
  return { useCases: c.resolve(USE_CASES), ids: c.resolve(PORTS.ids), webhookSender: c.resolve(HTTP_WEBHOOK_SENDER), container: c };
};
