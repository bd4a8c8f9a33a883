import { expect } from 'chai';
import * as O from 'fp-ts/Option';
import type { WebhookEndpointRepository } from '../../src/application/ports/webhook-endpoint-repository';
import { anEndpoint } from '../support/webhook-builders';

/** What every WebhookEndpointRepository must do (src/application/ports/webhook-endpoint-repository.ts). */
export const webhookEndpointRepositoryContract = (adapterName: string, factory: () => Promise<WebhookEndpointRepository>): void => {
  describe(`WebhookEndpointRepository contract: ${adapterName}`, () => {
    let endpoints: WebhookEndpointRepository;

    beforeEach(async () => {
      endpoints = await factory();
    });

    it('stores an endpoint and gives it back as it was stored, every optional field included', async () => {
      const full = anEndpoint('whk_full', {
        events: ['order.paid', 'webhook.test'],
        description: 'Payments ✓',
        enabled: false,
        disabledReason: 'The receiver answered 410 Gone on 2026-01-03T00:00:00.000Z',
        previousSecret: { secret: 'whsec_b2xkIHNlY3JldCBvZiAzMiBieXRlcyBleGFjdGx5IQ==', expiresAt: new Date('2026-01-03T03:04:05.001Z') },
        version: 4,
      });
      expect(await endpoints.insert(full, 20)).to.equal(true);
      expect(await endpoints.find('dsh_a', 'whk_full')).to.deep.equal(O.some(full));
      expect(await endpoints.insert(anEndpoint('whk_min'), 20)).to.equal(true);
      const minimal = await endpoints.find('dsh_a', 'whk_min');
      expect(minimal).to.deep.equal(O.some(anEndpoint('whk_min')));
      expect(O.isSome(minimal) && minimal.value).not.to.have.any.keys('description', 'disabledReason', 'previousSecret');
    });

    it("never shows another dashboard's endpoint", async () => {
      await endpoints.insert(anEndpoint('whk_1'), 20);
      expect(await endpoints.find('dsh_b', 'whk_1')).to.deep.equal(O.none);
      expect(await endpoints.listByDashboard('dsh_b')).to.deep.equal([]);
      expect(await endpoints.delete('dsh_b', 'whk_1')).to.equal(false);
      expect(await endpoints.replace(anEndpoint('whk_1', { dashboardId: 'dsh_b', version: 2, url: 'https://x.example' }))).to.equal(false);
      expect(await endpoints.find('dsh_a', 'whk_1')).to.deep.equal(O.some(anEndpoint('whk_1')));
    });

    it('lists a dashboard oldest first, then by id', async () => {
      await endpoints.insert(anEndpoint('whk_c', { createdAt: new Date('2026-01-03T00:00:00.000Z') }), 20);
      await endpoints.insert(anEndpoint('whk_b'), 20);
      await endpoints.insert(anEndpoint('whk_a'), 20);
      await endpoints.insert(anEndpoint('whk_other', { dashboardId: 'dsh_b' }), 20);
      expect((await endpoints.listByDashboard('dsh_a')).map((e) => e.id)).to.deep.equal(['whk_a', 'whk_b', 'whk_c']);
    });

    it('refuses an endpoint beyond the limit of its dashboard, and not in another dashboard', async () => {
      for (let i = 0; i < 3; i++) expect(await endpoints.insert(anEndpoint(`whk_${i}`), 3)).to.equal(true);
      expect(await endpoints.insert(anEndpoint('whk_3'), 3)).to.equal(false);
      expect(await endpoints.find('dsh_a', 'whk_3')).to.deep.equal(O.none);
      expect(await endpoints.insert(anEndpoint('whk_b0', { dashboardId: 'dsh_b' }), 3)).to.equal(true);
      expect(await endpoints.delete('dsh_a', 'whk_1')).to.equal(true);
      expect(await endpoints.insert(anEndpoint('whk_4'), 3)).to.equal(true);
      expect((await endpoints.listByDashboard('dsh_a')).map((e) => e.id).sort()).to.deep.equal(['whk_0', 'whk_2', 'whk_4']);
    });

    // Relies on an atomic limit: a count followed by an insert lets racing inserts pass it.
    it('never passes the limit under 30 racing inserts into one dashboard, and fills it exactly', async () => {
      const results = await Promise.all(Array.from({ length: 30 }, (_, i) => endpoints.insert(anEndpoint(`whk_r${i}`), 20)));
      expect(results.filter(Boolean)).to.have.length(20);
      expect(await endpoints.listByDashboard('dsh_a')).to.have.length(20);
    });

    it('replaces an endpoint from its stored version only, and removes the optional fields it no longer has', async () => {
      const first = anEndpoint('whk_1', { description: 'first', disabledReason: 'gone', enabled: false });
      await endpoints.insert(first, 20);
      const { description: _d, disabledReason: _r, ...rest } = first;
      const second = { ...rest, url: 'https://other.example/hook', enabled: true, version: 2 };
      expect(await endpoints.replace(second)).to.equal(true);
      expect(await endpoints.find('dsh_a', 'whk_1')).to.deep.equal(O.some(second));
      expect(await endpoints.replace({ ...second, url: 'https://stale.example' })).to.equal(false);
      expect(await endpoints.replace({ ...first, version: 5 })).to.equal(false);
      expect(await endpoints.find('dsh_a', 'whk_1')).to.deep.equal(O.some(second));
    });

    // Relies on a compare-and-set on one record: a read then a write lets two replaces from one version both win.
    it('lets exactly one of 10 racing replaces from one version win', async () => {
      await endpoints.insert(anEndpoint('whk_1'), 20);
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => endpoints.replace(anEndpoint('whk_1', { url: `https://racer-${i}.example`, version: 2 }))),
      );
      expect(results.filter(Boolean)).to.have.length(1);
      const winner = results.indexOf(true);
      const stored = await endpoints.find('dsh_a', 'whk_1');
      expect(O.isSome(stored) && stored.value.url).to.equal(`https://racer-${winner}.example`);
    });

    it('deletes an endpoint once: it is gone, and a second delete resolves false', async () => {
      await endpoints.insert(anEndpoint('whk_1'), 20);
      expect(await endpoints.delete('dsh_a', 'whk_1')).to.equal(true);
      expect(await endpoints.find('dsh_a', 'whk_1')).to.deep.equal(O.none);
      expect(await endpoints.delete('dsh_a', 'whk_1')).to.equal(false);
      expect(await endpoints.replace(anEndpoint('whk_1', { version: 2 }))).to.equal(false);
    });

    it('hands out copies: changing what it returned changes nothing stored', async () => {
      await endpoints.insert(anEndpoint('whk_1', { events: ['order.paid'] }), 20);
      const found = await endpoints.find('dsh_a', 'whk_1');
      if (O.isNone(found)) throw new Error('not found');
      (found.value.events as string[]).push('order.created');
      found.value.createdAt.setTime(0);
      expect(await endpoints.find('dsh_a', 'whk_1')).to.deep.equal(O.some(anEndpoint('whk_1', { events: ['order.paid'] })));
    });
  });
};
