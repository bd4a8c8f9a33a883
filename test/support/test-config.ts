import { HEAVY_REQUEST_BOUNDS } from '../../src/adapters/system/heavy-request-turns';
import type { Config } from '../../src/bootstrap/config';

export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789';

/** CREDENTIALS_KEY of the tests that connect ad accounts: 32 bytes in hex. */
export const TEST_CREDENTIALS_KEY = Buffer.from('0f1e2d3c4b5a69788796a5b4c3d2e1f00112233445566778899aabbccddeeff0', 'hex');

/** Nothing listens on port 9 of loopback: a test that forgets to play a platform reaches none. */
const NO_PLATFORM = 'http://127.0.0.1:9';

/**
 * A configuration for in-process services: a free port, no logs, an admin token, and the in-memory
 * store (MongoDB when the changes give a URI) unless the test passes its own storage. Webhooks may go
 * to the tests' receivers on loopback (plain HTTP), are retried at once, twice, and polled for often.
 */
export const testConfig = (changes: Partial<Config> = {}): Config => ({
  port: 0,
  host: '127.0.0.1',
  store: changes.mongodbUri === undefined ? 'memory' : 'mongodb',
  sqlitePath: 'data/orders.db',
  adminToken: TEST_ADMIN_TOKEN,
  console: true,
  batchBodyLimitBytes: 4 * 1024 * 1024,
  heavyRequests: HEAVY_REQUEST_BOUNDS,
  rateLimitMax: 600,
  rateLimitWindowSeconds: 60,
  idempotencyTtlSeconds: 86_400,
  idempotencyLeaseSeconds: 10,
  transitions: {},
  logLevel: 'silent',
  bodyLimitBytes: 256 * 1024,
  shutdownTimeoutMs: 2_000,
  shutdownReadinessDelayMs: 0,
  trustProxy: 0,
  http: {
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 30_000,
    keepAliveTimeoutMs: 5_000,
    maxConnections: 1_000,
    maxConnectionsPerAddress: 1_000,
  },
  webhooks: { timeoutMs: 5_000, retrySchedule: [0, 0], allowPrivateUrls: true, concurrency: 8, pollIntervalMs: 200 },
  ads: {
    metaApiUrl: NO_PLATFORM,
    googleAdsApiUrl: NO_PLATFORM,
    googleOAuthUrl: `${NO_PLATFORM}/token`,
    tiktokApiUrl: NO_PLATFORM,
    syncConcurrency: 4,
    pollIntervalMs: 200,
    timeoutMs: 5_000,
    conversionConcurrency: 8,
    conversionPollIntervalMs: 200,
    conversionRetrySchedule: [0, 0],
  },
  ...changes,
});
