import { expect } from 'chai';
import { ScryptPasswordHasher } from '../../../src/adapters/system/scrypt-password-hasher';
import type { Role } from '../../../src/domain/account';
import type { Storage } from '../../../src/application/ports/storage';
import { temporarySqliteStorage } from '../../support/sqlite-files';
import { TestApi } from '../../support/test-api';

/** A hash cheap enough for tests: verification reads its cost from the stored hash. */
const cheapHasher = new ScryptPasswordHasher({ logN: 12, r: 8, p: 1 });
const PASSWORD = 'a test password 1';

interface Answer {
  readonly status: number;
  readonly location: string | null;
  readonly text: string;
}

/** One browser, as the console sees it over a real socket: its cookies, its forms from the console's origin. */
class ConsoleClient {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly base: string) {}

  async request(
    method: 'GET' | 'POST',
    path: string,
    form?: Record<string, string>,
    headers: Record<string, string> = {},
  ): Promise<Answer> {
    const response = await fetch(this.base + path, {
      method,
      redirect: 'manual',
      headers: {
        cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        origin: this.base,
        ...(form === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
        ...headers,
      },
      body: form === undefined ? undefined : new URLSearchParams(form).toString(),
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const at = pair.indexOf('=');
      if (pair.slice(at + 1) === '') this.cookies.delete(pair.slice(0, at));
      else this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return { status: response.status, location: response.headers.get('location'), text: await response.text() };
  }

  async signIn(email: string): Promise<void> {
    const answer = await this.request('POST', '/console/sign-in', { email, password: PASSWORD, next: '/console/overview' });
    expect(answer.status, answer.text).to.equal(303);
  }

  /** The session's CSRF token, as every signed-in page carries it. */
  async csrf(): Promise<string> {
    const page = await this.request('GET', '/console/password');
    return /name="csrf" value="([^"]+)"/.exec(page.text)?.[1] ?? 'none';
  }

  async post(path: string, fields: Record<string, string> = {}): Promise<Answer> {
    return this.request('POST', path, { csrf: await this.csrf(), ...fields });
  }
}

/** The page a form's redirect leads to, where its result is shown once (Post/Redirect/Get, decision 0022). */
const shownAfter = async (client: ConsoleClient, posted: Answer): Promise<Answer> => {
  expect(posted.status, posted.text).to.equal(303);
  return client.request('GET', posted.location!);
};

describe('console: removing members and revoking invitations (decision 0023)', () => {
  let storage: Storage;
  let api: TestApi;
  let shopA: string;
  let shopB: string;

  beforeEach(async () => {
    storage = temporarySqliteStorage();
    api = await TestApi.start({}, { storage });
    shopA = (await api.newDashboard('Shop A')).dashboardId;
    shopB = (await api.newDashboard('Shop B')).dashboardId;
  });

  afterEach(async () => {
    await api.stop();
  });

  /** A user with a role in a dashboard, made in the store, and a client signed in as them. */
  const member = async (name: string, role: Role, dashboardId = shopA): Promise<{ id: string; client: ConsoleClient }> => {
    const now = new Date();
    const id = `usr_${name}`;
    const email = `${name}@shop.example`;
    await storage.accounts.users.insert({
      id,
      email,
      passwordHash: await cheapHasher.hash(PASSWORD),
      createdAt: now,
      passwordChangedAt: now,
    });
    await storage.accounts.memberships.put({ userId: id, dashboardId, role, createdAt: now });
    const client = new ConsoleClient(api.url);
    await client.signIn(email);
    return { id, client };
  };
  const roles = async (dashboardId = shopA) =>
    (await storage.accounts.memberships.listByDashboard(dashboardId)).map((m) => `${m.userId}:${m.role}`);
  const invitation = async (dashboardId: string, invitedBy: string, email = 'later@shop.example') => {
    const id = `inv_${dashboardId}_${email.length}`;
    const now = new Date();
    await storage.accounts.invitations.insert({
      id,
      dashboardId,
      email,
      role: 'analyst',
      tokenHash: `hash-of-${id}`,
      invitedBy,
      createdAt: now,
      expiresAt: new Date(now.getTime() + 86_400_000),
    });
    return id;
  };
  const pending = async (dashboardId = shopA) => (await storage.accounts.invitations.listPending(dashboardId, new Date())).map((i) => i.id);

  it('removes a member and revokes an invitation with Post/Redirect/Get, each with its notice', async () => {
    const owner = await member('owner', 'owner');
    const analyst = await member('analyst', 'analyst');
    const invited = await invitation(shopA, owner.id);
    const page = await owner.client.request('GET', '/console/members');
    expect(page.text)
      .to.contain(`action="/console/members/${analyst.id}/remove"`)
      .and.to.contain(`/console/members/invitations/${invited}/revoke`);

    const removed = await owner.client.post(`/console/members/${analyst.id}/remove`);
    expect([removed.status, removed.location]).to.deep.equal([303, '/console/members?notice=member-removed']);
    expect((await owner.client.request('GET', removed.location!)).text).to.contain('The member was removed');
    const revoked = await owner.client.post(`/console/members/invitations/${invited}/revoke`);
    expect([revoked.status, revoked.location]).to.deep.equal([303, '/console/members?notice=invitation-revoked']);
    expect((await owner.client.request('GET', revoked.location!)).text).to.contain('The invitation was revoked');
    expect(await roles()).to.deep.equal([`${owner.id}:owner`]);
    expect(await pending()).to.deep.equal([]);
    // The analyst's session has no dashboard left: the console sends them to sign in.
    expect((await analyst.client.request('GET', '/console/overview')).location).to.match(/^\/console\/sign-in/);
  });

  it('refuses analysts the page and both forms on the server, even with their own CSRF token', async () => {
    const owner = await member('owner', 'owner');
    const analyst = await member('analyst', 'analyst');
    const invited = await invitation(shopA, owner.id);
    expect((await analyst.client.request('GET', '/console/members')).status).to.equal(403);
    expect((await analyst.client.request('GET', '/console/overview')).text).not.to.contain('/remove"');
    expect((await analyst.client.post(`/console/members/${owner.id}/remove`)).status).to.equal(403);
    expect((await analyst.client.post(`/console/members/${analyst.id}/remove`)).status).to.equal(403);
    expect((await analyst.client.post(`/console/members/invitations/${invited}/revoke`)).status).to.equal(403);
    expect(await roles()).to.deep.equal([`${owner.id}:owner`, `${analyst.id}:analyst`]);
    expect(await pending()).to.deep.equal([invited]);
  });

  it('refuses the forms without the session’s CSRF token, and from another origin', async () => {
    const owner = await member('owner', 'owner');
    const analyst = await member('analyst', 'analyst');
    const csrf = await owner.client.csrf();
    expect((await owner.client.request('POST', `/console/members/${analyst.id}/remove`, {})).status).to.equal(403);
    expect(
      (await owner.client.request('POST', `/console/members/${analyst.id}/remove`, { csrf }, { origin: 'https://evil.example' })).status,
    ).to.equal(403);
    expect(await roles()).to.deep.equal([`${owner.id}:owner`, `${analyst.id}:analyst`]);
  });

  it('never removes the last owner (409, the page says why), and lets an owner leave once another owner stays', async () => {
    const owner = await member('owner', 'owner');
    const refused = await owner.client.post(`/console/members/${owner.id}/remove`);
    expect(refused.status).to.equal(409);
    expect(refused.text).to.contain('The last owner of a dashboard cannot be removed');
    expect(refused.text).not.to.contain(`/console/members/${owner.id}/remove`);
    await member('second', 'owner');
    await storage.accounts.memberships.put({ userId: owner.id, dashboardId: shopB, role: 'analyst', createdAt: new Date() });
    const left = await owner.client.post(`/console/members/${owner.id}/remove`);
    expect([left.status, left.location]).to.deep.equal([303, '/console/overview']);
    expect(await roles()).to.deep.equal(['usr_second:owner']);
    // Still signed in, in the dashboard they kept.
    expect((await owner.client.request('GET', '/console/overview')).text).to.contain('<span class="brand">Shop B</span>');
  });

  it('leaves one owner when two owners remove each other at once', async () => {
    for (let round = 0; round < 5; round++) {
      const dashboardId = (await api.newDashboard(`Race ${round}`)).dashboardId;
      const [first, second] = await Promise.all([
        member(`first${round}`, 'owner', dashboardId),
        member(`second${round}`, 'owner', dashboardId),
      ]);
      const [csrfFirst, csrfSecond] = await Promise.all([first.client.csrf(), second.client.csrf()]);
      const answers = await Promise.all([
        first.client.request('POST', `/console/members/${second.id}/remove`, { csrf: csrfFirst }),
        second.client.request('POST', `/console/members/${first.id}/remove`, { csrf: csrfSecond }),
      ]);
      // The other is refused: 409 if both were owners when they asked, else (no longer an owner) 403 or the sign-in page.
      expect(
        answers.filter((a) => a.location === '/console/members?notice=member-removed'),
        `round ${round}`,
      ).to.have.length(1);
      expect(await roles(dashboardId), `round ${round}`).to.have.length(1);
    }
  });

  it('refuses a member or an invitation of another dashboard as not found, and that dashboard keeps them', async () => {
    const owner = await member('owner', 'owner');
    const other = await member('other', 'owner', shopB);
    const theirs = await invitation(shopB, other.id);
    const removal = await owner.client.post(`/console/members/${other.id}/remove`);
    expect([removal.status, removal.text.includes('There is no such member in this dashboard.')]).to.deep.equal([404, true]);
    const revocation = await owner.client.post(`/console/members/invitations/${theirs}/revoke`);
    expect([revocation.status, revocation.text.includes('There is no such pending invitation in this dashboard.')]).to.deep.equal([
      404,
      true,
    ]);
    expect(await roles(shopB)).to.deep.equal([`${other.id}:owner`]);
    expect(await pending(shopB)).to.deep.equal([theirs]);
  });

  it('answers a revoked invitation’s link, and a form posted with it, as an unknown one', async () => {
    const owner = await member('owner', 'owner');
    const issued = await shownAfter(
      owner.client,
      await owner.client.post('/console/members', { email: 'later@shop.example', role: 'analyst' }),
    );
    const link = /\/console\/invitations\/[\w-]+/.exec(issued.text)![0];
    const token = link.split('/').pop()!;
    const stranger = new ConsoleClient(api.url);
    expect((await stranger.request('GET', link)).status).to.equal(200);
    const [invited] = await pending();
    expect((await owner.client.post(`/console/members/invitations/${invited}/revoke`)).status).to.equal(303);
    const revoked = await stranger.request('GET', link);
    const unknown = await stranger.request('GET', `/console/invitations/${'x'.repeat(43)}`);
    expect([revoked.status, revoked.text]).to.deep.equal([unknown.status, unknown.text]);
    expect(revoked.status).to.equal(404);
    const posted = await stranger.request('POST', '/console/invitations/accept', { token, password: 'later password 1' });
    expect([posted.status, posted.text.includes('This invitation link is not valid.')]).to.deep.equal([404, true]);
    expect(await storage.accounts.users.findByEmail('later@shop.example')).to.deep.equal({ _tag: 'None' });
  });

  it('refuses an acceptance by a signed-in visitor without their CSRF token', async () => {
    const owner = await member('owner', 'owner');
    const issued = await shownAfter(
      owner.client,
      await owner.client.post('/console/members', { email: 'owner@shop.example', role: 'owner' }),
    );
    const token = /\/console\/invitations\/([\w-]+)/.exec(issued.text)![1];
    const [invited] = await pending();
    expect((await owner.client.request('POST', '/console/invitations/accept', { token })).status).to.equal(403);
    expect(await pending()).to.deep.equal([invited]);
    const accepted = await owner.client.post('/console/invitations/accept', { token });
    expect([accepted.status, accepted.location]).to.deep.equal([303, '/console/overview']);
    expect(await pending()).to.deep.equal([]);
  });
});
