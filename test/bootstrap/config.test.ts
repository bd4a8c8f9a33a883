import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { loadConfig, type Config, type Env } from '../../src/bootstrap/config';

const ok = (env: Env): Config => {
  const loaded = loadConfig(env);
  if (!loaded.ok) throw new Error(`unexpected problems: ${loaded.problems.join('; ')}`);
  return loaded.config;
};

const problems = (env: Env): string[] => {
  const loaded = loadConfig(env);
  if (loaded.ok) throw new Error('configuration was accepted');
  return loaded.problems;
};

/** Environment variables of decision 0010. */
describe('loadConfig', () => {
  it('has the defaults of decision 0010 for an empty environment', () => {
    const config = ok({});
    expect(config).to.deep.include({
      port: 3000,
      host: '127.0.0.1',
      rateLimitMax: 600,
      rateLimitWindowSeconds: 60,
      transitions: {},
      logLevel: 'info',
      bodyLimitBytes: 256 * 1024,
      batchBodyLimitBytes: 4 * 1024 * 1024,
      console: true,
    });
    expect(config.mongodbUri).to.equal(undefined);
    expect(config.mongodbDb).to.equal(undefined);
    expect(config.adminToken).to.equal(undefined);
    expect(config.transitionsFile).to.equal(undefined);
  });

  describe('webhooks (decision 0012)', () => {
    it('default to a 15 s timeout, the schedule of decision 0012, https to public addresses only, 16 attempts in flight and a 1 s poll', () => {
      expect(ok({}).webhooks).to.deep.equal({
        timeoutMs: 15_000,
        retrySchedule: [5, 300, 1800, 7200, 18000, 36000, 36000],
        allowPrivateUrls: false,
        concurrency: 16,
        pollIntervalMs: 1_000,
      });
    });

    it('read WEBHOOK_TIMEOUT_MS, WEBHOOK_RETRY_SCHEDULE, WEBHOOK_ALLOW_PRIVATE_URLS, WEBHOOK_CONCURRENCY and WEBHOOK_POLL_INTERVAL_MS', () => {
      expect(
        ok({
          WEBHOOK_TIMEOUT_MS: '2500',
          WEBHOOK_RETRY_SCHEDULE: '0, 1,2',
          WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
          WEBHOOK_CONCURRENCY: '4',
          WEBHOOK_POLL_INTERVAL_MS: '50',
        }).webhooks,
      ).to.deep.equal({ timeoutMs: 2_500, retrySchedule: [0, 1, 2], allowPrivateUrls: true, concurrency: 4, pollIntervalMs: 50 });
    });

    it('refuse bad values, one line per variable', () => {
      expect(
        problems({
          WEBHOOK_TIMEOUT_MS: '50',
          WEBHOOK_RETRY_SCHEDULE: '5,-1',
          WEBHOOK_ALLOW_PRIVATE_URLS: 'yes',
          WEBHOOK_CONCURRENCY: '0',
          WEBHOOK_POLL_INTERVAL_MS: 'soon',
        }),
      ).to.deep.equal([
        'WEBHOOK_TIMEOUT_MS must be an integer from 100 to 600000',
        'WEBHOOK_RETRY_SCHEDULE must be 1 to 20 comma-separated whole numbers of seconds, each at most 86400',
        'WEBHOOK_ALLOW_PRIVATE_URLS must be true or false',
        'WEBHOOK_CONCURRENCY must be an integer from 1 to 1000',
        'WEBHOOK_POLL_INTERVAL_MS must be an integer from 10 to 600000',
      ]);
      expect(problems({ WEBHOOK_RETRY_SCHEDULE: Array(21).fill('1').join(',') })).to.have.length(1);
      expect(problems({ WEBHOOK_RETRY_SCHEDULE: '86401' })).to.have.length(1);
      expect(problems({ WEBHOOK_RETRY_SCHEDULE: '1,,2' })).to.have.length(1);
    });
  });

  describe('the store (decision 0015)', () => {
    it('is SQLite at data/orders.db when neither STORE nor MONGODB_URI is set', () => {
      expect(ok({})).to.deep.include({ store: 'sqlite', sqlitePath: 'data/orders.db' });
    });

    it('is MongoDB when MONGODB_URI is set', () => {
      expect(ok({ MONGODB_URI: 'mongodb://db:27017/shop' }).store).to.equal('mongodb');
      expect(ok({ MONGODB_URI: 'mongodb://db:27017/shop', STORE: 'mongodb' }).store).to.equal('mongodb');
    });

    it('is the one STORE names, and the file SQLITE_PATH names', () => {
      expect(ok({ STORE: 'memory' }).store).to.equal('memory');
      expect(ok({ STORE: 'sqlite', SQLITE_PATH: '/var/lib/orders/shop.db' })).to.deep.include({
        store: 'sqlite',
        sqlitePath: '/var/lib/orders/shop.db',
      });
    });

    it('refuses STORE=sqlite or STORE=memory with MONGODB_URI set, in one line naming both', () => {
      for (const store of ['sqlite', 'memory']) {
        expect(problems({ STORE: store, MONGODB_URI: 'mongodb://db:27017/shop' })).to.deep.equal([
          `STORE=${store} contradicts MONGODB_URI, which selects MongoDB: unset one of them`,
        ]);
      }
    });

    it('refuses STORE=mongodb without MONGODB_URI', () => {
      expect(problems({ STORE: 'mongodb' })).to.deep.equal(['STORE=mongodb needs MONGODB_URI']);
      expect(problems({ STORE: 'mongodb', MONGODB_URI: '' })).to.deep.equal(['STORE=mongodb needs MONGODB_URI']);
    });

    it('refuses an unknown store in one line naming STORE and the known ones', () => {
      expect(problems({ STORE: 'disk' })).to.deep.equal(['STORE must be one of sqlite, mongodb, memory']);
    });
  });

  it('reads every variable', () => {
    const config = ok({
      PORT: '8080',
      HOST: '0.0.0.0',
      MONGODB_URI: 'mongodb://db:27017/shop',
      MONGODB_DB: 'orders_test',
      ADMIN_TOKEN: 'a-very-long-admin-secret',
      RATE_LIMIT_MAX: '10',
      RATE_LIMIT_WINDOW_SECONDS: '5',
      LOG_LEVEL: 'warn',
      BODY_LIMIT_BYTES: '2048',
    });
    expect(config).to.deep.include({
      port: 8080,
      host: '0.0.0.0',
      mongodbUri: 'mongodb://db:27017/shop',
      mongodbDb: 'orders_test',
      adminToken: 'a-very-long-admin-secret',
      rateLimitMax: 10,
      rateLimitWindowSeconds: 5,
      logLevel: 'warn',
      bodyLimitBytes: 2048,
    });
  });

  it('treats an empty variable as unset', () => {
    const config = ok({
      PORT: '',
      HOST: '',
      MONGODB_URI: '',
      ADMIN_TOKEN: '',
      RATE_LIMIT_MAX: '',
      LOG_LEVEL: '',
      ORDER_TRANSITIONS_FILE: '',
    });
    expect(config.port).to.equal(3000);
    expect(config.host).to.equal('127.0.0.1');
    expect(config.mongodbUri).to.equal(undefined);
    expect(config.adminToken).to.equal(undefined);
    expect(config.rateLimitMax).to.equal(600);
    expect(config.logLevel).to.equal('info');
    expect(config.transitions).to.deep.equal({});
  });

  const bad: [string, string][] = [
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['PORT', '80.5'],
    ['MONGODB_URI', 'http://localhost:27017'],
    ['MONGODB_DB', 'bad/name'],
    ['ADMIN_TOKEN', 'short'],
    ['RATE_LIMIT_MAX', '0'],
    ['RATE_LIMIT_MAX', 'many'],
    ['RATE_LIMIT_WINDOW_SECONDS', '-5'],
    ['LOG_LEVEL', 'verbose'],
    ['BODY_LIMIT_BYTES', '1kb'],
  ];
  for (const [name, value] of bad) {
    it(`gives one problem line naming ${name} for ${name}=${value}`, () => {
      const lines = problems({ [name]: value });
      expect(lines).to.have.length(1);
      expect(lines[0]).to.include(name);
      expect(lines[0]).not.to.include('\n');
    });
  }

  it('gives one line per bad variable, all at once', () => {
    const lines = problems({ PORT: 'abc', LOG_LEVEL: 'loud', RATE_LIMIT_MAX: 'x' });
    expect(lines).to.have.length(3);
    for (const name of ['PORT', 'LOG_LEVEL', 'RATE_LIMIT_MAX']) expect(lines.filter((l) => l.includes(name))).to.have.length(1);
  });

  it('never puts the admin secret in a problem line', () => {
    const lines = problems({ ADMIN_TOKEN: 'has a space secret-value-1234' });
    expect(lines.join('\n')).to.include('ADMIN_TOKEN');
    expect(lines.join('\n')).not.to.include('secret-value-1234');
  });

  describe('the ad platforms', () => {
    it('reaches the platforms at their own addresses, with no key, unless told otherwise', () => {
      expect(ok({}).ads).to.deep.equal({
        metaApiUrl: 'https://graph.facebook.com',
        googleAdsApiUrl: 'https://googleads.googleapis.com',
        googleOAuthUrl: 'https://oauth2.googleapis.com/token',
        tiktokApiUrl: 'https://business-api.tiktok.com',
        syncConcurrency: 4,
        pollIntervalMs: 10_000,
        timeoutMs: 30_000,
        conversionConcurrency: 8,
        conversionPollIntervalMs: 1_000,
        conversionRetrySchedule: [5, 300, 1800, 7200, 18000, 36000, 36000],
      });
      expect(ok({ AD_CONVERSIONS_RETRY_SCHEDULE: '1,2', AD_CONVERSIONS_CONCURRENCY: '2' }).ads).to.deep.include({
        conversionRetrySchedule: [1, 2],
        conversionConcurrency: 2,
      });
      const set = ok({ META_API_URL: 'http://127.0.0.1:4000/meta/', CREDENTIALS_KEY: 'ab'.repeat(32), AD_SYNC_CONCURRENCY: '2' }).ads;
      expect(set.metaApiUrl).to.equal('http://127.0.0.1:4000/meta');
      expect(set.credentialsKey).to.deep.equal(Buffer.from('ab'.repeat(32), 'hex'));
      expect(ok({ CREDENTIALS_KEY: Buffer.alloc(32, 9).toString('base64') }).ads.credentialsKey).to.deep.equal(Buffer.alloc(32, 9));
    });

    it('stops at a key that is not 32 bytes, naming the setting and how to make one, never the value', () => {
      const lines = problems({
        CREDENTIALS_KEY: 'too-short-secret-key',
        TIKTOK_API_URL: 'business-api.tiktok.com',
        AD_SYNC_CONCURRENCY: '0',
      });
      expect(lines).to.have.length(3);
      expect(lines[0]).to.match(/^CREDENTIALS_KEY must be 32 random bytes .*openssl rand -base64 32/);
      expect(lines.join('\n')).to.not.contain('too-short-secret-key');
      expect(lines.join('\n')).to.contain('TIKTOK_API_URL').and.contain('AD_SYNC_CONCURRENCY');
    });
  });

  describe('ORDER_TRANSITIONS_FILE', () => {
    let dir: string;
    const file = (name: string, content: string): string => {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    };

    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'transitions-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('reads a valid file into the transition table', () => {
      const path = file('ok.json', JSON.stringify({ pending: ['paid', 'refused'], paid: ['refunded', 'chargedback'] }));
      const config = ok({ ORDER_TRANSITIONS_FILE: path });
      expect(config.transitions).to.deep.equal({ pending: ['paid', 'refused'], paid: ['refunded', 'chargedback'] });
      expect(config.transitionsFile).to.equal(path);
    });

    const broken: [string, string, string][] = [
      ['an unknown status on the left', '{ "pendng": ["paid"] }', 'pendng'],
      ['an unknown status on the right', '{ "pending": ["payed"] }', 'payed'],
      ['bad JSON', '{ "pending": ["paid"], ', ''],
      ['an array instead of an object', '[["pending", "paid"]]', ''],
      ['a status mapped to a string', '{ "pending": "paid" }', 'pending'],
    ];
    for (const [name, content, named] of broken) {
      it(`stops the start for ${name}, naming the variable`, () => {
        const lines = problems({ ORDER_TRANSITIONS_FILE: file('bad.json', content) });
        expect(lines).to.have.length(1);
        expect(lines[0]).to.include('ORDER_TRANSITIONS_FILE');
        expect(lines[0]).to.include(named);
      });
    }

    it('stops the start for a file that does not exist', () => {
      const lines = problems({ ORDER_TRANSITIONS_FILE: join(dir, 'missing.json') });
      expect(lines).to.have.length(1);
      expect(lines[0]).to.include('ORDER_TRANSITIONS_FILE');
    });

    it('reports a bad file together with other bad variables', () => {
      const lines = problems({ ORDER_TRANSITIONS_FILE: file('bad.json', '{ "nope": [] }'), PORT: 'x' });
      expect(lines).to.have.length(2);
    });
  });

  describe('HTTP timeouts and the connection cap', () => {
    it('defaults to 10 s for headers, 30 s for a request, 5 s of keep-alive and 1,000 connections', () => {
      expect(ok({}).http).to.deep.equal({
        headersTimeoutMs: 10_000,
        requestTimeoutMs: 30_000,
        keepAliveTimeoutMs: 5_000,
        maxConnections: 1_000,
        maxConnectionsPerAddress: 100,
      });
    });

    it('reads them', () => {
      const config = ok({
        HTTP_HEADERS_TIMEOUT_MS: '2000',
        HTTP_REQUEST_TIMEOUT_MS: '4000',
        HTTP_KEEP_ALIVE_TIMEOUT_MS: '1000',
        HTTP_MAX_CONNECTIONS: '50',
        HTTP_MAX_CONNECTIONS_PER_ADDRESS: '20',
      });
      expect(config.http).to.deep.equal({
        headersTimeoutMs: 2_000,
        requestTimeoutMs: 4_000,
        keepAliveTimeoutMs: 1_000,
        maxConnections: 50,
        maxConnectionsPerAddress: 20,
      });
    });

    it('refuses timeouts that do not nest: keep-alive < headers <= request', () => {
      expect(
        problems({ HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '4000', HTTP_KEEP_ALIVE_TIMEOUT_MS: '1000' }),
      ).to.deep.equal(['HTTP_HEADERS_TIMEOUT_MS must not be greater than HTTP_REQUEST_TIMEOUT_MS']);
      expect(problems({ HTTP_KEEP_ALIVE_TIMEOUT_MS: '10000' })).to.deep.equal([
        'HTTP_KEEP_ALIVE_TIMEOUT_MS must be less than HTTP_HEADERS_TIMEOUT_MS',
      ]);
    });

    it('caps the connections of one address at 100 by default, never above the cap of all', () => {
      expect(problems({ HTTP_MAX_CONNECTIONS: '50' })).to.deep.equal([
        'HTTP_MAX_CONNECTIONS_PER_ADDRESS must not be greater than HTTP_MAX_CONNECTIONS',
      ]);
      expect(ok({ HTTP_MAX_CONNECTIONS: '50', HTTP_MAX_CONNECTIONS_PER_ADDRESS: '50' }).http.maxConnectionsPerAddress).to.equal(50);
      expect(problems({ HTTP_MAX_CONNECTIONS_PER_ADDRESS: '0' })).to.deep.equal([
        'HTTP_MAX_CONNECTIONS_PER_ADDRESS must be an integer from 1 to 1000000',
      ]);
    });

    it('refuses values out of range, one line per variable', () => {
      expect(problems({ HTTP_MAX_CONNECTIONS: '0', HTTP_REQUEST_TIMEOUT_MS: 'soon' })).to.have.members([
        'HTTP_REQUEST_TIMEOUT_MS must be an integer from 100 to 3600000',
        'HTTP_MAX_CONNECTIONS must be an integer from 1 to 1000000',
      ]);
    });
  });

  describe('PUBLIC_BASE_URL (decision 0013)', () => {
    it('is unset by default: short links live under the address the service binds', () => {
      expect(ok({}).publicBaseUrl).to.equal(undefined);
      expect(ok({ PUBLIC_BASE_URL: '' }).publicBaseUrl).to.equal(undefined);
    });

    it('is kept without its trailing slashes, the host in ASCII and lowercase, a default port dropped', () => {
      expect(ok({ PUBLIC_BASE_URL: 'https://go.example' }).publicBaseUrl).to.equal('https://go.example');
      expect(ok({ PUBLIC_BASE_URL: 'https://go.example/' }).publicBaseUrl).to.equal('https://go.example');
      expect(ok({ PUBLIC_BASE_URL: 'HTTPS://Bücher.Example:443/go//' }).publicBaseUrl).to.equal('https://xn--bcher-kva.example/go');
      expect(ok({ PUBLIC_BASE_URL: 'http://127.0.0.1:8080' }).publicBaseUrl).to.equal('http://127.0.0.1:8080');
    });

    it('refuses anything but an absolute http(s) URL without credentials, query or fragment, in one line', () => {
      const line =
        'PUBLIC_BASE_URL must be an absolute http or https URL without credentials, query or fragment, such as https://go.example';
      for (const value of [
        'go.example',
        'ftp://go.example',
        'https://go.example/?a=1',
        'https://go.example#x',
        'https://user:pw@go.example',
        'https://go example',
        'https://go.example:99999',
        'https://',
      ]) {
        expect(problems({ PUBLIC_BASE_URL: value }), value).to.deep.equal([line]);
      }
    });
  });

  describe('TRUST_PROXY (decision 0023)', () => {
    const proxied = { PUBLIC_BASE_URL: 'https://orders.example' };

    it('is off by default; on is one proxy, a number says how many', () => {
      expect(ok({}).trustProxy).to.equal(0);
      expect(ok({ ...proxied, TRUST_PROXY: 'off' }).trustProxy).to.equal(0);
      expect(ok({ ...proxied, TRUST_PROXY: '0' }).trustProxy).to.equal(0);
      expect(ok({ ...proxied, TRUST_PROXY: 'on' }).trustProxy).to.equal(1);
      expect(ok({ ...proxied, TRUST_PROXY: '2' }).trustProxy).to.equal(2);
    });

    it('refuses anything else in one line', () => {
      for (const value of ['yes', 'true', '6', '-1', '1.5', 'on,off'])
        expect(problems({ ...proxied, TRUST_PROXY: value }), value).to.deep.equal([
          'TRUST_PROXY must be off, on, or the number of proxies in front of the service (0 to 5)',
        ]);
    });

    it('needs PUBLIC_BASE_URL, the address people use', () => {
      expect(problems({ TRUST_PROXY: 'on' })).to.deep.equal([
        'TRUST_PROXY needs PUBLIC_BASE_URL: behind a proxy the service cannot tell the address people use',
      ]);
    });

    it('lifts the cap of connections per address to the cap of all, unless HTTP_MAX_CONNECTIONS_PER_ADDRESS is set', () => {
      expect(ok({ ...proxied, TRUST_PROXY: 'on' }).http.maxConnectionsPerAddress).to.equal(1000);
      expect(ok({ ...proxied, TRUST_PROXY: 'on', HTTP_MAX_CONNECTIONS: '50' }).http.maxConnectionsPerAddress).to.equal(50);
      expect(ok({ ...proxied, TRUST_PROXY: 'on', HTTP_MAX_CONNECTIONS_PER_ADDRESS: '20' }).http.maxConnectionsPerAddress).to.equal(20);
      expect(ok({ ...proxied }).http.maxConnectionsPerAddress).to.equal(100);
    });
  });
});
