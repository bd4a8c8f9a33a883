import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import { compose } from '../../src/bootstrap/composition';
import { cheapScrypt } from '../support/held-hasher';
import { runCli } from '../../src/bootstrap/cli';
import { inMemoryStorage } from '../../src/adapters/memory/in-memory-storage';
import type { Storage } from '../../src/application/ports/storage';

const cli = async (argv: string[], storage: Storage) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    argv,
    { ORDERS_PASSWORD: 'a long enough password' },
    { out: (l) => out.push(l), err: (l) => err.push(l) },
    storage,
  );
  return { code, json: () => JSON.parse(out.join('\n')), error: () => JSON.parse(err.join('\n')).error };
};

describe('orders-cli: members and invitations (decision 0023)', () => {
  let storage: Storage;
  let dashboardId: string;

  beforeEach(async function () {
    this.timeout(20_000);
    storage = { ...inMemoryStorage(), persistent: true };
    dashboardId = (await cli(['dashboards', 'create', '--name', 'Shop'], storage)).json().dashboard.id;
    expect((await cli(['users', 'create-owner', '--email', 'owner@shop.example', '--dashboard', dashboardId], storage)).code).to.equal(0);
  });

  const invite = async (email: string): Promise<string> => {
    const now = new Date();
    const id = `inv_${email.split('@')[0]}`;
    await storage.accounts.invitations.insert({
      id,
      dashboardId,
      email,
      role: 'analyst',
      tokenHash: `hash-${id}`,
      invitedBy: 'usr_owner',
      createdAt: now,
      expiresAt: new Date(now.getTime() + 86_400_000),
    });
    return id;
  };

  it('removes a member by email, but never the last owner, and says which member or dashboard it did not find', async function () {
    this.timeout(20_000);
    expect((await cli(['users', 'create-owner', '--email', 'second@shop.example', '--dashboard', dashboardId], storage)).code).to.equal(0);
    const first = await cli(['users', 'remove-member', '--email', 'owner@shop.example', '--dashboard', dashboardId], storage);
    expect(first.code).to.equal(0);
    expect(first.json().removed).to.deep.include({ dashboardId });
    expect(first.json().removed.user.email).to.equal('owner@shop.example');
    const refused = await cli(['users', 'remove-member', '--email', 'Second@Shop.example', '--dashboard', dashboardId], storage);
    expect([refused.code, refused.error()]).to.deep.equal([
      1,
      {
        code: 'REFUSED',
        message: `the last owner of dashboard ${dashboardId} cannot be removed: make another owner first (invitations create --role owner)`,
      },
    ]);
    const again = await cli(['users', 'remove-member', '--email', 'owner@shop.example', '--dashboard', dashboardId], storage);
    expect([again.code, again.error()]).to.deep.equal([
      1,
      { code: 'NOT_FOUND', message: `owner@shop.example is not a member of dashboard ${dashboardId}` },
    ]);
    const nowhere = await cli(['users', 'remove-member', '--email', 'owner@shop.example', '--dashboard', 'dsh_none'], storage);
    expect([nowhere.code, nowhere.error()]).to.deep.equal([1, { code: 'NOT_FOUND', message: 'no dashboard dsh_none' }]);
    expect(
      (await cli(['users', 'list'], storage))
        .json()
        .users.map((u: { email: string; memberships: unknown[] }) => [u.email, u.memberships.length]),
    ).to.deep.equal([
      ['owner@shop.example', 0],
      ['second@shop.example', 1],
    ]);
  });

  it('lists the pending invitations and revokes one, whose id is then unknown', async () => {
    const first = await invite('first@shop.example');
    const second = await invite('second@shop.example');
    const listed = await cli(['invitations', 'list', '--dashboard', dashboardId], storage);
    expect(
      listed
        .json()
        .invitations.map((i: { id: string; email: string }) => i.email)
        .sort(),
    ).to.deep.equal(['first@shop.example', 'second@shop.example']);
    const revoked = await cli(['invitations', 'revoke', first], storage);
    expect(revoked.code).to.equal(0);
    expect(revoked.json().revoked).to.deep.include({ id: first, dashboardId, email: 'first@shop.example', role: 'analyst' });
    expect(
      (await cli(['invitations', 'list', '--dashboard', dashboardId], storage)).json().invitations.map((i: { id: string }) => i.id),
    ).to.deep.equal([second]);
    const again = await cli(['invitations', 'revoke', first], storage);
    expect([again.code, again.error()]).to.deep.equal([1, { code: 'NOT_FOUND', message: `no pending invitation ${first}` }]);
    const unknownDashboard = await cli(['invitations', 'list', '--dashboard', 'dsh_none'], storage);
    expect([unknownDashboard.code, unknownDashboard.error()]).to.deep.equal([1, { code: 'NOT_FOUND', message: 'no dashboard dsh_none' }]);
  });

  it('refuses create-owner for an email that has an account, naming the invitation that adds it, which the account accepts itself', async function () {
    this.timeout(30_000);
    const other = (await cli(['dashboards', 'create', '--name', 'Other'], storage)).json().dashboard.id;
    const refused = await cli(['users', 'create-owner', '--email', 'Owner@Shop.example', '--dashboard', other], storage);
    expect([refused.code, refused.error()]).to.deep.equal([
      1,
      {
        code: 'REFUSED',
        message:
          'owner@shop.example already has an account, which joins a dashboard only by accepting an invitation: ' +
          `run invitations create --dashboard ${other} --email owner@shop.example --role owner, and send the link to that person, ` +
          'who opens it signed in as that account or gives its password',
      },
    ]);
    const memberships = async () =>
      (await cli(['users', 'list'], storage)).json().users[0].memberships.map((m: { dashboardId: string }) => m.dashboardId);
    expect(await memberships()).to.deep.equal([dashboardId]);
    const invited = await cli(['invitations', 'create', '--dashboard', other, '--email', 'owner@shop.example', '--role', 'owner'], storage);
    expect(invited.code).to.equal(0);
    expect(invited.json().invitation).to.deep.include({
      dashboardId: other,
      email: 'owner@shop.example',
      role: 'owner',
      invitedBy: 'operator',
    });
    const token = /^\/console\/invitations\/([\w-]{43})$/.exec(invited.json().path)?.[1];
    expect(token, invited.json().path).to.be.a('string');
    expect(await memberships(), 'an invitation adds nothing until it is accepted').to.deep.equal([dashboardId]);
    const { useCases } = compose({
      storage,
      transitions: {},
      rateLimit: { max: 1000, windowSeconds: 60 },
      idempotency: { ttlMs: 60_000, leaseMs: 10_000 },
      passwords: cheapScrypt(),
    });
    const wrong = await useCases.acceptInvitation.execute({ token: token!, password: 'not the password!', address: '10.0.0.1' });
    expect(E.isLeft(wrong) && wrong.left._tag).to.equal('InvalidCredentials');
    expect(
      E.isRight(await useCases.acceptInvitation.execute({ token: token!, password: 'a long enough password', address: '10.0.0.1' })),
    ).to.equal(true);
    expect(await memberships()).to.deep.equal([dashboardId, other]);
    const nowhere = await cli(
      ['invitations', 'create', '--dashboard', 'dsh_none', '--email', 'x@shop.example', '--role', 'owner'],
      storage,
    );
    expect([nowhere.code, nowhere.error()]).to.deep.equal([1, { code: 'NOT_FOUND', message: 'no dashboard dsh_none' }]);
    const badRole = await cli(['invitations', 'create', '--dashboard', other, '--email', 'x@shop.example', '--role', 'admin'], storage);
    expect([badRole.code, badRole.error().message]).to.deep.equal([2, '--role admin is not one of owner, analyst']);
  });

  it('answers 2 with the usage when an argument is missing or extra', async () => {
    for (const argv of [
      ['users', 'remove-member', '--email', 'owner@shop.example'],
      ['users', 'remove-member', '--dashboard', dashboardId],
      ['invitations', 'list'],
      ['invitations', 'create', '--dashboard', dashboardId, '--email', 'x@shop.example'],
      ['invitations', 'revoke'],
      ['invitations', 'revoke', 'inv_a', 'inv_b'],
    ]) {
      const result = await cli(argv, storage);
      expect(result.code, argv.join(' ')).to.equal(2);
      expect(result.error().usage, argv.join(' ')).to.contain('users remove-member --email EMAIL --dashboard DASHBOARD_ID');
    }
  });
});
