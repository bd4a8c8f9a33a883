import { isLeft } from 'fp-ts/Either';
import type * as t from 'io-ts';
import type { LogLevel } from '../adapters/logging/pino-logger';
import type { ServerLimits } from '../adapters/http/kit/server';
import type { HeavyRequestBounds } from '../adapters/system/heavy-request-turns';
import type { TransitionTable } from '../adapters/transitions/table-transition-policy';
import { credentialsKeyOf } from '../adapters/system/aes-gcm-credential-vault';
import { VARIABLES, type Store } from './config-variables';
import { readTransitions } from './transition-file';

export type { Store } from './config-variables';

export interface Config {
  readonly port: number;
  readonly host: string;
  /** STORE, else MongoDB when MONGODB_URI is set, else SQLite (decision 0015). */
  readonly store: Store;
  /** The SQLite file, created with its folder on first start. */
  readonly sqlitePath: string;
  readonly mongodbUri?: string;
  /** The database: MONGODB_DB, else the one in the URI, else `orders` (decision 0010). */
  readonly mongodbDb?: string;
  readonly adminToken?: string;
  /** CONSOLE: the console's pages under /console (decision 0018); `off` removes them. */
  readonly console: boolean;
  /** BATCH_BODY_LIMIT_BYTES: the largest body of POST /api/v1/orders/batch (decision 0019). */
  readonly batchBodyLimitBytes: number;
  /** HEAVY_REQUESTS_PER_DASHBOARD, HEAVY_REQUEST_QUEUE, HEAVY_BODY_BYTES, HEAVY_TURN_REST: each dashboard's turns for large bodies (decision 0023). */
  readonly heavyRequests: HeavyRequestBounds;
  readonly rateLimitMax: number;
  readonly rateLimitWindowSeconds: number;
  /** How long an Idempotency-Key is remembered (decision 0007: 24 h). */
  readonly idempotencyTtlSeconds: number;
  /** How long a claim on a key holds before a retry may take it over. */
  readonly idempotencyLeaseSeconds: number;
  readonly transitions: TransitionTable;
  readonly transitionsFile?: string;
  readonly logLevel: LogLevel;
  readonly bodyLimitBytes: number;
  readonly shutdownTimeoutMs: number;
  /** From SIGTERM to closing the port: /readyz answers 503 while everything else is still served. */
  readonly shutdownReadinessDelayMs: number;
  /** Where GET /metrics listens; unset: no metrics listener. */
  readonly metricsPort?: number;
  readonly metricsHost?: string;
  /**
   * Where short links live (decision 0013): `shortUrl` is this, `/l/` and the slug. Normalised (host in ASCII,
   * no trailing `/`). Unset: the service's own address, `http://HOST:PORT` with the port it bound.
   */
  readonly publicBaseUrl?: string;
  /**
   * TRUST_PROXY: how many proxies stand in front (0: none). From 1, X-Forwarded-Proto counts and the
   * client's address is the one that many entries from the right of X-Forwarded-For (decision 0023).
   */
  readonly trustProxy: number;
  /** What a slow or greedy client gets (docs/operations.md, "Slow clients"). */
  readonly http: ServerLimits;
  readonly webhooks: WebhookConfig;
  readonly ads: AdsConfig;
}

/** The ad platforms' settings (docs/ad-platforms.md). */
export interface AdsConfig {
  /** CREDENTIALS_KEY, decoded: 32 bytes. Unset: no account can be connected, and those connected cannot be read. */
  readonly credentialsKey?: Buffer;
  /** Where each platform's API is reached: the platform's own address unless set (tests play the platforms on loopback). */
  readonly metaApiUrl: string;
  readonly googleAdsApiUrl: string;
  readonly googleOAuthUrl: string;
  readonly tiktokApiUrl: string;
  /** AD_SYNC_CONCURRENCY: the most syncs in flight in this process, one per dashboard at a time. */
  readonly syncConcurrency: number;
  /** AD_SYNC_POLL_INTERVAL_MS: how often the store is looked at for accounts that became due. */
  readonly pollIntervalMs: number;
  /** AD_PLATFORM_TIMEOUT_MS: how long one request to a platform may take. */
  readonly timeoutMs: number;
  /** AD_CONVERSIONS_CONCURRENCY: the most conversion requests in flight in this process, half of them per dashboard. */
  readonly conversionConcurrency: number;
  /** AD_CONVERSIONS_POLL_INTERVAL_MS: how often the store is looked at for conversions that fell due. */
  readonly conversionPollIntervalMs: number;
  /** AD_CONVERSIONS_RETRY_SCHEDULE: seconds between the attempts of a conversion, one retry per delay. */
  readonly conversionRetrySchedule: readonly number[];
}

/** The webhooks' settings (decision 0012; docs/webhooks.md). */
export interface WebhookConfig {
  /** WEBHOOK_TIMEOUT_MS: how long a receiver has to answer. */
  readonly timeoutMs: number;
  /** WEBHOOK_RETRY_SCHEDULE: seconds between attempts, one retry per delay. */
  readonly retrySchedule: readonly number[];
  /** WEBHOOK_ALLOW_PRIVATE_URLS: lifts the outbound rules (development and tests only). */
  readonly allowPrivateUrls: boolean;
  /** WEBHOOK_CONCURRENCY: the most attempts in flight in one process. */
  readonly concurrency: number;
  /** WEBHOOK_POLL_INTERVAL_MS: how often the store is looked at for work no nudge announced. */
  readonly pollIntervalMs: number;
}

export type Env = Readonly<Record<string, string | undefined>>;

type Decoded = { -readonly [K in keyof typeof VARIABLES]: t.TypeOf<(typeof VARIABLES)[K]['codec']> | undefined };

/** The configuration, or one line per problem (decision 0010). Secrets never appear in a problem line. */
export const loadConfig = (env: Env): { ok: true; config: Config } | { ok: false; problems: string[] } => {
  const problems: string[] = [];
  const values: Partial<Decoded> = {};
  for (const [name, { codec, fallback }] of Object.entries(VARIABLES)) {
    const raw = env[name] === undefined || env[name] === '' ? fallback : env[name];
    if (raw === undefined) continue;
    const decoded = codec.decode(raw);
    if (isLeft(decoded)) problems.push(`${name} ${decoded.left[0]?.message ?? 'is invalid'}`);
    else (values as Record<string, unknown>)[name] = decoded.right;
  }
  const transitions = values.ORDER_TRANSITIONS_FILE === undefined ? {} : readTransitions(values.ORDER_TRANSITIONS_FILE, problems);
  const v = values as Decoded;
  problems.push(...timeoutProblems(v));
  // Behind a proxy every connection comes from the proxy: a cap per address would cap the proxy.
  const perAddressSet = env['HTTP_MAX_CONNECTIONS_PER_ADDRESS'] !== undefined && env['HTTP_MAX_CONNECTIONS_PER_ADDRESS'] !== '';
  if (!perAddressSet && v.TRUST_PROXY !== undefined && v.TRUST_PROXY > 0) v.HTTP_MAX_CONNECTIONS_PER_ADDRESS = v.HTTP_MAX_CONNECTIONS;
  if (
    v.HTTP_MAX_CONNECTIONS_PER_ADDRESS !== undefined &&
    v.HTTP_MAX_CONNECTIONS !== undefined &&
    v.HTTP_MAX_CONNECTIONS_PER_ADDRESS > v.HTTP_MAX_CONNECTIONS
  )
    problems.push('HTTP_MAX_CONNECTIONS_PER_ADDRESS must not be greater than HTTP_MAX_CONNECTIONS');
  const uriSet = env['MONGODB_URI'] !== undefined && env['MONGODB_URI'] !== '';
  const store = (v.STORE as Store | undefined) ?? (uriSet ? 'mongodb' : 'sqlite');
  problems.push(...storeProblems(store, uriSet));
  if (v.TRUST_PROXY !== undefined && v.TRUST_PROXY > 0 && v.PUBLIC_BASE_URL === undefined)
    problems.push('TRUST_PROXY needs PUBLIC_BASE_URL: behind a proxy the service cannot tell the address people use');
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    config: {
      port: v.PORT as number,
      host: v.HOST as string,
      store,
      sqlitePath: v.SQLITE_PATH as string,
      mongodbUri: v.MONGODB_URI,
      mongodbDb: v.MONGODB_DB,
      adminToken: v.ADMIN_TOKEN,
      rateLimitMax: v.RATE_LIMIT_MAX as number,
      rateLimitWindowSeconds: v.RATE_LIMIT_WINDOW_SECONDS as number,
      idempotencyTtlSeconds: v.IDEMPOTENCY_TTL_SECONDS as number,
      idempotencyLeaseSeconds: v.IDEMPOTENCY_LEASE_SECONDS as number,
      transitions,
      transitionsFile: v.ORDER_TRANSITIONS_FILE,
      logLevel: v.LOG_LEVEL as LogLevel,
      bodyLimitBytes: v.BODY_LIMIT_BYTES as number,
      shutdownTimeoutMs: v.SHUTDOWN_TIMEOUT_MS as number,
      shutdownReadinessDelayMs: v.SHUTDOWN_READINESS_DELAY_MS as number,
      metricsPort: v.METRICS_PORT,
      metricsHost: v.METRICS_HOST,
      publicBaseUrl: v.PUBLIC_BASE_URL,
      trustProxy: v.TRUST_PROXY as number,
      console: v.CONSOLE === 'on',
      batchBodyLimitBytes: v.BATCH_BODY_LIMIT_BYTES as number,
      heavyRequests: {
        perDashboard: v.HEAVY_REQUESTS_PER_DASHBOARD as number,
        queue: v.HEAVY_REQUEST_QUEUE as number,
        heavyBodyBytes: v.HEAVY_BODY_BYTES as number,
        rest: v.HEAVY_TURN_REST as number,
      },
      http: {
        headersTimeoutMs: v.HTTP_HEADERS_TIMEOUT_MS as number,
        requestTimeoutMs: v.HTTP_REQUEST_TIMEOUT_MS as number,
        keepAliveTimeoutMs: v.HTTP_KEEP_ALIVE_TIMEOUT_MS as number,
        maxConnections: v.HTTP_MAX_CONNECTIONS as number,
        maxConnectionsPerAddress: v.HTTP_MAX_CONNECTIONS_PER_ADDRESS as number,
      },
      webhooks: {
        timeoutMs: v.WEBHOOK_TIMEOUT_MS as number,
        retrySchedule: v.WEBHOOK_RETRY_SCHEDULE as readonly number[],
        allowPrivateUrls: v.WEBHOOK_ALLOW_PRIVATE_URLS as boolean,
        concurrency: v.WEBHOOK_CONCURRENCY as number,
        pollIntervalMs: v.WEBHOOK_POLL_INTERVAL_MS as number,
      },
      ads: {
        ...(v.CREDENTIALS_KEY === undefined ? {} : { credentialsKey: credentialsKeyOf(v.CREDENTIALS_KEY) }),
        metaApiUrl: v.META_API_URL as string,
        googleAdsApiUrl: v.GOOGLE_ADS_API_URL as string,
        googleOAuthUrl: v.GOOGLE_OAUTH_URL as string,
        tiktokApiUrl: v.TIKTOK_API_URL as string,
        syncConcurrency: v.AD_SYNC_CONCURRENCY as number,
        pollIntervalMs: v.AD_SYNC_POLL_INTERVAL_MS as number,
        timeoutMs: v.AD_PLATFORM_TIMEOUT_MS as number,
        conversionConcurrency: v.AD_CONVERSIONS_CONCURRENCY as number,
        conversionPollIntervalMs: v.AD_CONVERSIONS_POLL_INTERVAL_MS as number,
        conversionRetrySchedule: v.AD_CONVERSIONS_RETRY_SCHEDULE as readonly number[],
      },
    },
  };
};

/**
 * The timeouts must nest: an idle keep-alive connection is closed before a request on it could be
 * timed out for its headers, and the headers are due before the whole request.
 */
const timeoutProblems = (v: Decoded): string[] => {
  const { HTTP_HEADERS_TIMEOUT_MS: headers, HTTP_REQUEST_TIMEOUT_MS: request, HTTP_KEEP_ALIVE_TIMEOUT_MS: keepAlive } = v;
  if (headers === undefined || request === undefined || keepAlive === undefined) return [];
  const problems: string[] = [];
  if (headers > request) problems.push('HTTP_HEADERS_TIMEOUT_MS must not be greater than HTTP_REQUEST_TIMEOUT_MS');
  if (keepAlive >= headers) problems.push('HTTP_KEEP_ALIVE_TIMEOUT_MS must be less than HTTP_HEADERS_TIMEOUT_MS');
  return problems;
};

/** STORE and MONGODB_URI must not say two different things. */
const storeProblems = (store: Store, uriSet: boolean): string[] => {
  if (store === 'mongodb' && !uriSet) return ['STORE=mongodb needs MONGODB_URI'];
  if (store !== 'mongodb' && uriSet) return [`STORE=${store} contradicts MONGODB_URI, which selects MongoDB: unset one of them`];
  return [];
};
