import { expect } from 'chai';
import { createHash } from 'node:crypto';
import * as O from 'fp-ts/Option';
import type { TokenRepository } from '../../src/application/ports/token-repository';
import type { ApiToken } from '../../src/domain/dashboard';

const sha256Hex = (plain: string): string => createHash('sha256').update(plain, 'utf8').digest('hex');

const aToken = (id: string, changes: Partial<ApiToken> = {}): ApiToken => ({
  id,
  dashboardId: 'dsh_a',
  name: `token ${id}`,
  hash: sha256Hex(`plain-${id}`),
  scopes: ['orders:write', 'reports:read'],
  createdAt: new Date('2026-01-02T03:04:05.678Z'),
  ...changes,
});

const rejectionOf = async (promise: Promise<unknown>): Promise<unknown> => {
  try {
    await promise;
  } catch (error) {
    return error ?? new Error('rejected with nothing');
  }
  return undefined;
};

export const tokenRepositoryContract = (adapterName: string, factory: () => Promise<TokenRepository>): void => {
  describe(`TokenRepository contract: ${adapterName}`, () => {
    let tokens: TokenRepository;

    beforeEach(async () => {
      tokens = await factory();
    });

    describe('insert and findByHash', () => {
      it('finds a stored token by its hash, exactly as it was stored', async () => {
        await tokens.insert(aToken('tok_1'));
        expect(await tokens.findByHash(sha256Hex('plain-tok_1'))).to.deep.equal(O.some(aToken('tok_1')));
      });

      it('gives back a token without a name without inventing one', async () => {
        const { name: _unnamed, ...unnamed } = aToken('tok_1');
        await tokens.insert(unnamed);
        const found = await tokens.findByHash(unnamed.hash);
        expect(found).to.deep.equal(O.some(unnamed));
        expect(O.isSome(found) && found.value).not.to.have.any.keys('name', 'revokedAt');
      });

      it('gives back createdAt as a Date with its milliseconds', async () => {
        await tokens.insert(aToken('tok_1'));
        const found = await tokens.findByHash(aToken('tok_1').hash);
        expect(O.isSome(found) && found.value.createdAt).to.be.instanceOf(Date);
        expect(O.isSome(found) && found.value.createdAt.toISOString()).to.equal('2026-01-02T03:04:05.678Z');
      });

      it('resolves none for a hash that no token has', async () => {
        await tokens.insert(aToken('tok_1'));
        expect(await tokens.findByHash(sha256Hex('never issued'))).to.deep.equal(O.none);
      });

      it('finds a token as it is now after it was found before: revoked, then used', async () => {
        await tokens.insert(aToken('tok_1'));
        expect(await tokens.findByHash(aToken('tok_1').hash)).to.deep.equal(O.some(aToken('tok_1')));
        await tokens.revoke('tok_1', new Date('2026-02-01T00:00:00.000Z'));
        expect(await tokens.findByHash(aToken('tok_1').hash)).to.deep.equal(
          O.some(aToken('tok_1', { revokedAt: new Date('2026-02-01T00:00:00.000Z') })),
        );
        await tokens.recordUse('tok_1', new Date('2026-02-01T00:05:00.000Z'));
        expect(await tokens.findByHash(aToken('tok_1').hash)).to.deep.equal(
          O.some(aToken('tok_1', { revokedAt: new Date('2026-02-01T00:00:00.000Z'), lastUsedAt: new Date('2026-02-01T00:05:00.000Z') })),
        );
      });

      it('finds a token inserted after its hash was looked for in vain', async () => {
        expect(await tokens.findByHash(aToken('tok_1').hash)).to.deep.equal(O.none);
        await tokens.insert(aToken('tok_1'));
        expect(await tokens.findByHash(aToken('tok_1').hash)).to.deep.equal(O.some(aToken('tok_1')));
      });

      it('finds revoked tokens too', async () => {
        await tokens.insert(aToken('tok_1'));
        await tokens.revoke('tok_1', new Date('2026-02-01T00:00:00.000Z'));
        expect(await tokens.findByHash(aToken('tok_1').hash)).to.deep.equal(
          O.some(aToken('tok_1', { revokedAt: new Date('2026-02-01T00:00:00.000Z') })),
        );
      });

      it('refuses a second token with a hash already stored', async () => {
        await tokens.insert(aToken('tok_1'));
        expect(await rejectionOf(tokens.insert(aToken('tok_2', { hash: aToken('tok_1').hash })))).to.be.instanceOf(Error);
        expect(await tokens.findByHash(aToken('tok_1').hash)).to.deep.equal(O.some(aToken('tok_1')));
      });

      it('refuses a second token with an id already stored', async () => {
        await tokens.insert(aToken('tok_1'));
        expect(await rejectionOf(tokens.insert(aToken('tok_1', { hash: sha256Hex('other') })))).to.be.instanceOf(Error);
        expect(await tokens.findByHash(sha256Hex('other'))).to.deep.equal(O.none);
      });

      it('does not share the found token with the store', async () => {
        await tokens.insert(aToken('tok_1'));
        const found = await tokens.findByHash(aToken('tok_1').hash);
        if (O.isNone(found)) throw new Error('token not found');
        const scribbled = found.value as { name?: string; createdAt: Date };
        scribbled.name = 'scribbled';
        scribbled.createdAt.setTime(0);
        expect(await tokens.findByHash(aToken('tok_1').hash)).to.deep.equal(O.some(aToken('tok_1')));
      });
    });

    describe('listByDashboard', () => {
      it('resolves an empty list for a dashboard without tokens', async () => {
        await tokens.insert(aToken('tok_1'));
        expect(await tokens.listByDashboard('dsh_b')).to.deep.equal([]);
      });

      it("lists only the dashboard's tokens, oldest first, then by id ascending", async () => {
        const same = new Date('2026-01-05T00:00:00.000Z');
        const inserted = [
          aToken('tok_b', { createdAt: same }),
          aToken('tok_late', { createdAt: new Date('2026-01-05T00:00:00.001Z') }),
          aToken('tok_A', { createdAt: same }),
          aToken('tok_other', { dashboardId: 'dsh_b', createdAt: new Date('2026-01-01T00:00:00.000Z') }),
          aToken('tok_a', { createdAt: same }),
          aToken('tok_early', { createdAt: new Date('2026-01-04T23:59:59.999Z') }),
        ];
        for (const token of inserted) await tokens.insert(token);
        const listed = await tokens.listByDashboard('dsh_a');
        expect(listed.map((token) => token.id)).to.deep.equal(['tok_early', 'tok_A', 'tok_a', 'tok_b', 'tok_late']);
        expect(listed[0]).to.deep.equal(aToken('tok_early', { createdAt: new Date('2026-01-04T23:59:59.999Z') }));
      });

      it('lists revoked tokens with their revokedAt', async () => {
        await tokens.insert(aToken('tok_1'));
        await tokens.revoke('tok_1', new Date('2026-02-01T00:00:00.123Z'));
        expect(await tokens.listByDashboard('dsh_a')).to.deep.equal([aToken('tok_1', { revokedAt: new Date('2026-02-01T00:00:00.123Z') })]);
      });
    });

    describe('revoke', () => {
      it('marks the token revoked at the time given and resolves the token as stored afterwards', async () => {
        await tokens.insert(aToken('tok_1'));
        const at = new Date('2026-02-01T00:00:00.456Z');
        const revoked = await tokens.revoke('tok_1', at);
        expect(revoked).to.deep.equal(O.some(aToken('tok_1', { revokedAt: at })));
        expect(await tokens.findByHash(aToken('tok_1').hash)).to.deep.equal(revoked);
      });

      it('is idempotent: a token already revoked keeps its first revokedAt', async () => {
        await tokens.insert(aToken('tok_1'));
        const first = new Date('2026-02-01T00:00:00.000Z');
        await tokens.revoke('tok_1', first);
        expect(await tokens.revoke('tok_1', new Date('2026-02-09T00:00:00.000Z'))).to.deep.equal(
          O.some(aToken('tok_1', { revokedAt: first })),
        );
        expect(await tokens.findByHash(aToken('tok_1').hash)).to.deep.equal(O.some(aToken('tok_1', { revokedAt: first })));
      });

      // Relies on an atomic conditional update (set revokedAt where it is absent): where the filter
      // is checked apart from the write, several revocations win and resolve different times.
      it('is atomic: parallel revocations all resolve the one revokedAt that was kept (atomic conditional update)', async () => {
        await tokens.insert(aToken('tok_1'));
        const times = Array.from({ length: 10 }, (_, i) => new Date(Date.UTC(2026, 1, 1 + i)));
        const results = await Promise.all(times.map((at) => tokens.revoke('tok_1', at)));
        const stored = await tokens.findByHash(aToken('tok_1').hash);
        if (O.isNone(stored)) throw new Error('token not found');
        expect(times.map((at) => at.getTime())).to.include(stored.value.revokedAt?.getTime());
        for (const result of results) expect(result).to.deep.equal(stored);
      });

      it('resolves none, and creates nothing, for an unknown token', async () => {
        await tokens.insert(aToken('tok_1'));
        expect(await tokens.revoke('tok_missing', new Date('2026-02-01T00:00:00.000Z'))).to.deep.equal(O.none);
        expect(await tokens.listByDashboard('dsh_a')).to.deep.equal([aToken('tok_1')]);
      });

      it('revokes only the token named', async () => {
        await tokens.insert(aToken('tok_1'));
        await tokens.insert(aToken('tok_2'));
        await tokens.revoke('tok_1', new Date('2026-02-01T00:00:00.000Z'));
        expect(await tokens.findByHash(aToken('tok_2').hash)).to.deep.equal(O.some(aToken('tok_2')));
      });
    });

    describe('scopes, expiry and last use', () => {
      it('keeps the scopes and the expiry as given, and no last use', async () => {
        const token = aToken('tok_1', { scopes: ['orders:write'], expiresAt: new Date('2027-01-01T00:00:00.000Z') });
        await tokens.insert(token);
        expect(await tokens.findByHash(token.hash)).to.deep.equal(O.some(token));
      });

      it('records a use, keeps the latest of two, and ignores an unknown token', async () => {
        await tokens.insert(aToken('tok_1'));
        await tokens.recordUse('tok_1', new Date('2026-02-01T00:05:00.000Z'));
        await tokens.recordUse('tok_1', new Date('2026-02-01T00:04:00.000Z'));
        await tokens.recordUse('tok_missing', new Date('2026-02-01T00:06:00.000Z'));
        expect(await tokens.findByHash(aToken('tok_1').hash)).to.deep.equal(
          O.some(aToken('tok_1', { lastUsedAt: new Date('2026-02-01T00:05:00.000Z') })),
        );
        expect(await tokens.listByDashboard('dsh_a')).to.have.length(1);
      });
    });
  });
};
