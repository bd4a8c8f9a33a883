import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { SqliteDatabase } from '../../../src/adapters/sqlite/sqlite-database';
import { SqliteFileError } from '../../../src/adapters/sqlite/sqlite-schema';
import { temporaryFolder } from '../../support/sqlite-files';
import { failureOf } from '../../support/failures';

/** A file the service cannot use stops the start with one line naming it (the process prints it and exits 1). */
describe('opening a SQLite file that cannot be used', () => {
  let folder: ReturnType<typeof temporaryFolder>;
  beforeEach(() => {
    folder = temporaryFolder();
  });
  afterEach(() => folder.remove());

  it('refuses a path that is a directory', () => {
    mkdirSync(folder.path);
    const failure = failureOf(() => SqliteDatabase.open({ path: folder.path }));
    expect(failure).to.be.instanceOf(SqliteFileError);
    expect(failure.message).to.equal(`SQLite file ${folder.path} is a directory; SQLITE_PATH must name a file`);
  });

  it('refuses a path whose folder cannot be created', () => {
    const blocker = join(folder.dir, 'a-file');
    writeFileSync(blocker, 'not a folder');
    const path = join(blocker, 'data', 'orders.db');
    const failure = failureOf(() => SqliteDatabase.open({ path }));
    expect(failure).to.be.instanceOf(SqliteFileError);
    expect(failure.message).to.equal(`SQLite file ${path}: its folder ${join(blocker, 'data')} cannot be created (ENOTDIR)`);
  });

  it('refuses a path that cannot be written, even by root', () => {
    const failure = failureOf(() => SqliteDatabase.open({ path: '/proc/orders-service-test.db' }));
    expect(failure).to.be.instanceOf(SqliteFileError);
    expect(failure.message).to.match(
      /^SQLite file \/proc\/orders-service-test\.db cannot be used \(SQLITE_CANTOPEN\): the file cannot be opened$/,
    );
  });

  it('refuses a file that cannot be written: the start stops, not the first write', async function () {
    await SqliteDatabase.open({ path: folder.path }).close();
    try {
      execFileSync('chattr', ['+i', folder.path], { stdio: 'ignore' });
    } catch {
      // Making a file immutable needs chattr, root and a file system that supports it.
      this.skip();
    }
    try {
      const failure = failureOf(() => SqliteDatabase.open({ path: folder.path }));
      expect(failure).to.be.instanceOf(SqliteFileError);
      expect(failure.message).to.equal(`SQLite file ${folder.path} cannot be used (SQLITE_READONLY): the file cannot be written`);
    } finally {
      execFileSync('chattr', ['-i', folder.path]);
    }
  });

  it('refuses a file that is not a SQLite database, and leaves it as it was', () => {
    const content = 'orders,exported,as,csv\n'.repeat(500);
    writeFileSync(folder.path, content);
    const failure = failureOf(() => SqliteDatabase.open({ path: folder.path }));
    expect(failure).to.be.instanceOf(SqliteFileError);
    expect(failure.message).to.equal(
      `SQLite file ${folder.path} cannot be used (SQLITE_NOTADB): it is not a SQLite database or it is corrupt: restore it from a backup, or point SQLITE_PATH elsewhere`,
    );
    expect(readFileSync(folder.path, 'utf8')).to.equal(content);
  });

  it('refuses a database whose header was overwritten', async () => {
    await SqliteDatabase.open({ path: folder.path }).close();
    const bytes = readFileSync(folder.path);
    bytes.fill(0x5a, 0, 100);
    writeFileSync(folder.path, bytes);
    expect(failureOf(() => SqliteDatabase.open({ path: folder.path })).message).to.include(
      '(SQLITE_NOTADB): it is not a SQLite database or it is corrupt',
    );
  });
});
