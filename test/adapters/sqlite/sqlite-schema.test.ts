import BetterSqlite3 from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { SqliteDatabase } from '../../../src/adapters/sqlite/sqlite-database';
import { APPLICATION_ID, migrate, MIGRATIONS, SqliteFileError } from '../../../src/adapters/sqlite/sqlite-schema';
import { temporaryFolder } from '../../support/sqlite-files';
import { failureOf } from '../../support/failures';
import * as O from 'fp-ts/Option';
import { ACCOUNTS_MIGRATION } from '../../../src/adapters/sqlite/accounts/accounts-schema';
import { openSqliteStorage } from '../../../src/adapters/sqlite/sqlite-storage';
import { SCOPES, SCOPES_BEFORE_ADS } from '../../../src/domain/scope';
import { ADS_MIGRATION } from '../../../src/adapters/sqlite/ads/ads-schema';
import { memoryLogger } from '../../support/memory-log';

/** Versioned migrations under `PRAGMA user_version`. */
describe('SQLite schema migrations', () => {
  let folder: ReturnType<typeof temporaryFolder>;
  let raw: BetterSqlite3.Database;
  const version = (): number => raw.pragma('user_version', { simple: true }) as number;
  const tables = (): string[] =>
    (raw.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((row) => row.name);

  beforeEach(() => {
    folder = temporaryFolder();
    raw = new BetterSqlite3(folder.path);
  });
  afterEach(() => {
    raw.close();
    folder.remove();
  });

  it("builds a new file up to the last migration, and marks it as this service's", async () => {
    await SqliteDatabase.open({ path: folder.path }).close();
    expect(version()).to.equal(MIGRATIONS.length);
    expect(raw.pragma('application_id', { simple: true })).to.equal(APPLICATION_ID);
    expect(tables()).to.include.members([
      'orders',
      'order_events',
      'order_counts',
      'dashboards',
      'tokens',
      'idempotency_keys',
      'rate_limit_windows',
    ]);
  });

  it('never changes a released migration, even one generated from declarations that grew since (report-schema.ts)', () => {
    const released = [
      'a04e860ed54bf7f7accb8fa76879734f70f0ac7e073b18d15e0d3742ae104736',
      'd1344aa13fb9d4785eaa68fd4d304fdb5f9ef1d001a6f372261d36946c121f91',
      '672dc62bbc95d4246a16c12c692e558e36df4b8689aec73de7be45b567986e67',
      '946c45b9683492c4976d2f7ee1d2b9c38a23514f63b95fd9f541595bba4c8f80',
      '4679bac0101c1d8671c3f123c5172c5e13772eafc691cdbe65ddaaed7d4568b9',
      '5d336842c4aa0d3d32c172469dcc6eec6cdb5a6b86196aee51ebaaffb045a2a6',
      'da8389955897efea2e68ae0084a80e9a62658b5f4899240e24d49c92b918b48f',
      '7f4886147e750961f1d651d63dbef6b6bed5104ffeb9f9bc9179284c33c00b04',
      'b4bc95e8838f6c7c2ee59380262e0710b921f21e942ff102b726f0324db2c421',
      'accd28375b3e0439fca1ed7f2ae7da7fccda72b8bfce544c48cdf643fbcbc241',
      '273999534fd7b27c78cefcb202eaa1b0a967d69124e9a3c2c7e7a6ae16f14f3b',
    ];
    expect(MIGRATIONS.slice(0, released.length).map((sql) => createHash('sha256').update(sql).digest('hex'))).to.deep.equal(released);
  });

  it('applies only the migrations a file lacks, in order, each once', () => {
    const steps = ['CREATE TABLE steps (n INTEGER)', 'INSERT INTO steps VALUES (2)', 'INSERT INTO steps VALUES (3)'];
    migrate(raw, folder.path, steps.slice(0, 2));
    expect(version()).to.equal(2);
    migrate(raw, folder.path, steps);
    migrate(raw, folder.path, steps);
    expect(version()).to.equal(3);
    expect(raw.prepare('SELECT n FROM steps ORDER BY rowid').all()).to.deep.equal([{ n: 2 }, { n: 3 }]);
  });

  it('gives the tokens of a file made before scopes every scope, no expiry and no last use (decision 0017)', async () => {
    migrate(raw, folder.path, MIGRATIONS.slice(0, MIGRATIONS.indexOf(ACCOUNTS_MIGRATION)));
    raw.prepare("INSERT INTO dashboards (id, name, created_at, timezone) VALUES ('dsh_old', 'Old', 0, 'UTC')").run();
    raw
      .prepare(
        "INSERT INTO tokens (id, dashboard_id, name, hash, created_at, revoked_at) VALUES ('tok_old', 'dsh_old', 'old', ?, 1000, NULL)",
      )
      .run('c'.repeat(64));
    const storage = openSqliteStorage({ path: folder.path, logger: memoryLogger().logger });
    try {
      const found = await storage.tokens.findByHash('c'.repeat(64));
      expect(found).to.deep.equal(
        O.some({
          id: 'tok_old',
          dashboardId: 'dsh_old',
          name: 'old',
          hash: 'c'.repeat(64),
          scopes: [...SCOPES],
          createdAt: new Date(1000),
        }),
      );
    } finally {
      await storage.health.close();
    }
    expect(version()).to.equal(MIGRATIONS.length);
  });

  it('keeps the spend of a file made before ad accounts as uploaded spend, its sums as they were, and gives all-scope tokens the ad scopes', async () => {
    migrate(raw, folder.path, MIGRATIONS.slice(0, MIGRATIONS.indexOf(ADS_MIGRATION)));
    raw.prepare("INSERT INTO dashboards (id, name, created_at, timezone) VALUES ('dsh_old', 'Old', 0, 'UTC')").run();
    raw
      .prepare(
        "INSERT INTO tokens (id, dashboard_id, name, hash, created_at, revoked_at, scopes) VALUES ('tok_all', 'dsh_old', 'all', ?, 1000, NULL, ?)",
      )
      .run('d'.repeat(64), SCOPES_BEFORE_ADS.join(' '));
    const put = raw.prepare(
      "INSERT INTO spend (dashboard_id, date, utm_source, utm_medium, utm_campaign, utm_content, currency, amount_cents) VALUES ('dsh_old', ?, 'google', 'cpc', ?, '(not set)', 'BRL', ?)",
    );
    for (const [date, campaign, cents] of [
      ['2026-01-01', 'a', 100],
      ['2026-01-15', 'a', 50],
      ['2026-02-01', 'b', 7],
    ] as const)
      put.run(date, campaign, cents);
    const rollups = () =>
      raw
        .prepare('SELECT * FROM spend_months ORDER BY month, utm_campaign')
        .all()
        .concat(raw.prepare('SELECT * FROM spend_days ORDER BY date').all());
    const before = rollups();
    const storage = openSqliteStorage({ path: folder.path, logger: memoryLogger().logger });
    try {
      const listed = await storage.spend.list('dsh_old', { page: 1, pageSize: 10 });
      expect(listed.entries.map((e) => `${e.date} ${e.utmCampaign} ${e.amountCents} ${e.adAccount ?? 'upload'}`)).to.deep.equal([
        '2026-02-01 b 7 upload',
        '2026-01-15 a 50 upload',
        '2026-01-01 a 100 upload',
      ]);
      expect(rollups()).to.deep.equal(before);
      await storage.spend.upsert('dsh_old', [
        {
          date: '2026-01-01',
          utmSource: 'google',
          utmMedium: 'cpc',
          utmCampaign: 'a',
          utmContent: '(not set)',
          currency: 'BRL',
          amountCents: 60,
        },
      ]);
      expect((await storage.spend.list('dsh_old', { page: 1, pageSize: 10 })).total).to.equal(3);
      const sums = await storage.spend.sums('dsh_old', {
        from: '2026-01-01',
        to: '2026-02-28',
        by: ['utmCampaign'],
        byDate: false,
        filters: {},
      });
      expect(sums.map((sum) => `${sum.key.utmCampaign}=${sum.amountCents}`).sort()).to.deep.equal(['a=110', 'b=7']);
      const token = await storage.tokens.findByHash('d'.repeat(64));
      expect(O.isSome(token) && token.value.scopes).to.deep.equal([...SCOPES]);
    } finally {
      await storage.health.close();
    }
  });

  it('leaves a file at the version it had when a migration fails', () => {
    const steps = ['CREATE TABLE steps (n INTEGER)', 'INSERT INTO steps VALUES (2); INSERT INTO nowhere VALUES (1)'];
    expect(failureOf(() => migrate(raw, folder.path, steps)).message).to.include('nowhere');
    expect(version()).to.equal(1);
    expect(raw.prepare('SELECT count(*) AS n FROM steps').get()).to.deep.equal({ n: 0 });
  });

  it('refuses a file written by a newer version, naming the file, its version and the supported one, and leaves it as it was', async () => {
    await SqliteDatabase.open({ path: folder.path }).close();
    raw.pragma(`user_version = ${MIGRATIONS.length + 5}`);
    const failure = failureOf(() => SqliteDatabase.open({ path: folder.path }));
    expect(failure).to.be.instanceOf(SqliteFileError);
    expect(failure.message).to.equal(
      `SQLite file ${folder.path} was written by a newer version of the orders service (schema version ${MIGRATIONS.length + 5}; this version supports up to ${MIGRATIONS.length}): run a newer version, or restore a backup made by this one`,
    );
    expect(version()).to.equal(MIGRATIONS.length + 5);
  });

  it("refuses a file that holds another application's tables, and leaves it as it was", () => {
    raw.exec('CREATE TABLE orders (whatever TEXT)');
    const failure = failureOf(() => SqliteDatabase.open({ path: folder.path }));
    expect(failure.message).to.equal(
      `SQLite file ${folder.path} holds tables but no orders-service schema; point SQLITE_PATH at a new or empty file`,
    );
    expect(tables()).to.deep.equal(['orders']);
    raw.pragma('application_id = 42');
    expect(failureOf(() => SqliteDatabase.open({ path: folder.path })).message).to.include(
      'belongs to another application (application_id 42)',
    );
  });
});
