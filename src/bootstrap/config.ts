import { readFileSync } from 'node:fs';
import { isLeft } from 'fp-ts/Either';
import * as t from 'io-ts';
import { isOrderStatus, ORDER_STATUSES, type OrderStatus } from '../domain/order-status';
import { LOG_LEVELS, type LogLevel } from '../adapters/logging/pino-logger';
import type { ServerLimits } from '../adapters/http/kit/server';
import type { TransitionTable } from '../adapters/transitions/table-transition-policy';

/** Which store holds the data (DECISIONS D15). */
export const STORES = ['sqlite', 'mongodb', 'memory'] as const;
export type Store = (typeof STORES)[number];

export interface Config {
  readonly port: number;
  readonly host: string;
  /** STORE, else MongoDB when MONGODB_URI is set, else SQLite (DECISIONS D15). */
  readonly store: Store;
  /** The SQLite file, created with its folder on first start. */
  readonly sqlitePath: string;
  readonly mongodbUri?: string;
  /** The database: MONGODB_DB, else the one in the URI, else `orders` (DECISIONS D10). */
  readonly mongodbDb?: string;
  readonly adminToken?: string;
  readonly rateLimitMax: number;
  readonly rateLimitWindowSeconds: number;
  /** How long an Idempotency-Key is remembered (DECISIONS D7: 24 h). */
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
   * Where short links live (D13): `shortUrl` is this, `/l/` and the slug. Normalised (host in ASCII,
   * no trailing `/`). Unset: the service's own address, `http://HOST:PORT` with the port it bound.
   */
  readonly publicBaseUrl?: string;
  /** What a slow or greedy client gets (README, "Slow clients"). */
  readonly http: ServerLimits;
  readonly webhooks: WebhookConfig;
}

/** The webhooks' settings (DECISIONS D12; README, "Webhooks"). */
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

/** DECISIONS D12: 8 attempts over about 27 h. */
export const DEFAULT_RETRY_SCHEDULE: readonly number[] = [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000];

/** The most delays WEBHOOK_RETRY_SCHEDULE may list, and the longest one: a delivery is kept 30 days. */
const MAX_RETRIES = 20;
const MAX_RETRY_DELAY_SECONDS = 86_400;

export type Env = Readonly<Record<string, string | undefined>>;

const intText = (name: string, min: number, max: number) =>
  new t.Type<number, string, unknown>(
    name,
    (u): u is number => typeof u === 'number',
    (u, c) =>
      typeof u === 'string' && /^\d+$/.test(u) && Number(u) >= min && Number(u) <= max
        ? t.success(Number(u))
        : t.failure(u, c, `must be an integer from ${min} to ${max}`),
    String,
  );

const text = (name: string, test: (s: string) => boolean, message: string) =>
  new t.Type<string, string, unknown>(
    name,
    (u): u is string => typeof u === 'string',
    (u, c) => (typeof u === 'string' && test(u) ? t.success(u) : t.failure(u, c, message)),
    t.identity,
  );

const secondsList = new t.Type<readonly number[], string, unknown>(
  'seconds',
  (u): u is readonly number[] => Array.isArray(u),
  (u, c) => {
    const parts = typeof u === 'string' ? u.split(',').map((part) => part.trim()) : [];
    const valid =
      parts.length >= 1 &&
      parts.length <= MAX_RETRIES &&
      parts.every((part) => /^\d+$/.test(part) && Number(part) <= MAX_RETRY_DELAY_SECONDS);
    return valid
      ? t.success(parts.map(Number))
      : t.failure(u, c, `must be 1 to ${MAX_RETRIES} comma-separated whole numbers of seconds, each at most ${MAX_RETRY_DELAY_SECONDS}`);
  },
  (list) => list.join(','),
);

const booleanText = new t.Type<boolean, string, unknown>(
  'boolean',
  (u): u is boolean => typeof u === 'boolean',
  (u, c) => (u === 'true' || u === 'false' ? t.success(u === 'true') : t.failure(u, c, 'must be true or false')),
  String,
);

/**
 * An absolute http(s) URL without credentials, query or fragment, normalised by the WHATWG parser
 * (an IDN host in punycode) and without the trailing `/`, so that `/l/<slug>` can be appended.
 */
const baseUrl = new t.Type<string, string, unknown>(
  'baseUrl',
  (u): u is string => typeof u === 'string',
  (u, c) => {
    const message = 'must be an absolute http or https URL without credentials, query or fragment, such as https://go.example';
    if (typeof u !== 'string' || !/^https?:\/\/[^/?#@\\\s]+(\/[^?#\\\s]*)?$/i.test(u)) return t.failure(u, c, message);
    try {
      return t.success(new URL(u).href.replace(/\/+$/, ''));
    } catch {
      return t.failure(u, c, message);
    }
  },
  t.identity,
);

/** Each variable, its codec and its default; an unset or empty variable takes the default. */
const VARIABLES = {
  PORT: { codec: intText('port', 0, 65535), fallback: '3000' },
  HOST: { codec: text('host', (s) => s.length > 0, 'must not be empty'), fallback: '127.0.0.1' },
  STORE: {
    codec: text('store', (s) => (STORES as readonly string[]).includes(s), `must be one of ${STORES.join(', ')}`),
    fallback: undefined,
  },
  SQLITE_PATH: { codec: text('path', (s) => s.length > 0, 'must be a file path'), fallback: 'data/orders.db' },
  MONGODB_URI: {
    codec: text('uri', (s) => /^mongodb(\+srv)?:\/\/\S+$/.test(s), 'must be a mongodb:// or mongodb+srv:// URI'),
    fallback: undefined,
  },
  MONGODB_DB: {
    codec: text(
      'db',
      (s) => /^[^/\\. "$*<>:|?]{1,63}$/.test(s),
      'must be a MongoDB database name (1-63 characters, none of /\\. "$*<>:|?)',
    ),
    fallback: undefined,
  },
  ADMIN_TOKEN: {
    codec: text('secret', (s) => s.length >= 16 && s.length <= 512 && /^\S+$/.test(s), 'must be 16 to 512 characters without spaces'),
    fallback: undefined,
  },
  RATE_LIMIT_MAX: { codec: intText('max', 1, 1_000_000_000), fallback: '600' },
  RATE_LIMIT_WINDOW_SECONDS: { codec: intText('seconds', 1, 86_400), fallback: '60' },
  IDEMPOTENCY_TTL_SECONDS: { codec: intText('seconds', 60, 30 * 86_400), fallback: '86400' },
  IDEMPOTENCY_LEASE_SECONDS: { codec: intText('seconds', 1, 3_600), fallback: '10' },
  ORDER_TRANSITIONS_FILE: { codec: text('path', (s) => s.length > 0, 'must be a file path'), fallback: undefined },
  LOG_LEVEL: {
    codec: text('level', (s) => (LOG_LEVELS as readonly string[]).includes(s), `must be one of ${LOG_LEVELS.join(', ')}`),
    fallback: 'info',
  },
  BODY_LIMIT_BYTES: { codec: intText('bytes', 1024, 16 * 1024 * 1024), fallback: String(256 * 1024) },
  SHUTDOWN_TIMEOUT_MS: { codec: intText('ms', 0, 600_000), fallback: '10000' },
  SHUTDOWN_READINESS_DELAY_MS: { codec: intText('ms', 0, 600_000), fallback: '0' },
  METRICS_PORT: { codec: intText('port', 0, 65535), fallback: undefined },
  METRICS_HOST: { codec: text('host', (s) => s.length > 0, 'must not be empty'), fallback: undefined },
  HTTP_HEADERS_TIMEOUT_MS: { codec: intText('ms', 100, 600_000), fallback: '10000' },
  HTTP_REQUEST_TIMEOUT_MS: { codec: intText('ms', 100, 3_600_000), fallback: '30000' },
  HTTP_KEEP_ALIVE_TIMEOUT_MS: { codec: intText('ms', 1, 600_000), fallback: '5000' },
  HTTP_MAX_CONNECTIONS: { codec: intText('connections', 1, 1_000_000), fallback: '1000' },
  WEBHOOK_TIMEOUT_MS: { codec: intText('ms', 100, 600_000), fallback: '15000' },
  WEBHOOK_RETRY_SCHEDULE: { codec: secondsList, fallback: DEFAULT_RETRY_SCHEDULE.join(',') },
  WEBHOOK_ALLOW_PRIVATE_URLS: { codec: booleanText, fallback: 'false' },
  WEBHOOK_CONCURRENCY: { codec: intText('attempts', 1, 1_000), fallback: '16' },
  WEBHOOK_POLL_INTERVAL_MS: { codec: intText('ms', 10, 600_000), fallback: '1000' },
  PUBLIC_BASE_URL: { codec: baseUrl, fallback: undefined },
} as const;

type Decoded = { -readonly [K in keyof typeof VARIABLES]: t.TypeOf<(typeof VARIABLES)[K]['codec']> | undefined };

/** The configuration, or one line per problem (DECISIONS D10). Secrets never appear in a problem line. */
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
  const uriSet = env['MONGODB_URI'] !== undefined && env['MONGODB_URI'] !== '';
  const store = (v.STORE as Store | undefined) ?? (uriSet ? 'mongodb' : 'sqlite');
  problems.push(...storeProblems(store, uriSet));
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
      http: {
        headersTimeoutMs: v.HTTP_HEADERS_TIMEOUT_MS as number,
        requestTimeoutMs: v.HTTP_REQUEST_TIMEOUT_MS as number,
        keepAliveTimeoutMs: v.HTTP_KEEP_ALIVE_TIMEOUT_MS as number,
        maxConnections: v.HTTP_MAX_CONNECTIONS as number,
      },
      webhooks: {
        timeoutMs: v.WEBHOOK_TIMEOUT_MS as number,
        retrySchedule: v.WEBHOOK_RETRY_SCHEDULE as readonly number[],
        allowPrivateUrls: v.WEBHOOK_ALLOW_PRIVATE_URLS as boolean,
        concurrency: v.WEBHOOK_CONCURRENCY as number,
        pollIntervalMs: v.WEBHOOK_POLL_INTERVAL_MS as number,
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

/**
 * Reads `{ "pending": ["paid"], ... }`. Unknown status names, on either side, and any other shape are
 * problems: a typo must stop the start, not silently forbid a transition (DECISIONS D6).
 */
export const parseTransitionTable = (json: unknown): { table: TransitionTable; problems: string[] } => {
  const problems: string[] = [];
  const known = ORDER_STATUSES.join(', ');
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { table: {}, problems: ['must be a JSON object mapping a status to the statuses it may move to'] };
  }
  const table: Partial<Record<OrderStatus, OrderStatus[]>> = {};
  for (const [from, tos] of Object.entries(json)) {
    if (!isOrderStatus(from)) {
      problems.push(`has unknown status "${from}" (known: ${known})`);
      continue;
    }
    if (!Array.isArray(tos)) {
      problems.push(`"${from}" must map to an array of statuses`);
      continue;
    }
    for (const to of tos) {
      if (!isOrderStatus(to)) problems.push(`"${from}" lists unknown status ${JSON.stringify(to)} (known: ${known})`);
      else if (to === from) problems.push(`"${from}" lists itself; setting the current status is always a no-op`);
    }
    table[from] = tos.filter(isOrderStatus).filter((to) => to !== from);
  }
  return { table, problems };
};

const readTransitions = (path: string, problems: string[]): TransitionTable => {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code ?? 'not valid JSON';
    problems.push(`ORDER_TRANSITIONS_FILE ${path} cannot be read (${reason})`);
    return {};
  }
  const parsed = parseTransitionTable(json);
  problems.push(...parsed.problems.map((p) => `ORDER_TRANSITIONS_FILE ${path} ${p}`));
  return parsed.table;
};
