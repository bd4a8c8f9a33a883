import { expect } from 'chai';
import { createHash } from 'node:crypto';
import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { InMemoryDashboardRepository } from '../../../src/adapters/memory/accounts/in-memory-dashboard-repository';
import { InMemoryTokenRepository } from '../../../src/adapters/memory/accounts/in-memory-token-repository';
import { Sha256TokenSecrets } from '../../../src/adapters/system/sha256-token-secrets';
import { AuthenticateToken } from '../../../src/application/access/authenticate-token';
import { CreateToken, type IssuedToken } from '../../../src/application/access/create-token';
import { ListTokens } from '../../../src/application/access/list-tokens';
import { RevokeToken } from '../../../src/application/access/revoke-token';
import type { ApiToken } from '../../../src/domain/dashboard';
import { SCOPES } from '../../../src/domain/scope';
import { MutableClock } from '../../support/mutable-clock';
import { SequenceIds } from '../../support/sequence-ids';

/** The embedded token store, counting its look-ups so a test can tell whether it was consulted. */
class CountingTokenRepository extends InMemoryTokenRepository {
  lookups = 0;
  uses: string[] = [];

  override async findByHash(hash: string): Promise<O.Option<ApiToken>> {
    this.lookups += 1;
    return super.findByHash(hash);
  }

  override async recordUse(tokenId: string, at: Date): Promise<void> {
    this.uses.push(`${tokenId} ${at.toISOString()}`);
    return super.recordUse(tokenId, at);
  }
}

const sha256Hex = (plain: string): string => createHash('sha256').update(plain, 'utf8').digest('hex');

describe('Tokens', () => {
  let dashboards: InMemoryDashboardRepository;
  let tokens: CountingTokenRepository;
  let clock: MutableClock;
  let createToken: CreateToken;
  let listTokens: ListTokens;
  let revokeToken: RevokeToken;
  let authenticate: AuthenticateToken;

  const issue = async (dashboardId: string, name?: string): Promise<IssuedToken> => {
    const result = await createToken.execute(dashboardId, name);
    if (E.isLeft(result)) throw new Error(`unexpected ${result.left._tag}`);
    return result.right;
  };

  beforeEach(async () => {
    dashboards = new InMemoryDashboardRepository();
    tokens = new CountingTokenRepository();
    clock = new MutableClock('2026-03-01T12:00:00.000Z');
    const secrets = new Sha256TokenSecrets();
    const ids = new SequenceIds();
    createToken = new CreateToken(dashboards, tokens, secrets, ids, clock);
    listTokens = new ListTokens(dashboards, tokens);
    revokeToken = new RevokeToken(tokens, clock);
    authenticate = new AuthenticateToken(tokens, secrets, clock);
    await dashboards.insert({ id: 'dsh_a', name: 'Shop A', timezone: 'UTC', taxRate: 0, createdAt: new Date('2026-01-01T00:00:00.000Z') });
    await dashboards.insert({ id: 'dsh_b', name: 'Shop B', timezone: 'UTC', taxRate: 0, createdAt: new Date('2026-01-01T00:00:00.000Z') });
  });

  describe('CreateToken', () => {
    it('answers DashboardNotFound for an unknown dashboard and stores nothing', async () => {
      expect(await createToken.execute('dsh_missing', 'ci')).to.deep.equal(
        E.left({ _tag: 'DashboardNotFound', dashboardId: 'dsh_missing' }),
      );
      expect(await tokens.listByDashboard('dsh_missing')).to.deep.equal([]);
    });

    it('issues a plain token of the documented shape once, for the dashboard', async () => {
      const issued = await issue('dsh_a', 'ci');
      expect(issued.plain).to.match(/^ok_live_[0-9A-Za-z]{43}$/);
      expect(issued.token).to.deep.equal({
        id: 'tok_000001',
        dashboardId: 'dsh_a',
        name: 'ci',
        hash: sha256Hex(issued.plain),
        scopes: [...SCOPES],
        createdAt: new Date('2026-03-01T12:00:00.000Z'),
      });
    });

    it('stores only the SHA-256 hash of the token, never its plain value', async () => {
      const issued = await issue('dsh_a', 'ci');
      const [stored] = await tokens.listByDashboard('dsh_a');
      expect(stored).to.deep.equal(issued.token);
      expect(stored.hash).to.equal(sha256Hex(issued.plain));
      expect(stored).to.have.all.keys('id', 'dashboardId', 'name', 'hash', 'scopes', 'createdAt');
      expect(JSON.stringify(stored)).not.to.include(issued.plain);
      expect(JSON.stringify(stored)).not.to.include(issued.plain.slice('ok_live_'.length));
    });

    it('leaves the name out when none was given', async () => {
      const issued = await issue('dsh_a');
      expect(issued.token).not.to.have.property('name');
    });

    it('issues a different secret each time', async () => {
      const first = await issue('dsh_a');
      const second = await issue('dsh_a');
      expect(first.plain).not.to.equal(second.plain);
      expect(first.token.hash).not.to.equal(second.token.hash);
    });
  });

  describe('ListTokens', () => {
    it('answers DashboardNotFound for an unknown dashboard', async () => {
      expect(await listTokens.execute('dsh_missing')).to.deep.equal(E.left({ _tag: 'DashboardNotFound', dashboardId: 'dsh_missing' }));
    });

    it("lists only the dashboard's tokens, oldest first, revoked ones included", async () => {
      const first = await issue('dsh_a', 'one');
      clock.advance(1_000);
      await issue('dsh_b', 'other');
      clock.advance(1_000);
      const second = await issue('dsh_a', 'two');
      await revokeToken.execute(first.token.id);
      const result = await listTokens.execute('dsh_a');
      expect(E.isRight(result)).to.equal(true);
      if (E.isLeft(result)) return;
      expect(result.right.map((token) => token.id)).to.deep.equal([first.token.id, second.token.id]);
      expect(result.right[0].revokedAt).to.deep.equal(new Date('2026-03-01T12:00:02.000Z'));
    });

    it('lists nothing for a dashboard without tokens', async () => {
      expect(await listTokens.execute('dsh_b')).to.deep.equal(E.right([]));
    });
  });

  describe('RevokeToken', () => {
    it('marks the token revoked at the current time', async () => {
      const issued = await issue('dsh_a');
      clock.set('2026-03-02T00:00:00.000Z');
      expect(await revokeToken.execute(issued.token.id)).to.deep.equal(
        E.right({ ...issued.token, revokedAt: new Date('2026-03-02T00:00:00.000Z') }),
      );
    });

    it('is idempotent: revoking again succeeds and keeps the first revokedAt', async () => {
      const issued = await issue('dsh_a');
      clock.set('2026-03-02T00:00:00.000Z');
      await revokeToken.execute(issued.token.id);
      clock.set('2026-03-09T00:00:00.000Z');
      const again = await revokeToken.execute(issued.token.id);
      expect(again).to.deep.equal(E.right({ ...issued.token, revokedAt: new Date('2026-03-02T00:00:00.000Z') }));
      expect(await tokens.findByHash(issued.token.hash)).to.deep.equal(
        O.some({ ...issued.token, revokedAt: new Date('2026-03-02T00:00:00.000Z') }),
      );
    });

    it('answers TokenNotFound for an unknown token', async () => {
      expect(await revokeToken.execute('tok_missing')).to.deep.equal(E.left({ _tag: 'TokenNotFound', tokenId: 'tok_missing' }));
    });
  });

  describe('AuthenticateToken', () => {
    it('gives the principal of a valid token: its dashboard and its id', async () => {
      const inA = await issue('dsh_a');
      const inB = await issue('dsh_b');
      expect(await authenticate.execute(inA.plain)).to.deep.equal(
        E.right({ dashboardId: 'dsh_a', tokenId: inA.token.id, scopes: [...SCOPES] }),
      );
      expect(await authenticate.execute(inB.plain)).to.deep.equal(
        E.right({ dashboardId: 'dsh_b', tokenId: inB.token.id, scopes: [...SCOPES] }),
      );
    });

    it('answers Unauthorized for a malformed token without consulting the store', async () => {
      const issued = await issue('dsh_a');
      const malformed = [
        '',
        'abc',
        'ok_live_',
        issued.plain.slice(0, -1),
        `${issued.plain}x`,
        ` ${issued.plain}`,
        `${issued.plain}\n`,
        issued.plain.replace('ok_live_', 'ok_test_'),
        `${issued.plain.slice(0, -1)}-`,
        issued.token.hash,
      ];
      for (const plain of malformed) {
        expect(await authenticate.execute(plain), JSON.stringify(plain)).to.deep.equal(E.left({ _tag: 'Unauthorized' }));
      }
      expect(tokens.lookups).to.equal(0);
    });

    it('answers Unauthorized for a well-formed token that was never issued, after looking it up', async () => {
      await issue('dsh_a');
      const unknown = `ok_live_${'A'.repeat(43)}`;
      expect(await authenticate.execute(unknown)).to.deep.equal(E.left({ _tag: 'Unauthorized' }));
      expect(tokens.lookups).to.equal(1);
    });

    it('answers TokenRevoked for a revoked token', async () => {
      const issued = await issue('dsh_a');
      expect(E.isRight(await revokeToken.execute(issued.token.id))).to.equal(true);
      expect(await authenticate.execute(issued.plain)).to.deep.equal(E.left({ _tag: 'TokenRevoked' }));
    });

    it('keeps the other tokens of the dashboard working when one is revoked', async () => {
      const revoked = await issue('dsh_a');
      const kept = await issue('dsh_a');
      await revokeToken.execute(revoked.token.id);
      expect(await authenticate.execute(kept.plain)).to.deep.equal(
        E.right({ dashboardId: 'dsh_a', tokenId: kept.token.id, scopes: [...SCOPES] }),
      );
    });
  });

  describe('scopes, expiry and last use (decision 0017)', () => {
    it('issues the scopes asked for, each once and in their canonical order, and every scope by default', async () => {
      const some = await createToken.execute('dsh_a', 'checkout', { scopes: ['reports:read', 'orders:write', 'reports:read'] });
      expect(E.isRight(some) && some.right.token.scopes).to.deep.equal(['orders:write', 'reports:read']);
      const auth = await authenticate.execute(E.isRight(some) ? some.right.plain : '');
      expect(E.isRight(auth) && auth.right.scopes).to.deep.equal(['orders:write', 'reports:read']);
      expect((await issue('dsh_a')).token.scopes).to.deep.equal([...SCOPES]);
    });

    it('answers TokenExpired from expiresAt on, and not a millisecond before', async () => {
      const made = await createToken.execute('dsh_a', 'short', { expiresAt: new Date('2026-03-01T12:10:00.000Z') });
      const plain = E.isRight(made) ? made.right.plain : '';
      clock.set('2026-03-01T12:09:59.999Z');
      expect(E.isRight(await authenticate.execute(plain))).to.equal(true);
      clock.set('2026-03-01T12:10:00.000Z');
      expect(await authenticate.execute(plain)).to.deep.equal(E.left({ _tag: 'TokenExpired' }));
    });

    it('records the last use to the minute, with one write per token and minute however many requests', async () => {
      const issued = await issue('dsh_a');
      for (let i = 0; i < 50; i++) await authenticate.execute(issued.plain);
      clock.set('2026-03-01T12:00:59.999Z');
      for (let i = 0; i < 50; i++) await authenticate.execute(issued.plain);
      clock.set('2026-03-01T12:01:00.000Z');
      await authenticate.execute(issued.plain);
      await authenticate.execute(issued.plain);
      await new Promise((resolve) => setImmediate(resolve));
      expect(tokens.uses).to.deep.equal([`${issued.token.id} 2026-03-01T12:00:00.000Z`, `${issued.token.id} 2026-03-01T12:01:00.000Z`]);
      const listed = await listTokens.execute('dsh_a');
      expect(E.isRight(listed) && listed.right[0]?.lastUsedAt).to.deep.equal(new Date('2026-03-01T12:01:00.000Z'));
    });

    it('does not write again in a minute another process already recorded', async () => {
      const issued = await issue('dsh_a');
      await tokens.recordUse(issued.token.id, new Date('2026-03-01T12:00:00.000Z'));
      tokens.uses = [];
      await authenticate.execute(issued.plain);
      expect(tokens.uses).to.deep.equal([]);
    });
  });
});
