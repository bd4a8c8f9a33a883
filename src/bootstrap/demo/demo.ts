// First: an older Node stops here with one line, before a native module can crash it.
import '../node-preflight';
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { asyncFileDestination } from '../../adapters/logging/log-destinations';
import { PinoLogger } from '../../adapters/logging/pino-logger';
import { dateInZone, startOfDate } from '../../domain/time-zone';
import { compose, configuredWiring } from '../composition';
import { loadConfig } from '../config';
import { openStorage } from '../open-storage';
import { startService, type RunningService } from '../service';
import { startDemoDay } from './demo-live';
import { startDemoReceiver } from './demo-receiver';
import { connectDemoAdAccount, readByDemoAccount } from './demo-ad-account';
import { startDemoAdPlatform } from './demo-ad-platform';
import { planDemo } from './demo-plan';
import { DEMO_DAYS, DEMO_OWNER_EMAIL, DEMO_SEED, DEMO_ZONE, seedDemo } from './demo-seed';
import { DEMO_SOURCE_DAYS, seedDemoSource } from './demo-source';

/** The usual paths of an order: paid or refused at the checkout, then perhaps refunded or charged back. */
const TRANSITIONS = { pending: ['paid', 'refused'], paid: ['refunded', 'chargedback'] };

/** A path as the person who typed `npm run demo` would write it. */
const shown = (path: string): string => (relative(process.cwd(), path).startsWith('..') ? path : relative(process.cwd(), path));

const say = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

/**
 * `npm run demo`: the service with a demo dashboard, on data of its own in DEMO_DIR (`demo-data`),
 * made again from nothing on every run so that its 90 days end yesterday. The rest of the environment
 * is read as `npm start` reads it (PORT, HOST, ...), but the store is always that folder's SQLite file.
 */
const main = async (): Promise<void> => {
  const dir = resolve(process.env['DEMO_DIR'] ?? 'demo-data');
  const sqlitePath = join(dir, 'orders.sqlite');
  const transitionsFile = join(dir, 'transitions.json');
  for (const file of [sqlitePath, `${sqlitePath}-wal`, `${sqlitePath}-shm`, transitionsFile]) rmSync(file, { force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(transitionsFile, `${JSON.stringify(TRANSITIONS, null, 2)}\n`);

  const now = new Date();
  const today = dateInZone(now.getTime(), DEMO_ZONE);
  const yesterday = new Date(startOfDate(today, 'UTC') - 86_400_000).toISOString().slice(0, 10);
  // The Meta account the demo connects is played on loopback from the Facebook spend of its plan.
  const facebook = planDemo({ lastDay: yesterday, zone: DEMO_ZONE, days: DEMO_DAYS, seed: DEMO_SEED }).spend.filter(
    readByDemoAccount(today),
  );
  const meta = await startDemoAdPlatform(facebook, 'BRL', DEMO_ZONE);
  const loaded = loadConfig({
    LOG_LEVEL: 'warn',
    // Its credentials are encrypted with a key of this run's own, unless one is set: the data is made again on every run.
    CREDENTIALS_KEY: randomBytes(32).toString('base64'),
    ...process.env,
    META_API_URL: meta.url,
    STORE: 'sqlite',
    MONGODB_URI: '',
    SQLITE_PATH: sqlitePath,
    ORDER_TRANSITIONS_FILE: transitionsFile,
    // The demo's receiver is on loopback, which the outbound rules refuse otherwise.
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    CONSOLE: 'on',
  });
  if (!loaded.ok) {
    for (const problem of loaded.problems) process.stderr.write(`invalid configuration: ${problem}\n`);
    process.exit(1);
  }
  const { config } = loaded;
  const logger = new PinoLogger(config.logLevel, asyncFileDestination());
  const receiver = await startDemoReceiver();
  const storage = await openStorage(config, logger);
  const { useCases } = compose({ ...configuredWiring(config), storage });

  const password = process.env['ORDERS_PASSWORD'] ?? randomBytes(18).toString('base64url');
  const started = performance.now();
  const { dashboard, plan } = await seedDemo(useCases, {
    lastDay: yesterday,
    ownerPassword: password,
    readByAdAccount: readByDemoAccount(today),
  });
  await connectDemoAdAccount(useCases, dashboard.id);
  const source = await seedDemoSource(useCases, { dashboardId: dashboard.id, lastDay: yesterday, zone: DEMO_ZONE, seed: DEMO_SEED });
  await startDemoDay(useCases, dashboard.id, receiver.url, plan.orders.length, now);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);

  let service: RunningService;
  try {
    service = await startService(config, { logger, storage });
  } catch (err) {
    process.stderr.write(
      `demo: the service cannot start on ${config.host}:${config.port} (${err instanceof Error ? err.message : String(err)}); PORT=0 picks a free port\n`,
    );
    await receiver.close();
    await meta.close();
    process.exit(1);
  }
  const stop = (): void => {
    service
      .stop()
      .then(() => Promise.all([receiver.close(), meta.close()]))
      .then(
        () => process.exit(0),
        (err: unknown) => {
          process.stderr.write(`demo: stopping failed (${err instanceof Error ? err.name : typeof err})\n`);
          process.exit(1);
        },
      );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  say(
    `Demo dashboard "${dashboard.name}": ${plan.orders.length} orders from ${plan.firstDay} to ${plan.lastDay} and a few today, spend on ${new Set(plan.spend.map((s) => s.utmCampaign)).size} campaigns, and ${DEMO_SOURCE_DAYS} more from the source "${source.name}" (Shopify); seeded in ${seconds} s into ${shown(sqlitePath)} (made again on every run)`,
  );
  say(`Console:  ${service.url}/console`);
  say(`Email:    ${DEMO_OWNER_EMAIL}`);
  say(`Password: ${password}`);
  say(`Ad accounts: "Meta (demo)" reads the Facebook spend of the last 28 days from a Meta played at ${meta.url}.`);
  say(`Webhooks go to ${receiver.url}, a receiver the demo runs (Webhooks in the console shows the deliveries). Ctrl-C stops.`);
};

main().catch((err: unknown) => {
  process.stderr.write(`demo failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
