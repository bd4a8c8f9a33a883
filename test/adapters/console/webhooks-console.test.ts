import { expect } from 'chai';
import { MAX_WEBHOOK_DESCRIPTION_LENGTH } from '../../../src/domain/webhook';
import { ConsoleClient } from '../../support/console-client';
import { OWNER, startConsole, type ConsoleWorld } from '../../support/console-world';

/** The console's form takes an endpoint within the limits the API documents, and no other. */
describe('the console’s webhook form (over HTTP)', () => {
  let world: ConsoleWorld;
  let owner: ConsoleClient;
  beforeEach(async () => {
    world = await startConsole();
    owner = new ConsoleClient(world.api.url);
    expect((await owner.signIn(OWNER.email, OWNER.password)).status).to.equal(303);
  });
  afterEach(async () => world?.api.stop());

  const descriptions = async (): Promise<unknown[]> => {
    const listed = await world.api.request('GET', '/api/v1/webhooks', { token: world.token });
    return (listed.body as { webhooks: { description?: string }[] }).webhooks.map((w) => w.description);
  };

  it('offers a description of the API’s length, and refuses a longer one with the limit, storing nothing', async () => {
    const page = await owner.get('/console/webhooks');
    expect(page.text).to.match(new RegExp(`<input id="description" name="description"[^>]* maxlength="${MAX_WEBHOOK_DESCRIPTION_LENGTH}"`));
    const longer = await owner.post('/console/webhooks', {
      url: 'http://127.0.0.1:9/hook',
      description: 'd'.repeat(MAX_WEBHOOK_DESCRIPTION_LENGTH + 1),
    });
    expect(longer.status).to.equal(400);
    expect(longer.text).to.contain(`a description of at most ${MAX_WEBHOOK_DESCRIPTION_LENGTH}`);
    expect(await descriptions()).to.deep.equal([]);
    const longest = 'd'.repeat(MAX_WEBHOOK_DESCRIPTION_LENGTH);
    expect((await owner.post('/console/webhooks', { url: 'http://127.0.0.1:9/hook', description: longest })).status).to.equal(303);
    expect(await descriptions()).to.deep.equal([longest]);
  });
});
