import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { openStorage } from '../../src/bootstrap/open-storage';
import { memoryLogger } from '../support/memory-log';
import { temporaryFolder } from '../support/sqlite-files';
import { testConfig } from '../support/test-config';

/** Which store the configuration selects (decision 0015). */
describe('openStorage', () => {
  let folder: ReturnType<typeof temporaryFolder>;
  beforeEach(() => {
    folder = temporaryFolder();
  });
  afterEach(() => folder.remove());

  it('opens the SQLite file at sqlitePath, creating it and its folders, and names it in its description', async () => {
    const path = join(folder.dir, 'not', 'yet', 'orders.db');
    const storage = await openStorage(testConfig({ store: 'sqlite', sqlitePath: path }), memoryLogger().logger);
    try {
      expect(existsSync(path)).to.equal(true);
      expect(storage.description).to.equal(`embedded SQLite store, file ${path}`);
      expect(storage.persistent).to.equal(true);
      expect(await storage.health.ping()).to.equal(true);
    } finally {
      await storage.health.close();
    }
  });

  it('keeps the in-memory store for STORE=memory, and writes no file', async () => {
    const storage = await openStorage(testConfig({ store: 'memory', sqlitePath: folder.path }), memoryLogger().logger);
    expect(storage.persistent).to.equal(false);
    expect(storage.description).to.match(/^in-memory store/);
    expect(existsSync(folder.path)).to.equal(false);
  });
});
