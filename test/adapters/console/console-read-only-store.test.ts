import { expect } from 'chai';
import { SqliteDatabase } from '../../../src/adapters/sqlite/sqlite-database';
import { sqliteStorageOn } from '../../../src/adapters/sqlite/sqlite-storage';
import { ConsoleClient, type ConsoleResponse } from '../../support/console-client';
import { OWNER, startConsole, type ConsoleWorld } from '../../support/console-world';
import { cheapScrypt } from '../../support/held-hasher';
import { memoryLogger } from '../../support/memory-log';
import { MutableClock } from '../../support/mutable-clock';
import { anOrderPayload } from '../../support/order-builder';
import { temporaryFolder } from '../../support/sqlite-files';

const expectUnavailable = (res: ConsoleResponse): void => {
  expect(res.status, res.text).to.equal(503);
  expect(Number(res.headers['retry-after'])).to.be.at.least(1);
  expect(res.text).to.contain('Try again in a moment');
};

/**
 * decision 0023: a store that reads but cannot write (a full disk, a read-only file) answers the
 * console's changes with 503 and Retry-After, as the API's, and its pages that only read go on.
 */
describe('the console on a store that cannot write (SQLite, PRAGMA query_only)', () => {
  let folder: ReturnType<typeof temporaryFolder>;
  let db: SqliteDatabase;
  let clock: MutableClock;
  let world: ConsoleWorld;
  let browser: ConsoleClient;

  beforeEach(async () => {
    folder = temporaryFolder();
    db = SqliteDatabase.open({ path: folder.path });
    clock = new MutableClock();
    world = await startConsole({}, cheapScrypt(), sqliteStorageOn(db, memoryLogger().logger), { clock });
    expect((await world.api.request('POST', '/api/v1/orders', { token: world.token, body: anOrderPayload() })).status).to.equal(201);
    browser = new ConsoleClient(world.api.url);
    expect((await browser.signIn(OWNER.email, OWNER.password)).status).to.equal(303);
    await browser.get('/console/links');
    db.prepare('PRAGMA query_only = ON').run();
    // Past the minute after which a page view writes the session's last-seen time.
    clock.advance(5 * 60_000);
  });

  afterEach(async () => {
    await world?.api.stop();
    folder.remove();
  });

  it('still shows the pages that only read, the session’s last-seen time left unwritten', async () => {
    for (const path of ['/console/overview', '/console/orders', '/console/links', '/console/password']) {
      const res = await browser.get(path);
      expect(res.status, `${path}: ${res.text.slice(0, 300)}`).to.equal(200);
    }
    expect((await world.api.request('GET', '/api/v1/orders', { token: world.token })).status).to.equal(200);
  });

  it('answers a change, a sign-in and a sign-out with 503 and Retry-After, never 500', async () => {
    expectUnavailable(
      await browser.post('/console/links', {
        destinationUrl: 'https://shop.example/',
        utmSource: 'google',
        utmMedium: 'cpc',
        utmCampaign: 'spring',
        action: 'save',
      }),
    );
    expectUnavailable(await new ConsoleClient(world.api.url).signIn(OWNER.email, OWNER.password));
    expectUnavailable(await browser.post('/console/sign-out', {}));
    const api = await world.api.request('POST', '/api/v1/orders', { token: world.token, body: anOrderPayload({ externalId: 'refused' }) });
    expect(api.status).to.equal(503);
  });
});
