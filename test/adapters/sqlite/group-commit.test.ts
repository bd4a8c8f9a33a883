import BetterSqlite3 from 'better-sqlite3';
import { join } from 'node:path';
import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import { GroupCommit } from '../../../src/adapters/sqlite/group-commit';
import { SqliteDatabase, type SqliteDatabaseOptions } from '../../../src/adapters/sqlite/sqlite-database';
import { sqliteStorageOn } from '../../../src/adapters/sqlite/sqlite-storage';
import { StorageUnavailableError } from '../../../src/application/ports/storage-health';
import type { Storage } from '../../../src/application/ports/storage';
import type { ApiToken } from '../../../src/domain/dashboard';
import { memoryLogger } from '../../support/memory-log';
import { anOrder } from '../../support/order-builder';
import { anOrderTooBigForTheDisk, temporaryFolder } from '../../support/sqlite-files';

const aToken = (id: string, hash = `hash-${id}`): ApiToken => ({
  id,
  dashboardId: 'dsh_a',
  hash,
  scopes: ['orders:read'],
  createdAt: new Date('2026-01-02T00:00:00.000Z'),
});

/** How each promise settled, once all have. */
const settled = async (promises: readonly Promise<unknown>[]): Promise<('ok' | Error)[]> =>
  (await Promise.allSettled(promises)).map((result) => (result.status === 'fulfilled' ? 'ok' : (result.reason as Error)));

/** One turn of the event loop: the group commit queued before it has run. */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Group commit: concurrent writes share a transaction, each caller gets its own answer after the commit. */
describe('SQLite group commit', () => {
  let folder: ReturnType<typeof temporaryFolder>;
  let db: SqliteDatabase;
  let storage: Storage;
  /** A second connection to the file: it sees committed data only. */
  let observer: BetterSqlite3.Database;

  const open = (options: Partial<SqliteDatabaseOptions> = {}): void => {
    db = SqliteDatabase.open({ path: folder.path, ...options });
    storage = sqliteStorageOn(db, memoryLogger().logger);
    observer = new BetterSqlite3(folder.path, { readonly: true });
  };
  const committedTokens = (): string[] =>
    (observer.prepare('SELECT id FROM tokens ORDER BY id').all() as { id: string }[]).map((row) => row.id);

  beforeEach(() => {
    folder = temporaryFolder();
    open();
  });
  afterEach(async () => {
    observer.close();
    await db.close();
    folder.remove();
  });

  it('runs the writes that arrive in one turn of the event loop in one transaction', async () => {
    await db.close();
    observer.close();
    open({ maxTransactionMs: Number.POSITIVE_INFINITY });
    const before = db.groupCommitStats();
    const orders = Array.from({ length: 50 }, (_, i) => anOrder().withExternalId(`g-${i}`).build());
    const [inserted, hit] = await Promise.all([
      Promise.all(orders.map((order) => storage.orders.insert(order, []))),
      storage.rateLimits.hit('tok_a', 60_000, new Date()),
    ]);
    expect(inserted.every(E.isRight)).to.equal(true);
    expect(hit.count).to.equal(1);
    expect(db.groupCommitStats()).to.deep.include({ commits: before.commits + 1, writes: before.writes + 51 });
    expect((await storage.orders.list('dsh_a', { page: 1, pageSize: 100 })).total).to.equal(50);
  });

  it('answers each caller only once its transaction has committed', async () => {
    const seenAtAnswer: string[][] = [];
    await Promise.all(
      ['tok_1', 'tok_2', 'tok_3'].map((id) => storage.tokens.insert(aToken(id)).then(() => seenAtAnswer.push(committedTokens()))),
    );
    expect(seenAtAnswer).to.deep.equal([
      ['tok_1', 'tok_2', 'tok_3'],
      ['tok_1', 'tok_2', 'tok_3'],
      ['tok_1', 'tok_2', 'tok_3'],
    ]);
  });

  it('fails only the write that breaks a constraint; the others of its transaction commit', async () => {
    const before = db.groupCommitStats();
    const outcomes = await settled([
      storage.tokens.insert(aToken('tok_1')),
      storage.tokens.insert(aToken('tok_2', 'hash-tok_1')),
      storage.tokens.insert(aToken('tok_3')),
      storage.dashboards.insert({ id: 'dsh_a', name: 'Shop', timezone: 'UTC', taxRate: 0, createdAt: new Date() }),
    ]);
    expect(outcomes[0]).to.equal('ok');
    expect((outcomes[1] as { code?: string }).code).to.equal('SQLITE_CONSTRAINT_UNIQUE');
    expect(outcomes.slice(2)).to.deep.equal(['ok', 'ok']);
    expect(committedTokens()).to.deep.equal(['tok_1', 'tok_3']);
    expect(observer.prepare('SELECT count(*) AS n FROM dashboards').get()).to.deep.equal({ n: 1 });
    expect(db.groupCommitStats().commits).to.equal(before.commits + 1);
  });

  it('rolls back what a write did before it threw, and only that', async () => {
    const insert = db.prepare("INSERT INTO dashboards (id, name, created_at) VALUES (?, 'Shop', 0)");
    const outcomes = await settled([
      db.write(() => insert.run('dsh_1')),
      db.write(() => {
        insert.run('dsh_2');
        throw new TypeError('a bug after a statement');
      }),
      db.write(() => insert.run('dsh_3')),
    ]);
    expect(outcomes[0]).to.equal('ok');
    expect(outcomes[1]).to.be.instanceOf(TypeError);
    expect(outcomes[2]).to.equal('ok');
    expect(observer.prepare('SELECT id FROM dashboards ORDER BY id').all()).to.deep.equal([{ id: 'dsh_1' }, { id: 'dsh_3' }]);
  });

  it('when the COMMIT of a group fails, runs each write on its own so that only the guilty one fails', async () => {
    db.prepare('PRAGMA foreign_keys = ON').run();
    db.prepare('CREATE TABLE parents (id TEXT PRIMARY KEY)').run();
    db.prepare('CREATE TABLE children (parent TEXT REFERENCES parents (id) DEFERRABLE INITIALLY DEFERRED)').run();
    const orphan = db.prepare("INSERT INTO children (parent) VALUES ('nobody')");
    const outcomes = await settled([
      storage.tokens.insert(aToken('tok_1')),
      db.write(() => orphan.run()),
      storage.tokens.insert(aToken('tok_3')),
    ]);
    expect(outcomes[0]).to.equal('ok');
    expect((outcomes[1] as { code?: string }).code).to.equal('SQLITE_CONSTRAINT_FOREIGNKEY');
    expect(outcomes[2]).to.equal('ok');
    expect(committedTokens()).to.deep.equal(['tok_1', 'tok_3']);
    expect(observer.prepare('SELECT count(*) AS n FROM children').get()).to.deep.equal({ n: 0 });
  });

  it('when the transaction itself fails midway (its savepoint gone), answers each write on its own instead of throwing', async () => {
    const releasesItsSavepoint = db.prepare('RELEASE write');
    const outcomes = await settled([
      storage.tokens.insert(aToken('tok_1')),
      db.write(() => {
        releasesItsSavepoint.run();
        throw new Error('a write that broke off');
      }),
      storage.tokens.insert(aToken('tok_3')),
    ]);
    expect(outcomes[0]).to.equal('ok');
    expect((outcomes[1] as { code?: string }).code).to.equal('SQLITE_ERROR');
    expect(outcomes[2]).to.equal('ok');
    expect(committedTokens()).to.deep.equal(['tok_1', 'tok_3']);
    expect(await storage.tokens.insert(aToken('tok_4')).then(() => 'ok')).to.equal('ok');
  });

  it('when the disk is full, fails the write that did not fit with StorageUnavailableError and commits the others', async () => {
    const huge = anOrderTooBigForTheDisk(db);
    const outcomes = await settled([
      storage.tokens.insert(aToken('tok_1')),
      storage.orders.insert(huge, []),
      storage.tokens.insert(aToken('tok_3')),
    ]);
    expect(outcomes[0]).to.equal('ok');
    expect(outcomes[1]).to.be.instanceOf(StorageUnavailableError);
    expect((outcomes[1] as Error).message).to.include('SQLITE_FULL');
    expect(outcomes[2]).to.equal('ok');
    expect(committedTokens()).to.deep.equal(['tok_1', 'tok_3']);
  });

  it('fails every write of the group with StorageUnavailableError when another connection holds the write lock', async () => {
    await db.close();
    observer.close();
    open({ busyTimeoutMs: 50 });
    const locker = new BetterSqlite3(folder.path);
    locker.prepare('BEGIN IMMEDIATE').run();
    try {
      const outcomes = await settled([storage.tokens.insert(aToken('tok_1')), storage.rateLimits.hit('tok_1', 60_000, new Date())]);
      for (const outcome of outcomes) {
        expect(outcome).to.be.instanceOf(StorageUnavailableError);
        expect((outcome as Error).message).to.include('SQLITE_BUSY');
      }
      expect(await storage.tokens.listByDashboard('dsh_a')).to.deep.equal([]);
    } finally {
      locker.prepare('ROLLBACK').run();
      locker.close();
    }
    await storage.tokens.insert(aToken('tok_1'));
    expect(committedTokens()).to.deep.equal(['tok_1']);
  });

  it('gives each write a transaction of its own without group commit', async () => {
    await db.close();
    observer.close();
    open({ groupCommit: false });
    const before = db.groupCommitStats();
    await Promise.all(['tok_1', 'tok_2', 'tok_3', 'tok_4'].map((id) => storage.tokens.insert(aToken(id))));
    expect(db.groupCommitStats()).to.deep.include({ commits: before.commits + 4, writes: before.writes + 4 });
    expect(committedTokens()).to.deep.equal(['tok_1', 'tok_2', 'tok_3', 'tok_4']);
  });

  it('commits the writes still queued when the store closes, then refuses new ones with StorageUnavailableError', async () => {
    const queued = storage.tokens.insert(aToken('tok_1'));
    await storage.health.close();
    await queued;
    expect(committedTokens()).to.deep.equal(['tok_1']);
    const late = await settled([storage.tokens.insert(aToken('tok_2')), storage.tokens.findByHash('hash-tok_1')]);
    for (const outcome of late) expect(outcome).to.be.instanceOf(StorageUnavailableError);
    expect(await storage.health.ping()).to.equal(false);
  });

  it('takes no further write into a transaction once its writes have run maxMs, and commits the rest in the next turns', async () => {
    const raw = new BetterSqlite3(join(folder.dir, 'slow.db'));
    try {
      raw.exec('CREATE TABLE t (n INTEGER)');
      const insert = raw.prepare('INSERT INTO t (n) VALUES (?)');
      // A clock that each write moves on by 2 ms: a heavy write, as the transaction sees it.
      let clock = 0;
      const writer = new GroupCommit(raw, { grouped: true, maxBatch: 512, maxMs: 5, now: () => clock });
      const inTransaction: boolean[] = [];
      const writes = Array.from({ length: 7 }, (_, n) =>
        writer.submit(() => {
          clock += 2;
          inTransaction.push(raw.inTransaction);
          return insert.run(n).changes;
        }),
      );
      let turns = 0;
      const counted = (async () => {
        while (writer.stats().writes < 7) {
          await turn();
          turns++;
        }
      })();
      expect(await Promise.all(writes)).to.deep.equal([1, 1, 1, 1, 1, 1, 1]);
      await counted;
      // 2, 4, 6 ms: the third write passes 5 ms and closes its transaction; 3 + 3 + 1.
      expect(writer.stats()).to.deep.include({ commits: 3, writes: 7 });
      // The longest transaction ran 3 writes of 2 ms; once read, it starts again from 0.
      expect(writer.takeLongestMs()).to.equal(6);
      expect(writer.takeLongestMs()).to.equal(0);
      expect(turns, 'one transaction per turn of the event loop').to.be.at.least(3);
      expect(inTransaction.every(Boolean)).to.equal(true);
    } finally {
      raw.close();
    }
  });

  it('begins no transaction while paused: the writes wait, and go on once the pause ends', async () => {
    const raw = new BetterSqlite3(join(folder.dir, 'paused.db'));
    try {
      raw.exec('CREATE TABLE t (n INTEGER)');
      const writer = new GroupCommit(raw, { grouped: true, maxBatch: 512 });
      let end!: () => void;
      writer.pauseUntil(new Promise<void>((resolve) => (end = resolve)));
      const answered: number[] = [];
      const writes = [1, 2].map((n) =>
        writer.submit(() => raw.prepare('INSERT INTO t (n) VALUES (?)').run(n)).then(() => answered.push(n)),
      );
      for (let i = 0; i < 5; i++) await turn();
      expect(answered, 'nothing written while paused').to.deep.equal([]);
      expect(raw.prepare('SELECT count(*) FROM t').pluck().get()).to.equal(0);
      end();
      await Promise.all(writes);
      expect(answered).to.deep.equal([1, 2]);
      expect(writer.stats()).to.deep.include({ commits: 1, writes: 2 });
    } finally {
      raw.close();
    }
  });

  it("takes the lanes' writes in turn: one write of a lane goes into the next transaction, however many another lane queued", async () => {
    const raw = new BetterSqlite3(join(folder.dir, 'lanes.db'));
    try {
      raw.exec('CREATE TABLE t (n TEXT)');
      const insert = raw.prepare('INSERT INTO t (n) VALUES (?)');
      let clock = 0;
      const writer = new GroupCommit(raw, { grouped: true, maxBatch: 512, maxMs: 5, now: () => clock });
      const ran: string[] = [];
      const committedWith = new Map<string, number>();
      const write = (lane: string, name: string) =>
        writer
          .submit(
            () => {
              clock += 2;
              ran.push(name);
              return insert.run(name).changes;
            },
            true,
            lane,
          )
          .then(() => committedWith.set(name, writer.stats().commits));
      const batch = Array.from({ length: 6 }, (_, i) => write('dsh_batch', `batch-${i}`));
      const single = write('dsh_other', 'other');
      await Promise.all([...batch, single]);
      expect(ran).to.deep.equal(['batch-0', 'other', 'batch-1', 'batch-2', 'batch-3', 'batch-4', 'batch-5']);
      expect(committedWith.get('other'), 'committed with the first transaction').to.equal(1);
      expect(writer.stats()).to.deep.include({ commits: 3, writes: 7 });
    } finally {
      raw.close();
    }
  });

  it('fails the writes it would have taken when BEGIN fails, and goes on with the next ones', async () => {
    const raw = new BetterSqlite3(join(folder.dir, 'locked.db'), { timeout: 0 });
    const other = new BetterSqlite3(join(folder.dir, 'locked.db'), { timeout: 0 });
    try {
      raw.pragma('journal_mode = WAL');
      raw.exec('CREATE TABLE t (n INTEGER)');
      const insert = raw.prepare('INSERT INTO t (n) VALUES (?)');
      const writer = new GroupCommit(raw, { grouped: true, maxBatch: 2, maxMs: 5 });
      other.exec('BEGIN IMMEDIATE');
      const locked = await settled([1, 2].map((n) => writer.submit(() => insert.run(n))));
      other.exec('ROLLBACK');
      expect(locked.map((outcome) => (outcome === 'ok' ? 'ok' : outcome.name))).to.deep.equal([
        'StorageUnavailableError',
        'StorageUnavailableError',
      ]);
      expect(await writer.submit(() => insert.run(3).changes)).to.equal(1);
    } finally {
      other.close();
      raw.close();
    }
  });

  describe('with a sync before answering', () => {
    let raw: BetterSqlite3.Database;
    let syncs: ((error: Error | null) => void)[];
    let writer: GroupCommit;
    let insert: BetterSqlite3.Statement;
    const committed = (): number => (observer.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n;

    beforeEach(() => {
      raw = new BetterSqlite3(join(folder.dir, 'sync.db'));
      raw.pragma('journal_mode = WAL');
      raw.exec('CREATE TABLE t (n INTEGER)');
      insert = raw.prepare('INSERT INTO t (n) VALUES (?)');
      syncs = [];
      writer = new GroupCommit(raw, { grouped: true, maxBatch: 512, sync: (done) => syncs.push(done) });
      observer.close();
      observer = new BetterSqlite3(join(folder.dir, 'sync.db'), { readonly: true });
    });
    afterEach(() => raw.close());

    it('answers the callers of a commit only once a sync begun after it has completed, one sync at a time', async () => {
      const answered: number[] = [];
      const first = [1, 2, 3].map((n) => writer.submit(() => insert.run(n)).then(() => answered.push(n)));
      await turn();
      expect(committed()).to.equal(3);
      expect(syncs).to.have.length(1);
      expect(answered).to.deep.equal([]);

      const second = writer.submit(() => insert.run(4)).then(() => answered.push(4));
      await turn();
      expect(committed()).to.equal(4);
      expect(syncs, 'a second sync while the first is in flight').to.have.length(1);

      syncs[0](null);
      await Promise.all(first);
      expect(answered).to.deep.equal([1, 2, 3]);
      await turn();
      expect(syncs).to.have.length(2);
      syncs[1](null);
      await second;
      expect(answered).to.deep.equal([1, 2, 3, 4]);
      expect(writer.stats()).to.deep.equal({ commits: 2, writes: 4, syncs: 2 });
    });

    it('answers a write submitted as not durable at its COMMIT, without waiting for the sync', async () => {
      const answered: string[] = [];
      const durable = writer.submit(() => insert.run(1)).then(() => answered.push('durable'));
      const count = writer.submit(() => insert.run(2), false).then(() => answered.push('count'));
      await count;
      expect(answered).to.deep.equal(['count']);
      expect(committed()).to.equal(2);
      await turn();
      syncs[0](null);
      await durable;
      expect(answered).to.deep.equal(['count', 'durable']);
    });

    it('fails the callers with StorageUnavailableError when the sync fails', async () => {
      const write = writer.submit(() => insert.run(1));
      await turn();
      syncs[0](Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }));
      const failure = await write.then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(failure).to.be.instanceOf(StorageUnavailableError);
      expect((failure as Error).message).to.equal('the SQLite WAL could not be synced (EIO)');
    });

    it('commits what is queued when drained, and resolves once the last sync has completed', async () => {
      const write = writer.submit(() => insert.run(1));
      let drained = false;
      const draining = writer.drain().then(() => (drained = true));
      expect(committed()).to.equal(1);
      await turn();
      expect(drained).to.equal(false);
      syncs[0](null);
      await Promise.all([write, draining]);
      expect(drained).to.equal(true);
    });
  });
});
