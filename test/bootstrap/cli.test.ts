import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { anOrderPayload } from '../support/order-builder';
import { runCli } from '../../src/bootstrap/cli';
import { inMemoryStorage } from '../../src/adapters/memory/in-memory-storage';
import type { Storage } from '../../src/application/ports/storage';

/** Runs the CLI over `storage` and keeps what it printed. */
const cli = async (argv: string[], storage: Storage, env: Record<string, string> = {}) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, env, { out: (l) => out.push(l), err: (l) => err.push(l) }, storage);
  return { code, out: out.join('\n'), err: err.join('\n'), json: () => JSON.parse(out.join('\n')) };
};

/** The embedded store, marked persistent so that the commands themselves can be exercised. */
const persistentMemory = (): Storage => ({ ...inMemoryStorage(), persistent: true });

describe('orders-cli', () => {
  it('imports orders from JSON Lines through the batch path: created, duplicates, invalid lines named, progress on stderr', async () => {
    const storage = persistentMemory();
    const dashboardId = (await cli(['dashboards', 'create', '--name', 'Shop'], storage)).json().dashboard.id;
    const folder = mkdtempSync(join(tmpdir(), 'orders-import-'));
    const file = join(folder, 'orders.jsonl');
    const line = (externalId: string, changes: Record<string, unknown> = {}) => JSON.stringify(anOrderPayload({ externalId, ...changes }));
    const lines = [
      ...Array.from({ length: 1_200 }, (_, i) => line(`imp-${i}`)),
      line('imp-5'),
      '{ not json',
      '',
      line('bad', { amounts: { currency: 'BRL', grossCents: -5, netToSellerCents: 0 } }),
    ];
    writeFileSync(file, `${lines.join('\n')}\n`);
    const imported = await cli(['orders', 'import', '--dashboard', dashboardId, '--file', file], storage);
    rmSync(folder, { recursive: true, force: true });
    expect(imported.code).to.equal(1);
    expect(imported.json().import).to.deep.include({ orders: 1_203, created: 1_200, duplicates: 1, invalid: 2 });
    expect(imported.json().import.invalidLines).to.deep.equal([
      { line: 1_202, problems: ['(line) is not JSON'] },
      { line: 1_204, problems: ['amounts.grossCents: must be an integer from 0 to 10000000000000'] },
    ]);
    expect(imported.err.split('\n')).to.have.length(3);
    expect(imported.err).to.contain('imported 1205 of 1205 lines: 1200 created, 1 duplicates, 2 invalid');
    expect((await storage.orders.list(dashboardId, { page: 1, pageSize: 1 })).total).to.equal(1_200);
  });

  describe('scoped tokens and console users (decision 0017)', () => {
    it('issues a checkout token with orders:write alone and an expiry, and refuses unknown scopes', async () => {
      const storage = persistentMemory();
      const dashboardId = (await cli(['dashboards', 'create', '--name', 'Shop'], storage)).json().dashboard.id;
      const made = await cli(
        ['tokens', 'create', '--dashboard', dashboardId, '--scopes', 'orders:write', '--expires-at', '2099-01-01T00:00:00Z'],
        storage,
      );
      expect(made.json().token).to.deep.include({ scopes: ['orders:write'], expiresAt: '2099-01-01T00:00:00.000Z' });
      const unknown = await cli(['tokens', 'create', '--dashboard', dashboardId, '--scopes', 'orders:write,orders:delete'], storage);
      expect([unknown.code, JSON.parse(unknown.err).error.message]).to.deep.equal([
        2,
        '--scopes: unknown scope orders:delete; the scopes are orders:read, orders:write, reports:read, spend:read, spend:write, links:read, links:write, webhooks:read, webhooks:write, sources:read, sources:write, ads:read, ads:write',
      ]);
      const past = await cli(['tokens', 'create', '--dashboard', dashboardId, '--expires-at', '2020-01-01T00:00:00Z'], storage);
      expect(past.code).to.equal(2);
    });

    it('makes the first owner with ORDERS_PASSWORD, lists users without hashes, and resets a password with a generated one', async function () {
      this.timeout(20_000);
      const storage = persistentMemory();
      const dashboardId = (await cli(['dashboards', 'create', '--name', 'Shop'], storage)).json().dashboard.id;
      const made = await cli(['users', 'create-owner', '--email', 'Me@Shop.example', '--dashboard', dashboardId], storage, {
        ORDERS_PASSWORD: 'a long enough password',
      });
      expect(made.code, made.err).to.equal(0);
      expect(made.json()).to.deep.include({ role: 'owner', dashboardId });
      expect(made.json()).not.to.have.property('password');
      const listed = await cli(['users', 'list'], storage);
      expect(listed.json().users).to.deep.equal([{ ...made.json().user, memberships: [{ dashboardId, role: 'owner' }] }]);
      expect(listed.out).not.to.include('scrypt');
      const reset = await cli(['users', 'reset-password', '--email', 'me@shop.example'], storage);
      expect(reset.code, reset.err).to.equal(0);
      expect(reset.json().password).to.match(/^[\w-]{24}$/);
      const stored = await storage.accounts.users.findByEmail('me@shop.example');
      expect(stored._tag === 'Some' && stored.value.passwordHash).to.match(/^scrypt\$17\$8\$1\$/);
      const short = await cli(['users', 'reset-password', '--email', 'me@shop.example'], storage, { ORDERS_PASSWORD: 'short' });
      expect([short.code, JSON.parse(short.err).error.message]).to.deep.equal([1, 'ORDERS_PASSWORD must have at least 12 characters']);
      const nobody = await cli(['users', 'create-owner', '--email', 'x@y.example', '--dashboard', 'dsh_none'], storage);
      expect(nobody.code).to.equal(1);
    });
  });

  it('creates and lists dashboards', async () => {
    const storage = persistentMemory();
    const created = await cli(['dashboards', 'create', '--name', 'Shop'], storage);
    expect(created.code).to.equal(0);
    const dashboard = created.json().dashboard;
    expect(dashboard.name).to.equal('Shop');
    expect(dashboard.id).to.match(/^dsh_/);
    const listed = await cli(['dashboards', 'list'], storage);
    expect(listed.json()).to.deep.equal({ dashboards: [dashboard] });
  });

  it('issues a token shown once, stores only its hash, lists and revokes it', async () => {
    const storage = persistentMemory();
    const dashboardId = (await cli(['dashboards', 'create', '--name', 'Shop'], storage)).json().dashboard.id;
    const issued = (await cli(['tokens', 'create', '--dashboard', dashboardId, '--name', 'checkout'], storage)).json().token;
    expect(issued.token).to.match(/^ok_live_[0-9A-Za-z]{43}$/);
    expect(issued.dashboardId).to.equal(dashboardId);

    const stored = await storage.tokens.listByDashboard(dashboardId);
    expect(stored).to.have.length(1);
    expect(stored[0]?.hash).to.equal(createHash('sha256').update(issued.token).digest('hex'));
    expect(JSON.stringify(stored)).not.to.include(issued.token);

    const listed = await cli(['tokens', 'list', '--dashboard', dashboardId], storage);
    expect(listed.out).not.to.include(issued.token);
    expect(listed.json().tokens).to.deep.equal([
      {
        id: issued.id,
        name: 'checkout',
        scopes: issued.scopes,
        createdAt: issued.createdAt,
        expiresAt: null,
        lastUsedAt: null,
        revokedAt: null,
      },
    ]);

    const revoked = await cli(['tokens', 'revoke', issued.id], storage);
    expect(revoked.code).to.equal(0);
    expect(revoked.json().token.revokedAt).to.be.a('string');
    const again = await cli(['tokens', 'revoke', issued.id], storage);
    expect(again.json().token.revokedAt).to.equal(revoked.json().token.revokedAt);
  });

  it('answers 1 for an unknown dashboard or token', async () => {
    const storage = persistentMemory();
    const token = await cli(['tokens', 'create', '--dashboard', 'dsh_missing'], storage);
    expect(token.code).to.equal(1);
    expect(token.err).to.include('no dashboard dsh_missing');
    const revoke = await cli(['tokens', 'revoke', 'tok_missing'], storage);
    expect(revoke.code).to.equal(1);
    expect(revoke.err).to.include('no token tok_missing');
  });

  it('answers 2 with the usage for bad usage', async () => {
    const storage = persistentMemory();
    for (const argv of [
      [],
      ['dashboards'],
      ['dashboards', 'create'],
      ['tokens', 'revoke'],
      ['dashboards', 'list', 'extra'],
      ['dashboards', 'create', '--nme', 'x'],
    ]) {
      const result = await cli(argv, storage);
      expect(result.code, argv.join(' ')).to.equal(2);
      expect(result.err).to.include('usage: orders-cli');
    }
  });

  it('refuses the in-memory store, which would forget everything at exit', async () => {
    const result = await cli(['dashboards', 'create', '--name', 'Shop'], inMemoryStorage());
    expect(result.code).to.equal(1);
    expect(result.err).to.include('STORE=memory');
  });

  it('refuses a bad configuration before touching a store', async () => {
    const err: string[] = [];
    const code = await runCli(['dashboards', 'list'], { MONGODB_URI: 'http://nope' }, { out: () => {}, err: (l) => err.push(l) });
    expect(code).to.equal(1);
    expect(err.join('\n')).to.include('MONGODB_URI');
  });

  it('answers --help, -h and help with the usage on stdout and exit code 0', async () => {
    for (const argv of [['--help'], ['-h'], ['help'], ['tokens', 'create', '--help']]) {
      const result = await cli(argv, persistentMemory());
      expect(result.code, argv.join(' ')).to.equal(0);
      expect(result.out).to.include('usage: orders-cli');
      expect(result.out).to.include('backup --to FILE');
      expect(result.err).to.equal('');
    }
  });

  it('prints every error as one JSON object on stderr, with a code and a message', async () => {
    const cases: [string[], number, string][] = [
      [['tokens', 'revoke', 'tok_missing'], 1, 'NOT_FOUND'],
      [['dashboards', 'create'], 2, 'USAGE'],
      [['nonsense'], 2, 'USAGE'],
      [['dashboards', 'list', '--colour', 'red'], 2, 'USAGE'],
    ];
    for (const [argv, code, errorCode] of cases) {
      const result = await cli(argv, persistentMemory());
      expect(result.code, argv.join(' ')).to.equal(code);
      expect(result.out).to.equal('');
      const parsed = JSON.parse(result.err);
      expect(parsed.error.code, argv.join(' ')).to.equal(errorCode);
      expect(parsed.error.message).to.be.a('string').that.is.not.empty;
    }
    const config = await runCli(
      ['dashboards', 'list'],
      { RATE_LIMIT_MAX: 'lots' },
      { out: () => undefined, err: (l) => expect(JSON.parse(l).error.code).to.equal('INVALID_CONFIGURATION') },
    );
    expect(config).to.equal(1);
  });
});
