import { expect } from 'chai';
import * as O from 'fp-ts/Option';
import type { Storage } from '../../src/application/ports/storage';
import { changeAdAccount, newAdAccount } from '../../src/domain/ad-account';
import {
  afterConversionAttempt,
  CONVERSION_RETENTION_MS,
  newConversionDelivery,
  type ConversionDelivery,
  type ConversionKind,
} from '../../src/domain/conversion';

const T0 = new Date('2026-11-20T10:00:00.000Z');
const at = (ms: number): Date => new Date(T0.getTime() + ms);

const aDelivery = (
  id: string,
  changes: { dashboardId?: string; adAccountId?: string; kind?: ConversionKind; orderId?: string; createdAt?: Date } = {},
) =>
  newConversionDelivery(
    {
      id,
      dashboardId: changes.dashboardId ?? 'dsh_a',
      adAccountId: changes.adAccountId ?? 'ada_1',
      platform: 'meta',
      eventId: `evt_${id}`,
      conversion: {
        kind: changes.kind ?? 'purchase',
        orderId: changes.orderId ?? `ord_${id}`,
        externalId: `ext-${id}`,
        occurredAt: at(-1_000),
        valueCents: 12_990,
        currency: 'BRL',
        click: { name: 'fbclid', value: 'IwAR', capturedAt: at(-5_000) },
        hashedEmail: 'a'.repeat(64),
      },
    },
    changes.createdAt ?? T0,
  );

/** The relay is the only way in: the outbox stores conversions with an order's events (none here). */
const relay = (storage: Storage, ...deliveries: ConversionDelivery[]) =>
  storage.outbox.relay({ orderId: 'ord_none', dashboardId: 'dsh_a', events: [] }, [], deliveries);

const claim = (storage: Storage, now: Date, leaseId: string, skipDashboards: string[] = []) =>
  storage.conversions.claimDue({ now, leaseMs: 5_000, leaseId, skipDashboards });

/**
 * What every store of conversion deliveries must do alike: one per (event, account) however often the
 * relay runs, leases that one claimant holds at a time, the log's pages, an order's purchase found for
 * its refund, new credentials making an account's waiting ones due, and the account's refusal kept
 * apart from its settings.
 */
export const conversionRepositoryContract = (adapterName: string, factory: () => Promise<Storage>): void => {
  describe(`${adapterName}: conversions`, () => {
    let storage: Storage;
    beforeEach(async () => {
      storage = await factory();
    });

    it('stores each (event, account) once, however often the relay runs, and lists them newest first', async () => {
      await relay(storage, aDelivery('cnv_1'), aDelivery('cnv_2', { createdAt: at(10) }));
      await relay(storage, { ...aDelivery('cnv_1'), id: 'cnv_other' });
      const page = await storage.conversions.list('dsh_a', 'ada_1', { page: 1, pageSize: 10 });
      expect(page.total).to.equal(2);
      expect(page.conversions.map((c) => c.id)).to.deep.equal(['cnv_2', 'cnv_1']);
      expect(page.conversions[1]).to.deep.equal(aDelivery('cnv_1'));
      expect((await storage.conversions.list('dsh_b', 'ada_1', { page: 1, pageSize: 10 })).total).to.equal(0);
      expect((await storage.conversions.list('dsh_a', 'ada_1', { page: 2, pageSize: 1 })).conversions.map((c) => c.id)).to.deep.equal([
        'cnv_1',
      ]);
      expect((await storage.conversions.list('dsh_a', 'ada_1', { page: 1, pageSize: 10, status: 'failed' })).total).to.equal(0);
    });

    it('lets one claimant hold a due delivery; a lost lease writes nothing; a released one is due again', async () => {
      await relay(storage, aDelivery('cnv_1'));
      const first = await claim(storage, at(0), 'lse_1');
      expect(first?.delivery.id).to.equal('cnv_1');
      expect(await claim(storage, at(1), 'lse_2')).to.equal(undefined);
      expect(await claim(storage, at(0), 'lse_3', ['dsh_a'])).to.equal(undefined);
      const taken = await claim(storage, at(6_000), 'lse_4');
      expect(taken?.lease.leaseId).to.equal('lse_4');
      const done = afterConversionAttempt(
        first!.delivery,
        { at: at(1), durationMs: 3, test: false, result: { kind: 'accepted', status: 200, reply: '{}' } },
        [5],
        0.5,
      );
      expect(await storage.conversions.complete(first!.lease, done)).to.equal(false);
      await storage.conversions.release(taken!.lease);
      const again = await claim(storage, at(6_001), 'lse_5');
      expect(await storage.conversions.complete(again!.lease, done)).to.equal(true);
      expect(await claim(storage, at(60_000), 'lse_6')).to.equal(undefined);
      const [stored] = (await storage.conversions.list('dsh_a', 'ada_1', { page: 1, pageSize: 1, status: 'succeeded' })).conversions;
      expect(stored).to.deep.equal(done);
    });

    it("finds an order's purchase for its refund, makes an account's waiting deliveries due, deletes an account's, and purges the old", async () => {
      await relay(
        storage,
        aDelivery('cnv_1', { orderId: 'ord_x' }),
        aDelivery('cnv_2', { orderId: 'ord_x', kind: 'refund' }),
        aDelivery('cnv_3', { adAccountId: 'ada_2' }),
      );
      expect((await storage.conversions.findOfOrder('ada_1', 'ord_x', 'purchase'))?.id).to.equal('cnv_1');
      expect(await storage.conversions.findOfOrder('ada_2', 'ord_x', 'purchase')).to.equal(undefined);
      const claimed = await claim(storage, at(0), 'lse_1');
      const later = afterConversionAttempt(
        claimed!.delivery,
        { at: at(0), durationMs: 0, test: false, result: { kind: 'unavailable', message: 'down' } },
        [3_600],
        0.5,
      );
      await storage.conversions.complete(claimed!.lease, later);
      expect(await storage.conversions.makeDueOfAccount('dsh_b', later.adAccountId, at(1))).to.equal(0);
      expect(await storage.conversions.makeDueOfAccount('dsh_a', later.adAccountId, at(1))).to.equal(1);
      expect((await claim(storage, at(2), 'lse_2', []))?.delivery.id).to.be.a('string');
      await storage.conversions.deleteOfAccount('dsh_a', 'ada_2');
      expect((await storage.conversions.list('dsh_a', 'ada_2', { page: 1, pageSize: 10 })).total).to.equal(0);
      expect(await storage.conversions.purgeExpired(at(CONVERSION_RETENTION_MS - 1))).to.equal(0);
      expect(await storage.conversions.purgeExpired(at(CONVERSION_RETENTION_MS))).to.equal(2);
    });

    it("keeps the account's refusal apart from its settings: an edit does not undo it, and clearing it does", async () => {
      const account = newAdAccount(
        { platform: 'meta', name: 'M', accountId: '1', campaignKey: 'name', conversions: { enabled: true, target: '9' } },
        { id: 'ada_1', dashboardId: 'dsh_a' },
        'sealed',
        T0,
      );
      await storage.adAccounts.insert(account, 20);
      const problem = { message: 'Meta: expired (code 190)', since: at(5) };
      expect(await storage.adAccounts.setConversionProblem('dsh_b', 'ada_1', problem)).to.equal(false);
      expect(await storage.adAccounts.setConversionProblem('dsh_a', 'ada_1', problem)).to.equal(true);
      expect(await storage.adAccounts.replace(changeAdAccount(account, { name: 'Renamed' }, at(6)))).to.equal(true);
      const found = O.getOrElseW(() => undefined)(await storage.adAccounts.find('dsh_a', 'ada_1'))!;
      expect(found.name).to.equal('Renamed');
      expect(found.conversionProblem).to.deep.equal(problem);
      await storage.adAccounts.setConversionProblem('dsh_a', 'ada_1', undefined);
      expect(O.getOrElseW(() => undefined)(await storage.adAccounts.find('dsh_a', 'ada_1'))!.conversionProblem).to.equal(undefined);
    });
  });
};
