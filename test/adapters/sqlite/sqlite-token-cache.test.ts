import { expect } from 'chai';
import * as O from 'fp-ts/Option';
import { openSqliteStorage } from '../../../src/adapters/sqlite/sqlite-storage';
import type { Storage } from '../../../src/application/ports/storage';
import type { ApiToken } from '../../../src/domain/dashboard';
import { memoryLogger } from '../../support/memory-log';
import { temporaryFolder } from '../../support/sqlite-files';

const token: ApiToken = {
  id: 'tok_1',
  dashboardId: 'dsh_a',
  hash: 'a'.repeat(64),
  scopes: ['orders:write'],
  createdAt: new Date('2026-01-02T03:04:05.678Z'),
};

// SqliteTokenRepository keeps the tokens it found while the file is as its connection last saw it:
// what another connection (another process on the same file, the CLI) commits must be seen at once.
describe('SQLite tokens found by hash, with two connections to one file', () => {
  let folder: ReturnType<typeof temporaryFolder>;
  let service: Storage;
  let cli: Storage;

  beforeEach(async () => {
    folder = temporaryFolder();
    service = openSqliteStorage({ path: folder.path, logger: memoryLogger().logger });
    cli = openSqliteStorage({ path: folder.path, logger: memoryLogger().logger });
    await cli.tokens.insert(token);
  });

  afterEach(async () => {
    await service.health.close();
    await cli.health.close();
    folder.remove();
  });

  it('sees at once a revocation and a use the other connection committed after a lookup', async () => {
    for (let i = 0; i < 3; i++) expect(await service.tokens.findByHash(token.hash)).to.deep.equal(O.some(token));
    await cli.tokens.revoke('tok_1', new Date('2026-02-01T00:00:00.000Z'));
    expect(await service.tokens.findByHash(token.hash)).to.deep.equal(
      O.some({ ...token, revokedAt: new Date('2026-02-01T00:00:00.000Z') }),
    );
    await cli.tokens.recordUse('tok_1', new Date('2026-02-01T00:05:00.000Z'));
    expect(await service.tokens.findByHash(token.hash)).to.deep.equal(
      O.some({ ...token, revokedAt: new Date('2026-02-01T00:00:00.000Z'), lastUsedAt: new Date('2026-02-01T00:05:00.000Z') }),
    );
  });

  it('sees a revocation committed while its own orders are written', async () => {
    expect(await service.tokens.findByHash(token.hash)).to.deep.equal(O.some(token));
    await cli.tokens.revoke('tok_1', new Date('2026-02-01T00:00:00.000Z'));
    await service.tokens.recordUse('tok_1', new Date('2026-02-01T00:01:00.000Z'));
    const found = await service.tokens.findByHash(token.hash);
    expect(O.isSome(found) && found.value.revokedAt).to.deep.equal(new Date('2026-02-01T00:00:00.000Z'));
  });
});
