import { expect } from 'chai';
import { MAX_NAME_LENGTH } from '../../../src/domain/dashboard';
import { MAX_LINK_NAME_LENGTH } from '../../../src/domain/link';
import { MAX_WEBHOOK_DESCRIPTION_LENGTH } from '../../../src/domain/webhook';
import { ConsoleClient } from '../../support/console-client';
import { OWNER, startConsole, type ConsoleWorld } from '../../support/console-world';

/** The console's forms take what the API takes for the same field, within the same limits. */
describe('the console’s forms within the API’s limits (over HTTP)', () => {
  let world: ConsoleWorld;
  let owner: ConsoleClient;
  beforeEach(async () => {
    world = await startConsole();
    owner = new ConsoleClient(world.api.url);
    expect((await owner.signIn(OWNER.email, OWNER.password)).status).to.equal(303);
  });
  afterEach(async () => world?.api.stop());

  /** What the API lists of `collection`, each item's `field`. */
  const listed = async (collection: string, field: string): Promise<unknown[]> => {
    const res = await world.api.request('GET', `/api/v1/${collection}`, { token: world.token });
    return (res.body as Record<string, Record<string, unknown>[]>)[collection].map((item) => item[field]);
  };

  /** The page offers `field` up to `max` characters. */
  const offers = async (path: string, field: string, max: number): Promise<void> => {
    const page = await owner.get(path);
    expect(page.text).to.match(new RegExp(`<input id="${field}" name="${field}"[^>]* maxlength="${max}"`));
  };

  it('takes a webhook description of the API’s 200 characters, and refuses a longer one with the limit, storing nothing', async () => {
    await offers('/console/webhooks', 'description', MAX_WEBHOOK_DESCRIPTION_LENGTH);
    const longer = await owner.post('/console/webhooks', {
      url: 'http://127.0.0.1:9/hook',
      description: 'd'.repeat(MAX_WEBHOOK_DESCRIPTION_LENGTH + 1),
    });
    expect(longer.status).to.equal(400);
    expect(longer.text).to.contain(`a description of at most ${MAX_WEBHOOK_DESCRIPTION_LENGTH}`);
    expect(await listed('webhooks', 'description')).to.deep.equal([]);
    const longest = 'd'.repeat(MAX_WEBHOOK_DESCRIPTION_LENGTH);
    expect((await owner.post('/console/webhooks', { url: 'http://127.0.0.1:9/hook', description: longest })).status).to.equal(303);
    expect(await listed('webhooks', 'description')).to.deep.equal([longest]);
  });

  it('takes a link name of the API’s 255 characters, counted as the API counts them (code points), and refuses a longer one', async () => {
    await offers('/console/links', 'name', MAX_LINK_NAME_LENGTH);
    const link = { destinationUrl: 'https://shop.example/', utmSource: 'news', utmMedium: 'email', utmCampaign: 'spring', action: 'save' };
    const longer = await owner.post('/console/links', { ...link, name: 'n'.repeat(MAX_LINK_NAME_LENGTH + 1) });
    expect(longer.status).to.equal(400);
    expect(longer.text).to.contain(`The name must be at most ${MAX_LINK_NAME_LENGTH} characters.`);
    expect(await listed('links', 'name')).to.deep.equal([]);
    // Each 🙂 is two UTF-16 units and one character, for the API as here.
    const longest = '🙂'.repeat(MAX_LINK_NAME_LENGTH);
    expect((await owner.post('/console/links', { ...link, name: longest })).status).to.equal(303);
    expect(await listed('links', 'name')).to.deep.equal([longest]);
  });

  it('takes a token name of the API’s 200 characters, counted in code points', async () => {
    await owner.get('/console/tokens');
    const longer = await owner.post('/console/tokens', { name: '🙂'.repeat(MAX_NAME_LENGTH + 1), scope: 'orders:read' });
    expect(longer.status).to.equal(400);
    expect(longer.text).to.contain(`A token needs a name of at most ${MAX_NAME_LENGTH} characters.`);
    const longest = '🙂'.repeat(MAX_NAME_LENGTH);
    expect((await owner.post('/console/tokens', { name: longest, scope: 'orders:read' })).status).to.equal(303);
    const tokens = await world.api.admin('GET', `/admin/v1/dashboards/${world.dashboardId}/tokens`);
    expect((tokens.body as { tokens: { name: string | null }[] }).tokens.map((t) => t.name)).to.include(longest);
  });
});
