import { spawn } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { expect } from 'chai';
import { backupSqliteFile } from '../../src/adapters/sqlite/sqlite-backup';
import { SqliteDatabase } from '../../src/adapters/sqlite/sqlite-database';
import { anOrderPayload } from '../support/order-builder';
import { temporaryFolder } from '../support/sqlite-files';
import { SqliteMain } from './sqlite-process';
import { rejectionOf } from '../support/failures';

const BACKUP_JS = resolve(__dirname, '../../src/adapters/sqlite/sqlite-backup.js');

/** `backupSqliteFile(from, to)` in a process of its own, as the CLI runs it; resolves its exit code and stderr. */
const backupInAnotherProcess = (from: string, to: string): Promise<{ code: number | null; stderr: string }> =>
  new Promise((done) => {
    const script = `require(${JSON.stringify(BACKUP_JS)}).backupSqliteFile(process.argv[1], process.argv[2]).then(() => process.exit(0), (e) => { console.error(e.message); process.exit(1); })`;
    const child = spawn(process.execPath, ['-e', script, from, to], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('close', (code) => done({ code, stderr }));
  });

/** Online backups of the SQLite file (docs/operations.md, "SQLite store"). */
describe('backing up the SQLite file', function () {
  this.timeout(60_000);
  let folder: ReturnType<typeof temporaryFolder>;
  let main: SqliteMain | undefined;
  beforeEach(() => {
    folder = temporaryFolder();
  });
  afterEach(async () => {
    await main?.proc.dispose();
    main = undefined;
    folder.remove();
  });

  it('writes a copy that opens, passes integrity_check and holds every order acknowledged before it began, while writes go on', async () => {
    main = await SqliteMain.start(folder.path);
    const service = main;
    const { token } = await service.newDashboard();
    const acknowledged: string[] = [];
    let writing = true;
    const writer = async (lane: number): Promise<void> => {
      for (let n = 0; writing; n++) {
        const res = await service.call(
          'POST',
          '/api/v1/orders',
          token,
          anOrderPayload({ externalId: `b-${lane}-${n}`, metadata: { pad: 'p'.repeat(500) } }),
        );
        if (res.status !== 201) throw new Error(`unexpected ${res.status}`);
        acknowledged.push(`b-${lane}-${n}`);
      }
    };
    const writers = Array.from({ length: 8 }, (_, lane) => writer(lane));
    while (acknowledged.length < 1_500) await new Promise((done) => setTimeout(done, 10));

    const before = [...acknowledged];
    const copy = join(folder.dir, 'backups', 'orders-copy.db');
    const backup = await backupInAnotherProcess(folder.path, copy);
    const during = acknowledged.length - before.length;
    writing = false;
    await Promise.all(writers);
    expect(backup, backup.stderr).to.deep.equal({ code: 0, stderr: '' });

    const raw = new BetterSqlite3(copy, { readonly: true });
    try {
      expect(raw.pragma('integrity_check', { simple: true })).to.equal('ok');
      const inCopy = new Set(raw.prepare('SELECT external_id FROM orders').pluck().all() as string[]);
      expect(
        before.filter((externalId) => !inCopy.has(externalId)),
        `missing from the copy (${during} written during the backup)`,
      ).to.deep.equal([]);
    } finally {
      raw.close();
    }
    await SqliteDatabase.open({ path: copy }).close();
    expect(readdirSync(join(folder.dir, 'backups'))).to.deep.equal(['orders-copy.db']);
    expect(await service.stop()).to.equal(0);
  });

  it("refuses to write over an existing file, and to copy a file that is not the service's", async () => {
    await SqliteDatabase.open({ path: folder.path }).close();
    const existing = join(folder.dir, 'existing.db');
    writeFileSync(existing, 'keep me');
    expect((await rejectionOf(backupSqliteFile(folder.path, existing))).message).to.equal(
      `backup ${existing} already exists; choose a new name`,
    );

    const foreign = join(folder.dir, 'foreign.db');
    const other = new BetterSqlite3(foreign);
    other.exec('CREATE TABLE t (x)');
    other.close();
    const target = join(folder.dir, 'copy.db');
    expect((await rejectionOf(backupSqliteFile(foreign, target))).message).to.equal(
      `SQLite file ${foreign} is not an orders-service database`,
    );
    expect((await rejectionOf(backupSqliteFile(join(folder.dir, 'missing.db'), target))).message).to.match(
      /^SQLite file .*missing\.db cannot be opened/,
    );
    expect(existsSync(target)).to.equal(false);
  });
});
