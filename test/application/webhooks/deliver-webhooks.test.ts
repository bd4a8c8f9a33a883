import { expect } from 'chai';
import * as O from 'fp-ts/Option';
import { inMemoryStorage } from '../../../src/adapters/memory/in-memory-storage';
import { DeliverWebhooks } from '../../../src/application/webhooks/deliver-webhooks';
import type { SendOutcome, WebhookRequest, WebhookSender } from '../../../src/application/ports/webhook-sender';
import type { Storage } from '../../../src/application/ports/storage';
import type { AttemptResult } from '../../../src/domain/delivery';
import { rotateWebhookSecret } from '../../../src/domain/webhook';
import { MutableClock, TEST_EPOCH } from '../../support/mutable-clock';
import { aDelivery, anEndpoint } from '../../support/webhook-builders';

/** A sender that answers what the test says, and keeps what it was asked to send. */
class ScriptedSender implements WebhookSender {
  readonly sent: WebhookRequest[] = [];
  constructor(public result: AttemptResult = { kind: 'response', status: 200 }) {}
  async send(request: WebhookRequest, signal: AbortSignal): Promise<SendOutcome> {
    this.sent.push(request);
    if (signal.aborted) return { durationMs: 1, result: { kind: 'error', message: 'cut off' } };
    return { durationMs: 7, result: this.result };
  }
}

describe('DeliverWebhooks', () => {
  let storage: Storage;
  let sender: ScriptedSender;
  const clock = new MutableClock();
  const never = new AbortController().signal;
  const deliver = () =>
    new DeliverWebhooks(
      storage.deliveries,
      storage.webhooks,
      sender,
      { retrySchedule: [5, 60], leaseMs: 60_000, renewEveryMs: 20_000 },
      clock,
    );
  const stored = async (id = 'dlv_1') => {
    const found = await storage.deliveries.find('dsh_a', 'whk_1', id);
    if (O.isNone(found)) throw new Error(`${id} not found`);
    return found.value;
  };
  const claimOne = async () => {
    const [claimed] = await deliver().claim(1);
    if (claimed === undefined) throw new Error('nothing claimed');
    return claimed;
  };

  beforeEach(async () => {
    clock.set(TEST_EPOCH);
    storage = inMemoryStorage();
    sender = new ScriptedSender();
    await storage.webhooks.insert(anEndpoint('whk_1'), 20);
    await storage.deliveries.insert(aDelivery('dlv_1'));
  });

  it('sends the delivery to the URL of the endpoint, signed with its secrets of the moment, and records the attempt', async () => {
    await storage.webhooks.replace(rotateWebhookSecret(anEndpoint('whk_1'), 'whsec_new', new Date(TEST_EPOCH)));
    const report = await deliver().attempt(await claimOne(), never);
    expect(sender.sent).to.deep.equal([
      {
        url: 'https://hooks.example.com/whk_1',
        webhookId: 'evt_dlv_1',
        timestamp: new Date(TEST_EPOCH),
        body: aDelivery('dlv_1').body,
        secrets: ['whsec_new', anEndpoint('whk_1').secret],
      },
    ]);
    expect(report).to.deep.include({ kind: 'attempted', status: 'succeeded', recorded: true, disabledEndpoint: false });
    expect((await stored()).attempts).to.deep.equal([{ at: new Date(TEST_EPOCH), durationMs: 7, responseStatus: 200 }]);
  });

  it('schedules the next attempt after a failure, due again at its time', async () => {
    sender.result = { kind: 'error', message: 'connection refused' };
    await deliver().attempt(await claimOne(), never);
    const after = await stored();
    expect(after.status).to.equal('pending');
    expect(after.nextAttemptAt!.getTime() - Date.parse(TEST_EPOCH)).to.be.within(7 + 4_500, 7 + 5_500);
    expect(await deliver().claim(1)).to.deep.equal([]);
  });

  it('drops, unsent, a delivery whose endpoint was deleted', async () => {
    await storage.webhooks.delete('dsh_a', 'whk_1');
    const report = await deliver().attempt(await claimOne(), never);
    expect(report.kind).to.equal('dropped');
    expect(sender.sent).to.deep.equal([]);
    expect(await storage.deliveries.find('dsh_a', 'whk_1', 'dlv_1')).to.deep.equal(O.none);
  });

  it('fails, unsent, a delivery whose endpoint is disabled', async () => {
    await storage.webhooks.replace({ ...anEndpoint('whk_1'), enabled: false, version: 2 });
    expect((await deliver().attempt(await claimOne(), never)).kind).to.equal('skipped');
    expect(sender.sent).to.deep.equal([]);
    expect(await stored()).to.deep.include({ status: 'failed', attempts: [] });
  });

  it('disables the endpoint on a 410, with the reason and the time', async () => {
    sender.result = { kind: 'response', status: 410 };
    expect(await deliver().attempt(await claimOne(), never)).to.deep.include({ status: 'failed', disabledEndpoint: true });
    const endpoint = await storage.webhooks.find('dsh_a', 'whk_1');
    expect(O.isSome(endpoint) && endpoint.value).to.deep.include({
      enabled: false,
      disabledReason: `The receiver answered 410 Gone on ${TEST_EPOCH}`,
      version: 2,
    });
  });

  it('hands the delivery back, due as it was, when the request is cut off at shutdown', async () => {
    const stop = new AbortController();
    stop.abort();
    expect((await deliver().attempt(await claimOne(), stop.signal)).kind).to.equal('aborted');
    expect(await stored()).to.deep.equal(aDelivery('dlv_1'));
    expect((await deliver().claim(1)).map((c) => c.delivery.id)).to.deep.equal(['dlv_1']);
  });

  it('records nothing when its lease was taken over meanwhile (the other claimant records its own attempt)', async () => {
    const first = await claimOne();
    clock.advance(60_000);
    const second = await claimOne();
    expect(await deliver().attempt(first, never)).to.deep.include({ recorded: false });
    expect((await stored()).attempts).to.deep.equal([]);
    expect(await deliver().attempt(second, never)).to.deep.include({ recorded: true });
    expect((await stored()).attempts).to.have.length(1);
  });

  it('renews its claim while a slow receiver takes its time, so no other claimant takes the delivery meanwhile', async () => {
    const slow: WebhookSender = {
      send: async () => {
        await new Promise((done) => setTimeout(done, 250));
        return { durationMs: 250, result: { kind: 'response', status: 200 } };
      },
    };
    const settings = { retrySchedule: [5, 60], leaseMs: 100, renewEveryMs: 30 };
    const worker = new DeliverWebhooks(storage.deliveries, storage.webhooks, slow, settings, clock);
    const [claimed] = await worker.claim(1);
    const attempt = worker.attempt(claimed, never);
    clock.advance(80);
    await new Promise((done) => setTimeout(done, 100));
    clock.advance(40);
    expect(await worker.claim(1), 'the renewed claim still holds').to.deep.equal([]);
    const report = await attempt;
    expect(report).to.deep.include({ kind: 'attempted', recorded: true });
    expect((await stored()).status).to.equal('succeeded');
  });

  it('lets another claimant take the delivery once a claim is no longer renewed (its process died)', async () => {
    const worker = new DeliverWebhooks(
      storage.deliveries,
      storage.webhooks,
      sender,
      { retrySchedule: [5, 60], leaseMs: 100, renewEveryMs: 30 },
      clock,
    );
    const [abandoned] = await worker.claim(1);
    expect(abandoned).not.to.equal(undefined);
    clock.advance(101);
    const [taken] = await worker.claim(1);
    expect(taken?.delivery.id).to.equal('dlv_1');
  });
});
