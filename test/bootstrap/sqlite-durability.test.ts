import { existsSync, mkdirSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import { expect } from 'chai';
import { SqliteDatabase } from '../../src/adapters/sqlite/sqlite-database';
import { MIGRATIONS } from '../../src/adapters/sqlite/sqlite-schema';
import { anOrderPayload } from '../support/order-builder';
import { temporaryFolder } from '../support/sqlite-files';
import { TEST_ADMIN_TOKEN } from '../support/test-config';
import { ServiceProcess, freePort } from './service-process';
import { SqliteMain } from './sqlite-process';

/** The service as a real process on its SQLite file: what survives kill -9 and a restart (decision 0015). */
describe('the service process on SQLite', function () {
  this.timeout(60_000);
  let folder: ReturnType<typeof temporaryFolder>;
  const running: SqliteMain[] = [];
  const start = async (env: Record<string, string> = {}): Promise<SqliteMain> => {
    const main = await SqliteMain.start(folder.path, env);
    running.push(main);
    return main;
  };

  beforeEach(() => {
    folder = temporaryFolder();
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((main) => main.proc.dispose()));
    folder.remove();
  });

  it('loses no acknowledged order to kill -9 in the middle of concurrent creations', async () => {
    const first = await start();
    const { token } = await first.newDashboard();
    const acknowledged: string[] = [];
    let killed = false;
    const client = async (lane: number): Promise<void> => {
      for (let n = 0; !killed; n++) {
        const externalId = `k-${lane}-${n}`;
        try {
          const res = await first.call('POST', '/api/v1/orders', token, anOrderPayload({ externalId }));
          if (res.status === 201) acknowledged.push(externalId);
          else throw new Error(`unexpected ${res.status}`);
        } catch (err) {
          if (!killed) throw err;
        }
      }
    };
    const clients = Array.from({ length: 24 }, (_, lane) => client(lane));
    while (acknowledged.length < 400) await new Promise((resolve) => setTimeout(resolve, 10));
    first.proc.kill('SIGKILL');
    killed = true;
    expect(await first.proc.exited).to.deep.include({ signal: 'SIGKILL' });
    await Promise.all(clients);

    const second = await start();
    const found = new Set(await second.externalIds(token));
    const lost = acknowledged.filter((externalId) => !found.has(externalId));
    expect(lost, `${lost.length} of ${acknowledged.length} acknowledged orders lost`).to.deep.equal([]);
  });

  it('keeps dashboards, tokens and revocations across kill -9 and a restart', async () => {
    const first = await start();
    const kept = await first.newDashboard('Kept shop');
    const issued = await first.call('POST', `/admin/v1/dashboards/${kept.dashboardId}/tokens`, TEST_ADMIN_TOKEN, { name: 'to revoke' });
    const revoked = await first.call('POST', `/admin/v1/tokens/${issued.body.token.id}/revoke`, TEST_ADMIN_TOKEN);
    expect(revoked.status).to.equal(200);
    expect((await first.call('POST', '/api/v1/orders', kept.token, anOrderPayload({ externalId: 'kept-1' }))).status).to.equal(201);
    first.proc.kill('SIGKILL');
    await first.proc.exited;

    const second = await start();
    expect((await second.call('GET', '/api/v1/orders/kept-1', kept.token)).status).to.equal(200);
    const refused = await second.call('GET', '/api/v1/orders', issued.body.token.token);
    expect(refused.status).to.equal(401);
    expect(refused.body.code).to.equal('TOKEN_REVOKED');
    const tokens = await second.call('GET', `/admin/v1/dashboards/${kept.dashboardId}/tokens`, TEST_ADMIN_TOKEN);
    expect(tokens.body.tokens.map((t: { id: string; revokedAt: string | null }) => [t.id, t.revokedAt])).to.have.deep.members([
      [kept.tokenId, null],
      [issued.body.token.id, revoked.body.token.revokedAt],
    ]);
    expect(await second.stop()).to.equal(0);
  });

  it('keeps nothing across a restart with STORE=memory, and writes no file', async () => {
    const first = await start({ STORE: 'memory' });
    const { token, dashboardId } = await first.newDashboard();
    expect((await first.call('POST', '/api/v1/orders', token, anOrderPayload({ externalId: 'gone-1' }))).status).to.equal(201);
    expect(await first.stop()).to.equal(0);

    const second = await start({ STORE: 'memory' });
    expect((await second.call('GET', '/api/v1/orders', token)).status).to.equal(401);
    expect((await second.call('GET', `/admin/v1/dashboards/${dashboardId}/tokens`, TEST_ADMIN_TOKEN)).status).to.equal(404);
    expect(existsSync(folder.path)).to.equal(false);
  });

  describe('a file it cannot use', () => {
    const failedStart = async (path: string): Promise<string[]> => {
      const proc = new ServiceProcess({ PORT: String(await freePort()), SQLITE_PATH: path });
      try {
        expect((await proc.exited).code).to.equal(1);
        expect(proc.stdout.filter((line) => line.trim() !== '')).to.deep.equal([]);
        return proc.stderr.filter((line) => line.trim() !== '');
      } finally {
        await proc.dispose();
      }
    };

    it('exits 1 with one line naming the file, its version and the supported one, for a file of a newer version', async () => {
      await SqliteDatabase.open({ path: folder.path }).close();
      const raw = new BetterSqlite3(folder.path);
      raw.pragma(`user_version = ${MIGRATIONS.length + 1}`);
      raw.close();
      expect(await failedStart(folder.path)).to.deep.equal([
        `orders service failed to start: SQLite file ${folder.path} was written by a newer version of the orders service (schema version ${MIGRATIONS.length + 1}; this version supports up to ${MIGRATIONS.length}): run a newer version, or restore a backup made by this one`,
      ]);
    });

    it('exits 1 with one line naming a path that is a directory', async () => {
      mkdirSync(folder.path);
      expect(await failedStart(folder.path)).to.deep.equal([
        `orders service failed to start: SQLite file ${folder.path} is a directory; SQLITE_PATH must name a file`,
      ]);
    });
  });
});
