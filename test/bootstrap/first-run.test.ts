import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect } from 'chai';
import { anOrderPayload } from '../support/order-builder';
import { temporaryFolder } from '../support/sqlite-files';
import { SqliteMain } from './sqlite-process';

const CLI_JS = resolve(__dirname, '../../src/bootstrap/cli.js');

/** `node cli.js …` as a real process on the SQLite file `path`: its exit code, stdout JSON and stderr. */
const cli = (path: string, ...args: string[]): Promise<{ code: number; json: any; stderr: string }> =>
  new Promise((done) => {
    execFile(process.execPath, [CLI_JS, ...args], { env: { PATH: process.env.PATH ?? '', SQLITE_PATH: path } }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : 1;
      done({ code, json: stdout.trim() === '' ? undefined : JSON.parse(stdout), stderr });
    });
  });

/**
 * The README's walk-through from zero, with real processes: the CLI makes a dashboard and a token on
 * the embedded default store (a SQLite file and its folder that do not exist yet), without any admin
 * secret; the service records orders with that token; the CLI works beside the running service; a
 * restart finds everything again.
 */
describe('first run from zero on the embedded store, with the CLI', function () {
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

  it('makes a dashboard and a token, records orders, backs up, revokes, and finds it all after a restart', async () => {
    const path = join(folder.path, 'data', 'orders.db');
    expect(existsSync(join(folder.path, 'data'))).to.equal(false);

    const dashboard = await cli(path, 'dashboards', 'create', '--name', 'My shop');
    expect(dashboard.code, dashboard.stderr).to.equal(0);
    expect(existsSync(path), 'the file and its folder are created').to.equal(true);
    const dashboardId: string = dashboard.json.dashboard.id;
    const issued = await cli(path, 'tokens', 'create', '--dashboard', dashboardId, '--name', 'checkout');
    expect(issued.code, issued.stderr).to.equal(0);
    const token: string = issued.json.token.token;

    main = await SqliteMain.start(path, { ADMIN_TOKEN: '' });
    expect(main.proc.logs[0]?.['msg']).to.include(path);
    expect((await main.call('POST', '/api/v1/orders', token, anOrderPayload({ externalId: 'first-1' }))).status).to.equal(201);
    expect(
      (await main.call('POST', '/admin/v1/dashboards', 'anything', { name: 'x' })).status,
      'no admin API without ADMIN_TOKEN',
    ).to.equal(404);

    const listed = await cli(path, 'tokens', 'list', '--dashboard', dashboardId);
    expect(listed.code, listed.stderr).to.equal(0);
    expect(listed.json.tokens.map((t: { name: string }) => t.name)).to.deep.equal(['checkout']);
    const second = await cli(path, 'tokens', 'create', '--dashboard', dashboardId, '--name', 'backend');
    expect((await main.call('POST', '/api/v1/orders', second.json.token.token, anOrderPayload({ externalId: 'first-2' }))).status).to.equal(
      201,
    );

    const copy = join(folder.path, 'backups', 'orders-copy.db');
    const backup = await cli(path, 'backup', '--to', copy);
    expect(backup.code, backup.stderr).to.equal(0);
    expect(backup.json.backup.file).to.equal(copy);
    expect(backup.json.backup.bytes).to.be.greaterThan(0);
    const again = await cli(path, 'backup', '--to', copy);
    expect(again.code).to.equal(1);
    expect(JSON.parse(again.stderr).error.message).to.include('already exists');

    const revoked = await cli(path, 'tokens', 'revoke', second.json.token.id);
    expect(revoked.code, revoked.stderr).to.equal(0);

    main.proc.kill('SIGTERM');
    expect((await main.proc.exited).code).to.equal(0);
    main = await SqliteMain.start(path, { ADMIN_TOKEN: '' });
    const read = await main.call('GET', '/api/v1/orders/first-1', token);
    expect(read.status).to.equal(200);
    expect((await main.call('GET', '/api/v1/orders', token)).body.total).to.equal(2);
    const refused = await main.call('GET', '/api/v1/orders', second.json.token.token);
    expect(refused.body.code).to.equal('TOKEN_REVOKED');

    main.proc.kill('SIGTERM');
    await main.proc.exited;
    main = await SqliteMain.start(copy, { ADMIN_TOKEN: '' });
    expect((await main.call('GET', '/api/v1/orders', token)).body.total, 'the backup holds both orders').to.equal(2);
  });

  it('answers --help fast, without touching a store', async () => {
    const path = join(folder.path, 'never', 'orders.db');
    const help = await new Promise<{ stdout: string }>((done) =>
      execFile(process.execPath, [CLI_JS, '--help'], { env: { PATH: process.env.PATH ?? '', SQLITE_PATH: path } }, (_e, stdout) =>
        done({ stdout }),
      ),
    );
    expect(help.stdout).to.include('usage: orders-cli');
    expect(existsSync(path)).to.equal(false);
  });

  it('refuses STORE=memory, which would forget at exit', async () => {
    const result = await new Promise<{ code: number; stderr: string }>((done) =>
      execFile(
        process.execPath,
        [CLI_JS, 'dashboards', 'list'],
        { env: { PATH: process.env.PATH ?? '', STORE: 'memory' } },
        (err, _o, stderr) => done({ code: typeof err?.code === 'number' ? err.code : 0, stderr }),
      ),
    );
    expect(result.code).to.equal(1);
    expect(JSON.parse(result.stderr).error.code).to.equal('REFUSED');
  });
});
