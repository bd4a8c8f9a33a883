import { LOG_LEVELS } from '../adapters/logging/pino-logger';
import { credentialsKeyOf } from '../adapters/system/aes-gcm-credential-vault';
import { baseUrl, booleanText, intText, proxyHops, secondsList, text } from './config-codecs';

/** Which store holds the data (decision 0015). */
export const STORES = ['sqlite', 'mongodb', 'memory'] as const;
export type Store = (typeof STORES)[number];

/** decision 0012: 8 attempts over about 27 h. */
export const DEFAULT_RETRY_SCHEDULE: readonly number[] = [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000];

/** Each variable, its codec and its default; an unset or empty variable takes the default. */
export const VARIABLES = {
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
  BATCH_BODY_LIMIT_BYTES: { codec: intText('bytes', 1024, 64 * 1024 * 1024), fallback: String(4 * 1024 * 1024) },
  HEAVY_REQUESTS_PER_DASHBOARD: { codec: intText('requests', 1, 1_000), fallback: '1' },
  HEAVY_REQUEST_QUEUE: { codec: intText('requests', 0, 1_000), fallback: '2' },
  HEAVY_BODY_BYTES: { codec: intText('bytes', 1024, 64 * 1024 * 1024), fallback: String(64 * 1024) },
  HEAVY_TURN_REST: { codec: intText('times the time held', 0, 10), fallback: '1' },
  SHUTDOWN_TIMEOUT_MS: { codec: intText('ms', 0, 600_000), fallback: '10000' },
  SHUTDOWN_READINESS_DELAY_MS: { codec: intText('ms', 0, 600_000), fallback: '0' },
  METRICS_PORT: { codec: intText('port', 0, 65535), fallback: undefined },
  METRICS_HOST: { codec: text('host', (s) => s.length > 0, 'must not be empty'), fallback: undefined },
  HTTP_HEADERS_TIMEOUT_MS: { codec: intText('ms', 100, 600_000), fallback: '10000' },
  HTTP_REQUEST_TIMEOUT_MS: { codec: intText('ms', 100, 3_600_000), fallback: '30000' },
  HTTP_KEEP_ALIVE_TIMEOUT_MS: { codec: intText('ms', 1, 600_000), fallback: '5000' },
  HTTP_MAX_CONNECTIONS: { codec: intText('connections', 1, 1_000_000), fallback: '1000' },
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: { codec: intText('connections', 1, 1_000_000), fallback: '100' },
  WEBHOOK_TIMEOUT_MS: { codec: intText('ms', 100, 600_000), fallback: '15000' },
  WEBHOOK_RETRY_SCHEDULE: { codec: secondsList, fallback: DEFAULT_RETRY_SCHEDULE.join(',') },
  WEBHOOK_ALLOW_PRIVATE_URLS: { codec: booleanText, fallback: 'false' },
  WEBHOOK_CONCURRENCY: { codec: intText('attempts', 1, 1_000), fallback: '16' },
  WEBHOOK_POLL_INTERVAL_MS: { codec: intText('ms', 10, 600_000), fallback: '1000' },
  PUBLIC_BASE_URL: { codec: baseUrl, fallback: undefined },
  TRUST_PROXY: { codec: proxyHops, fallback: 'off' },
  CREDENTIALS_KEY: {
    codec: text(
      'key',
      (s) => credentialsKeyOf(s) !== undefined,
      'must be 32 random bytes as 64 hexadecimal digits or in base64 (openssl rand -base64 32)',
    ),
    fallback: undefined,
  },
  META_API_URL: { codec: baseUrl, fallback: 'https://graph.facebook.com' },
  GOOGLE_ADS_API_URL: { codec: baseUrl, fallback: 'https://googleads.googleapis.com' },
  GOOGLE_OAUTH_URL: { codec: baseUrl, fallback: 'https://oauth2.googleapis.com/token' },
  TIKTOK_API_URL: { codec: baseUrl, fallback: 'https://business-api.tiktok.com' },
  AD_SYNC_CONCURRENCY: { codec: intText('syncs', 1, 100), fallback: '4' },
  AD_SYNC_POLL_INTERVAL_MS: { codec: intText('ms', 10, 600_000), fallback: '10000' },
  AD_PLATFORM_TIMEOUT_MS: { codec: intText('ms', 100, 600_000), fallback: '30000' },
  AD_CONVERSIONS_CONCURRENCY: { codec: intText('requests', 1, 1_000), fallback: '8' },
  AD_CONVERSIONS_POLL_INTERVAL_MS: { codec: intText('ms', 10, 600_000), fallback: '1000' },
  AD_CONVERSIONS_RETRY_SCHEDULE: { codec: secondsList, fallback: DEFAULT_RETRY_SCHEDULE.join(',') },
  CONSOLE: {
    codec: text('console', (s) => s === 'on' || s === 'off', 'must be on or off'),
    fallback: 'on',
  },
} as const;
