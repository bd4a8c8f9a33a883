import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { ORDER_STATUSES } from '../../src/domain/order-status';
import { MAIN_JS } from '../../test/bootstrap/service-process';
import { anOrderPayload } from '../../test/support/order-builder';
import { ServerProcess } from './processes';

/**
 * Node's flags for the service, as `npm start`, the Dockerfile and docs/operations.md's production command
 * give them: V8's young generation capped at 2 × 16 MB (docs/operations.md, "Memory").
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=16'];

/** BENCH_SERVICE_FLAGS adds Node flags to the service processes alone, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`. */
const serviceFlags = (): readonly string[] => [
  ...SERVICE_NODE_FLAGS,
  ...(process.env['BENCH_SERVICE_FLAGS'] ?? '').split(' ').filter((flag) => flag !== ''),
];
export const CLI_JS = resolve(__dirname, '../../src/bootstrap/cli.js');
export const ADMIN_TOKEN = 'field-bench-admin-token-0123456789';

/** The orders of the 1,000-order dashboards are `seed-0` … `seed-999` on every store. */
export const SEEDED_PREFIX = 'seed-';
export const SEEDED_COUNT = 1_000;

export interface ServiceTokens {
  /** A dashboard without orders. */
  readonly empty?: string;
  /** A dashboard of 1,000 orders: GET list, GET one, PATCH. */
  readonly thousand: string;
  /** The dashboard the POSTs go to (it grows through the run). */
  readonly writes?: string;
  /** The dashboard of 1,000,000 orders (the cached SQLite file). */
  readonly million?: string;
}

export interface Probe {
  readonly available: boolean;
  readonly note: string;
}

export interface ServiceTarget {
  readonly name: string;
  readonly server: ServerProcess;
  readonly tokens: ServiceTokens;
  /** The path of a saved short link (`GET /l/{slug}`), when the build has links. */
  readonly link: Probe & { readonly path?: string; readonly destination?: string };
  readonly tracker: Probe;
}

/** One command of the CLI on a SQLite file; its JSON answer. */
export const cli = (sqlitePath: string, args: readonly string[], cliJs = CLI_JS): Promise<Record<string, any>> =>
  new Promise((done, fail) => {
    execFile(
      process.execPath,
      [cliJs, ...args],
      { env: { PATH: process.env['PATH'] ?? '', SQLITE_PATH: sqlitePath }, timeout: 30_000 },
      (err, stdout, stderr) => {
        if (err !== null) return fail(new Error(`cli ${args.join(' ')} failed: ${stderr.trim() || err.message}`));
        done(JSON.parse(stdout) as Record<string, any>);
      },
    );
  });

/** A dashboard and a token for it through the CLI on the file; resolves the dashboard id and the plain token. */
export const cliDashboard = async (sqlitePath: string, name: string, cliJs = CLI_JS): Promise<{ dashboardId: string; token: string }> => {
  const dashboard = await cli(sqlitePath, ['dashboards', 'create', '--name', name], cliJs);
  const token = await cli(sqlitePath, ['tokens', 'create', '--dashboard', dashboard['dashboard'].id, '--name', 'field bench'], cliJs);
  return { dashboardId: dashboard['dashboard'].id, token: token['token'].token };
};

const request = async (url: string, method: string, token: string | undefined, body?: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(url, {
    method,
    redirect: 'manual',
    signal: AbortSignal.timeout(15_000),
    headers: {
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
};

/** A dashboard and a token for it through the admin API (ADMIN_TOKEN). */
const adminDashboard = async (baseUrl: string, name: string): Promise<string> => {
  const dashboard = await request(`${baseUrl}/admin/v1/dashboards`, 'POST', ADMIN_TOKEN, { name });
  if (dashboard.status !== 201) throw new Error(`POST /admin/v1/dashboards answered ${dashboard.status}: ${dashboard.text}`);
  const id = (JSON.parse(dashboard.text) as { dashboard: { id: string } }).dashboard.id;
  const token = await request(`${baseUrl}/admin/v1/dashboards/${id}/tokens`, 'POST', ADMIN_TOKEN, { name: 'field bench' });
  if (token.status !== 201) throw new Error(`POST /admin/v1/dashboards/${id}/tokens answered ${token.status}: ${token.text}`);
  return (JSON.parse(token.text) as { token: { token: string } }).token.token;
};

/**
 * POSTs `seed-0` … `seed-999` to the dashboard, 16 at a time, their createdAt spread over two years
 * and their statuses over every status, so that the page is a real one.
 */
export const seedOverHttp = async (baseUrl: string, token: string): Promise<void> => {
  const start = Date.UTC(2024, 0, 1);
  const step = Math.floor((2 * 365 * 86_400_000) / SEEDED_COUNT);
  let next = 0;
  const failures: string[] = [];
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < SEEDED_COUNT) {
        const i = next++;
        const createdAt = new Date(start + i * step + (i % 7) * 60_000).toISOString().replace('.000Z', 'Z');
        const body = anOrderPayload({ externalId: `${SEEDED_PREFIX}${i}`, createdAt, status: ORDER_STATUSES[i % ORDER_STATUSES.length] });
        const answer = await request(`${baseUrl}/api/v1/orders`, 'POST', token, body);
        if (answer.status !== 201) failures.push(`${answer.status} ${answer.text.slice(0, 200)}`);
      }
    }),
  );
  if (failures.length > 0) throw new Error(`seeding 1,000 orders: ${failures.length} failed, first: ${failures[0]}`);
};

/**
 * Whether this build has the short links and the tracker script (other branches are adding them): a
 * 404 means "not available on this build". For the links, a saved link is made through
 * `POST /api/v1/links` and its `link.shortUrl` followed once, without following the redirect.
 */
export const probeExtras = async (baseUrl: string, token: string): Promise<{ link: ServiceTarget['link']; tracker: Probe }> => {
  const tracker = await request(`${baseUrl}/tracker.js`, 'GET', undefined);
  const trackerProbe: Probe =
    tracker.status === 200
      ? { available: true, note: `GET /tracker.js: 200, ${Buffer.byteLength(tracker.text)} bytes` }
      : {
          available: false,
          note:
            tracker.status === 404
              ? 'GET /tracker.js: 404, not available on this build'
              : `GET /tracker.js answered ${tracker.status}: skipped`,
        };

  const destination = 'https://shop.example.com/black-friday?ref=field-bench';
  const made = await request(`${baseUrl}/api/v1/links`, 'POST', token, {
    destinationUrl: destination,
    utmSource: 'newsletter',
    utmMedium: 'email',
    utmCampaign: 'black-friday',
  });
  if (made.status === 404)
    return { tracker: trackerProbe, link: { available: false, note: 'POST /api/v1/links: 404, not available on this build' } };
  if (made.status !== 201 && made.status !== 200) {
    return {
      tracker: trackerProbe,
      link: { available: false, note: `POST /api/v1/links answered ${made.status}: ${made.text.slice(0, 200)}; skipped` },
    };
  }
  let path: string;
  try {
    const shortUrl = (JSON.parse(made.text) as { link: { shortUrl: string } }).link.shortUrl;
    const parsed = new URL(shortUrl, baseUrl);
    path = parsed.pathname + parsed.search;
  } catch {
    return {
      tracker: trackerProbe,
      link: { available: false, note: `POST /api/v1/links: no link.shortUrl in ${made.text.slice(0, 200)}; skipped` },
    };
  }
  const followed = await request(`${baseUrl}${path}`, 'GET', undefined);
  if (followed.status < 300 || followed.status >= 400) {
    const why = followed.status === 404 ? 'not available on this build' : 'skipped';
    return { tracker: trackerProbe, link: { available: false, note: `GET ${path}: ${followed.status}, ${why}` } };
  }
  return {
    tracker: trackerProbe,
    link: { available: true, path, destination: followed.headers.get('location') ?? destination, note: `GET ${path}: ${followed.status}` },
  };
};

const COMMON_ENV = {
  LOG_LEVEL: process.env['BENCH_LOG_LEVEL'] ?? 'info',
  // The limiter counts every request, and never refuses one.
  RATE_LIMIT_MAX: '1000000000',
};

/**
 * The service on a fresh SQLite file (the default store); dashboards and tokens through the CLI on the
 * file. `build` is another build's `dist` folder (BENCH_OTHER_BUILD), measured beside this one.
 */
export const startSqlite = async (sqlitePath: string, name = 'sqlite', build?: string): Promise<ServiceTarget> => {
  const cliJs = build === undefined ? CLI_JS : resolve(build, 'src/bootstrap/cli.js');
  const empty = await cliDashboard(sqlitePath, 'field bench: empty', cliJs);
  const thousand = await cliDashboard(sqlitePath, 'field bench: 1,000 orders', cliJs);
  const writes = await cliDashboard(sqlitePath, 'field bench: writes', cliJs);
  const mainJs = build === undefined ? MAIN_JS : resolve(build, 'src/bootstrap/main.js');
  const server = await ServerProcess.start(name, mainJs, { ...COMMON_ENV, SQLITE_PATH: sqlitePath }, serviceFlags());
  await seedOverHttp(server.url, thousand.token);
  const tokens = { empty: empty.token, thousand: thousand.token, writes: writes.token };
  return { name, server, tokens, ...(await probeExtras(server.url, writes.token)) };
};

/** The service on the in-memory store, or on a throwaway MongoDB database; dashboards and tokens through the admin API. */
export const startWithAdminApi = async (name: string, env: Record<string, string>): Promise<ServiceTarget> => {
  const server = await ServerProcess.start(name, MAIN_JS, { ...COMMON_ENV, ...env, ADMIN_TOKEN }, serviceFlags());
  const tokens = {
    empty: await adminDashboard(server.url, 'field bench: empty'),
    thousand: await adminDashboard(server.url, 'field bench: 1,000 orders'),
    writes: await adminDashboard(server.url, 'field bench: writes'),
  };
  await seedOverHttp(server.url, tokens.thousand);
  return { name, server, tokens, ...(await probeExtras(server.url, tokens.writes)) };
};

/** The service on the cached 1,000,000-order SQLite file (listings only: nothing is added to the cache but rate-limit counts). */
export const startMillion = async (sqlitePath: string, tokens: { million: string; thousand: string }): Promise<ServiceTarget> => {
  const server = await ServerProcess.start('sqlite, 1M file', MAIN_JS, { ...COMMON_ENV, SQLITE_PATH: sqlitePath }, serviceFlags());
  const none: Probe = { available: false, note: 'not run on the 1M file' };
  return { name: 'sqlite, 1M file', server, tokens, link: none, tracker: none };
};
