import { expect } from 'chai';
import { statSync } from 'node:fs';
import { SqliteDatabase } from '../../../src/adapters/sqlite/sqlite-database';
import { WalCheckpointer } from '../../../src/adapters/sqlite/wal-checkpointer';
import { temporaryFolder } from '../../support/sqlite-files';

/**
 * The WAL is copied into the database file by a thread of its own: after 4 MB of writes, far below the
 * pages at which the writing connection checkpoints by itself, the file holds them, where without
 * the thread it holds none of them until that connection's checkpoint.
 */
describe('SQLite WAL checkpoints off the event loop', () => {
  let folder: ReturnType<typeof temporaryFolder>;

  beforeEach(() => {
    folder = temporaryFolder();
  });
  afterEach(() => folder.remove());

  /** The database file's size after 4 MB of rows are written, once `settled` says so or 5 s have passed. */
  const fileSizeAfterWrites = async (checkpointEveryMs: number, settled: (db: SqliteDatabase) => boolean): Promise<number> => {
    const db = SqliteDatabase.open({ path: folder.path, checkpointEveryMs });
    try {
      await db.write(() => db.prepare('CREATE TABLE scratch (n INTEGER PRIMARY KEY, filler TEXT)').run());
      const insert = db.prepare('INSERT INTO scratch (filler) VALUES (?)');
      for (let i = 0; i < 64; i++) await db.write(() => Array.from({ length: 64 }, () => insert.run('x'.repeat(1_000))));
      const until = Date.now() + 5_000;
      while (!settled(db) && Date.now() < until) await new Promise((done) => setTimeout(done, 20));
      return statSync(folder.path).size;
    } finally {
      await db.close();
    }
  };

  it('copies what the writes left in the WAL into the file, without the writing connection', async () => {
    const before = statSync(folder.path, { throwIfNoEntry: false })?.size ?? 0;
    expect(before).to.equal(0);
    const size = await fileSizeAfterWrites(20, (db) => (db.checkpointStats()?.checkpoints ?? 0) >= 3);
    expect(size, 'the 4 MB of rows are in the file').to.be.above(4_000_000);
  });

  it('leaves them in the WAL without the thread, until the writing connection checkpoints', async () => {
    const size = await fileSizeAfterWrites(0, () => true);
    expect(size, 'the file holds the schema, not the rows').to.be.below(1_000_000);
  });

  it('starts the WAL again under steady writes: after 96 MB written, the WAL holds a fraction of it', async () => {
    const db = SqliteDatabase.open({ path: folder.path, checkpointEveryMs: 20 });
    try {
      while ((db.checkpointStats()?.checkpoints ?? 0) < 1) await new Promise((done) => setTimeout(done, 10));
      await db.write(() => db.prepare('CREATE TABLE scratch (n INTEGER PRIMARY KEY, filler TEXT)').run());
      const insert = db.prepare('INSERT INTO scratch (filler) VALUES (?)');
      // Four writers at once, so that commits keep coming while the thread copies: 24,000 pages.
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          for (let i = 0; i < 384; i++) await db.write(() => Array.from({ length: 64 }, () => insert.run('x'.repeat(1_000))));
        }),
      );
      // The pages in the WAL since it last started, as a checkpoint of this connection counts them.
      const { log } = db.prepare('PRAGMA wal_checkpoint(PASSIVE)').get() as { log: number };
      expect(log, `pages in the WAL (${JSON.stringify(db.checkpointStats())})`).to.be.below(12_000);
      // (A pass of the thread that meets no commit lets the WAL start again too; on a busy machine that may be all it takes.)
      expect(db.checkpointStats()).to.deep.include({ failures: 0 });
    } finally {
      await db.close();
    }
  });

  it('stops a thread asked to stop while it is still starting, without cutting it off (which aborts the process)', async () => {
    const db = SqliteDatabase.open({ path: folder.path, checkpointEveryMs: 0 });
    try {
      for (let i = 0; i < 20; i++) {
        const checkpointer = new WalCheckpointer({ file: folder.path, everyMs: 10 }, 4_000, () => undefined);
        checkpointer.start();
        await checkpointer.stop();
        expect(checkpointer.stats().failures).to.equal(0);
      }
    } finally {
      await db.close();
    }
  });

  it('starts no thread for a file closed within its first second', async () => {
    const db = SqliteDatabase.open({ path: folder.path, checkpointEveryMs: 10 });
    await new Promise((done) => setTimeout(done, 100));
    await db.close();
    expect(db.checkpointStats()).to.deep.include({ checkpoints: 0 });
  });

  it('stops the thread when the file is closed, and counts no failure on the way', async () => {
    const db = SqliteDatabase.open({ path: folder.path, checkpointEveryMs: 10 });
    while ((db.checkpointStats()?.checkpoints ?? 0) < 2) await new Promise((done) => setTimeout(done, 10));
    await db.close();
    const { checkpoints, failures } = db.checkpointStats()!;
    await new Promise((done) => setTimeout(done, 60));
    expect(db.checkpointStats()!.checkpoints, 'no checkpoint after the close').to.equal(checkpoints);
    expect(failures).to.equal(0);
  });
});
