import { expect } from 'chai';
import * as O from 'fp-ts/Option';
import type { SourceDeliveryLog } from '../../src/application/ports/source-delivery-log';
import { aSourceDelivery } from '../support/source-builders';

/** What every SourceDeliveryLog must do (src/application/ports/source-delivery-log.ts). */
export const sourceDeliveryLogContract = (adapterName: string, factory: () => Promise<SourceDeliveryLog>): void => {
  describe(`SourceDeliveryLog contract: ${adapterName}`, () => {
    let log: SourceDeliveryLog;

    beforeEach(async () => {
      log = await factory();
    });

    it('gives deliveries back newest first, every optional field kept or absent as appended', async () => {
      const full = aSourceDelivery('sdl_2', {
        eventId: 'evt_1',
        topic: 'orders/paid',
        outcome: 'updated',
        reason: 'pending → paid',
        externalId: 'shopify:1',
        receivedAt: new Date('2026-01-02T03:04:06.000Z'),
      });
      await log.append(aSourceDelivery('sdl_1'), 1000);
      await log.append(full, 1000);
      await log.append(aSourceDelivery('sdl_other', { sourceId: 'src_2' }), 1000);
      const page = await log.list('src_1', { page: 1, pageSize: 20 });
      expect(page).to.deep.equal({ deliveries: [full, aSourceDelivery('sdl_1')], total: 2 });
      expect(page.deliveries[1]).not.to.have.any.keys('eventId', 'topic', 'reason', 'externalId');
      expect(await log.list('src_1', { page: 2, pageSize: 1 })).to.deep.equal({ deliveries: [aSourceDelivery('sdl_1')], total: 2 });
      expect(await log.list('src_3', { page: 1, pageSize: 20 })).to.deep.equal({ deliveries: [], total: 0 });
    });

    it('keeps the newest `keep` of a source, trimming the oldest with each append', async () => {
      for (let i = 0; i < 8; i++) await log.append(aSourceDelivery(`sdl_${i}`), 5);
      const page = await log.list('src_1', { page: 1, pageSize: 20 });
      expect(page.total).to.equal(5);
      expect(page.deliveries.map((d) => d.id)).to.deep.equal(['sdl_7', 'sdl_6', 'sdl_5', 'sdl_4', 'sdl_3']);
    });

    // Relies on the append and the trim being one atomic step.
    it('never holds more than `keep`, nor loses one of the newest, under 30 racing appends', async () => {
      await Promise.all(Array.from({ length: 30 }, (_, i) => log.append(aSourceDelivery(`sdl_${i}`), 10)));
      const page = await log.list('src_1', { page: 1, pageSize: 100 });
      expect(page.total).to.equal(10);
      expect(page.deliveries).to.have.length(10);
      expect(new Set(page.deliveries.map((d) => d.id)).size).to.equal(10);
    });

    it('finds the first applied delivery of an event, never an ignored or refused one, nor another source’s', async () => {
      await log.append(aSourceDelivery('sdl_1', { eventId: 'evt_1', outcome: 'refused' }), 1000);
      expect(await log.findApplied('src_1', 'evt_1')).to.deep.equal(O.none);
      const applied = aSourceDelivery('sdl_2', { eventId: 'evt_1', outcome: 'created', externalId: 'stripe:pi_1' });
      await log.append(applied, 1000);
      await log.append(aSourceDelivery('sdl_3', { eventId: 'evt_1', outcome: 'updated' }), 1000);
      expect(await log.findApplied('src_1', 'evt_1')).to.deep.equal(O.some(applied));
      expect(await log.findApplied('src_2', 'evt_1')).to.deep.equal(O.none);
      expect(await log.findApplied('src_1', 'evt_2')).to.deep.equal(O.none);
    });

    it("forgets a source's log, and only that one", async () => {
      await log.append(aSourceDelivery('sdl_1'), 1000);
      await log.append(aSourceDelivery('sdl_2', { sourceId: 'src_2' }), 1000);
      await log.deleteOfSource('src_1');
      expect((await log.list('src_1', { page: 1, pageSize: 20 })).total).to.equal(0);
      expect((await log.list('src_2', { page: 1, pageSize: 20 })).total).to.equal(1);
    });
  });
};
