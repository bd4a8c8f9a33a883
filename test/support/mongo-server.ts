import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import type { Logger } from '../../src/application/ports/logger';
import { connectMongoStorage, type MongoStorageOptions } from '../../src/adapters/mongodb/mongo-storage';
import type { Storage } from '../../src/application/ports/storage';
import { memoryLogger } from './memory-log';
import { skippedSuite } from './optional-suites';

export interface MongoServer {
  readonly uri: string;
  /** Where the server came from, for the test log. */
  readonly origin: string;
}

/** The image testcontainers starts when no MONGODB_URI is given (override: MONGODB_TEST_IMAGE). */
const DEFAULT_IMAGE = 'mongo:7.0';

/** How a MongoDB server can be had, found before the test files load; a container is started only when a suite needs it. */
type Availability =
  | { readonly kind: 'uri'; readonly server: MongoServer }
  | { readonly kind: 'container'; readonly start: () => Promise<MongoServer> }
  | { readonly kind: 'none'; readonly reason: string };

let availability: Availability | undefined;
let started: Promise<MongoServer> | undefined;

/** `uri` with `name=value` in its query string, keeping whatever options it had. */
const withUriOption = (uri: string, name: string, value: string): string => {
  const [base, query] = uri.includes('?') ? [uri.slice(0, uri.indexOf('?')), uri.slice(uri.indexOf('?') + 1)] : [uri, ''];
  const pairs = query.split('&').filter((pair) => pair !== '' && !pair.toLowerCase().startsWith(`${name.toLowerCase()}=`));
  const hostsEnd = base.replace(/^mongodb(?:\+srv)?:\/\//i, '').search(/\//);
  return `${base}${hostsEnd === -1 ? '/' : ''}?${[...pairs, `${name}=${value}`].join('&')}`;
};

/** `uri` with `dbName` as the database in its path, keeping hosts and options. */
export const withDatabasePath = (uri: string, dbName: string): string => {
  const queryAt = uri.indexOf('?');
  const [base, query] = queryAt === -1 ? [uri, ''] : [uri.slice(0, queryAt), uri.slice(queryAt)];
  const scheme = /^mongodb(?:\+srv)?:\/\//i.exec(base)?.[0] ?? '';
  const hosts = base.slice(scheme.length).split('/')[0] ?? '';
  return `${scheme}${hosts}/${encodeURIComponent(dbName)}${query}`;
};

/** MONGODB_URI, when set. */
const fromEnvironment = (): Availability | undefined => {
  const uri = process.env['MONGODB_URI'];
  return uri === undefined || uri === '' ? undefined : { kind: 'uri', server: { uri, origin: 'MONGODB_URI' } };
};

const probe = async (): Promise<Availability> => {
  const fromEnv = fromEnvironment();
  if (fromEnv !== undefined) return fromEnv;
  // Loaded only when needed, and allowed to fail: testcontainers is optional here.
  // eslint-disable-next-line @typescript-eslint/consistent-type-imports
  let testcontainers: typeof import('testcontainers');
  // eslint-disable-next-line @typescript-eslint/consistent-type-imports
  let mongoModule: typeof import('@testcontainers/mongodb');
  try {
    testcontainers = await import('testcontainers');
    mongoModule = await import('@testcontainers/mongodb');
  } catch (err) {
    return {
      kind: 'none',
      reason: `testcontainers cannot be loaded on Node ${process.version}; the installed version may need a newer Node (${(err as Error).message.slice(0, 100)})`,
    };
  }
  try {
    await testcontainers.getContainerRuntimeClient();
  } catch {
    return { kind: 'none', reason: 'MONGODB_URI is unset and no container runtime (Docker, Podman) is reachable for testcontainers' };
  }
  const image = process.env['MONGODB_TEST_IMAGE'] ?? DEFAULT_IMAGE;
  return {
    kind: 'container',
    // A runtime is there: failing to start the container is an error, not a reason to skip.
    start: async () => {
      const container = await new mongoModule.MongoDBContainer(image).start();
      return {
        uri: withUriOption(container.getConnectionString(), 'directConnection', 'true'),
        origin: `testcontainers (${image}); the reaper removes the container when the run ends`,
      };
    },
  };
};

/** Looks once for a MongoDB server to test against (test/support/setup.ts, before the files load). */
export const lookForMongo = async (): Promise<void> => {
  availability ??= await probe();
};

/** What test/support/setup.ts found; without it (mocha run without .mocharc.json), MONGODB_URI alone. */
const current = (): Availability =>
  availability ?? fromEnvironment() ?? { kind: 'none', reason: 'MONGODB_URI is unset, and test/support/setup.js did not look further' };

/**
 * A MongoDB server for the tests: MONGODB_URI when set; otherwise a `mongo` container started by
 * testcontainers when a container runtime is reachable (once per run); otherwise undefined.
 */
export const findMongoServer = async (): Promise<MongoServer | undefined> => {
  const found = current();
  if (found.kind === 'none') return undefined;
  if (found.kind === 'uri') return found.server;
  return (started ??= found.start());
};

const mongoNotice = (reason: string): string[] => [
  'MONGODB SUITES SKIPPED: no MongoDB server to test against.',
  `Why: ${reason}.`,
  'To run them: MONGODB_URI=mongodb://127.0.0.1:27017/ npm test   (any MongoDB, or mongo-java-server)',
  '         or: eval "$(bash .ci/mongo-java-server/start.sh)" && npm test; bash .ci/mongo-java-server/stop.sh',
];

/** A database name no other run uses: MongoDB allows 63 characters. */
const uniqueDatabaseName = (label: string): string =>
  `orders_test_${label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .slice(0, 20)}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;

/** One test file's database: its own name, dropped after the file. */
export interface MongoTestDatabase {
  readonly uri: string;
  readonly dbName: string;
  /** A client of the tests' own, to look at and tamper with documents directly. */
  readonly client: MongoClient;
  /** A new storage on this database (indexes created), closed after the file if the test does not. */
  connect(logger?: Logger, options?: MongoStorageOptions): Promise<Storage>;
  /** Deletes every document of every collection, keeping the collections and their indexes. */
  empty(): Promise<void>;
}

/**
 * `describe`, on a database of its own when a MongoDB server is found, dropped after the suite.
 * Without a server the suite is one pending line, and the run ends saying how to run them; with
 * REQUIRE_MONGODB=1 (CI) it fails instead.
 */
export const describeWithMongo = (title: string, body: (mongo: MongoTestDatabase) => void): void => {
  const found = current();
  if (found.kind === 'none') {
    skippedSuite(title, { what: 'no MongoDB server', why: found.reason, requiredBy: 'REQUIRE_MONGODB', notice: mongoNotice(found.reason) });
    return;
  }
  describe(title, function () {
    let state: { uri: string; dbName: string; client: MongoClient } | undefined;
    const opened: Storage[] = [];
    const ready = (): { uri: string; dbName: string; client: MongoClient } => {
      if (state === undefined) throw new Error('no MongoDB server: the suite should have been skipped');
      return state;
    };
    const mongo: MongoTestDatabase = {
      get uri() {
        return ready().uri;
      },
      get dbName() {
        return ready().dbName;
      },
      get client() {
        return ready().client;
      },
      async connect(logger = memoryLogger().logger, options = {}) {
        const storage = await connectMongoStorage(ready().uri, ready().dbName, logger, options);
        opened.push(storage);
        return storage;
      },
      async empty() {
        const db = ready().client.db(ready().dbName);
        const collections = await db.listCollections({}, { nameOnly: true }).toArray();
        await Promise.all(collections.map((collection) => db.collection(collection.name).deleteMany({})));
      },
    };

    before(async function () {
      this.timeout(180_000);
      const server = await findMongoServer();
      if (server === undefined) throw new Error('no MongoDB server, though one was found before the files loaded');
      const client = new MongoClient(server.uri, { serverSelectionTimeoutMS: 5_000 });
      await client.connect();
      state = { uri: server.uri, dbName: uniqueDatabaseName(title), client };
    });

    after(async () => {
      if (state === undefined) return;
      await Promise.all(opened.map((storage) => storage.health.close()));
      await state.client.db(state.dbName).dropDatabase();
      await state.client.close();
      state = undefined;
    });

    body(mongo);
  });
};
