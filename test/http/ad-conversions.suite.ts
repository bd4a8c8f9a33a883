import { createHash } from 'node:crypto';
import { expect } from 'chai';
import type { ConversionReport } from '../../src/application/conversions/send-conversions';
import type { Storage } from '../../src/application/ports/storage';
import {
  FakeConversionPlatforms,
  GOOGLE_PARTIAL_FAILURE,
  META_EXPIRED_TOKEN,
  META_INVALID_PARAMETER,
  TIKTOK_REVOKED,
} from '../support/fake-conversion-platforms';
import { memoryLogger } from '../support/memory-log';
import { anOrderPayload } from '../support/order-builder';
import { TestApi } from '../support/test-api';
import { TEST_CREDENTIALS_KEY, testConfig } from '../support/test-config';
import { eventually } from '../support/webhook-receiver';

const PATH = '/api/v1/ad-accounts';
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Meta's published example: `John_Smith@gmail.com` and the US number (650) 555-1212, normalised and hashed. */
const EMAIL_HASH = '62a14e44f765419d10fea99367361a727c12365e2520f32218d505ed9aa0f62f';
const PHONE_HASH = 'e323ec626319ca94ee8bff2e4c87cf613be6ea19919ed1364124e16807ab3176';
const CAPTURED_AT = '2026-11-27T08:00:00.000Z';

/**
 * Paid orders sent back to the ad platforms, end to end on one store: accounts connected through the
 * API with their conversions on, orders recorded through the API, and Meta, Google Ads and TikTok
 * played on loopback as their documentation shows. Each paid order reaches its platform once with the
 * documented payload; refusals show on the account in the platform's words; test orders, unpaid
 * orders and accounts with conversions off send nothing.
 */
export const adConversionsSuite = (store: string, storage: () => Promise<Storage>): void => {
  describe(`conversions sent to the ad platforms (${store})`, () => {
    let fake: FakeConversionPlatforms;
    let api: TestApi;
    let lines: string[];
    let token: string;
    let reports: ConversionReport[];
    const paidAt = new Date(Date.now() - 3_600_000);

    const start = async (retrySchedule: readonly number[] = [30, 30]): Promise<void> => {
      const log = memoryLogger();
      lines = log.lines;
      reports = [];
      const base = testConfig();
      api = await TestApi.start(
        {
          transitions: { pending: ['paid'], paid: ['refunded', 'chargedback'] },
          ads: {
            ...base.ads,
            ...fake.settings,
            credentialsKey: TEST_CREDENTIALS_KEY,
            pollIntervalMs: 50,
            conversionPollIntervalMs: 50,
            conversionRetrySchedule: retrySchedule,
          },
        },
        { storage: await storage(), logger: log.logger, onConversion: (report) => reports.push(report) },
      );
      ({ token } = await api.newDashboard());
    };

    const connect = async (body: Record<string, unknown>, as = token): Promise<string> => {
      const created = await api.request('POST', PATH, {
        token: as,
        body: { name: `${String(body['platform'])} ads`, campaignKey: 'name', ...body },
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      return created.body.adAccount.id as string;
    };
    const meta = (conversions: Record<string, unknown>) => ({
      platform: 'meta',
      accountId: 'act_1234567890',
      credentials: { accessToken: fake.credentials.meta },
      conversions,
    });
    const google = (conversions: Record<string, unknown>) => ({
      platform: 'google',
      accountId: '123-456-7890',
      credentials: fake.credentials.google,
      conversions,
    });
    const tiktok = (conversions: Record<string, unknown>) => ({
      platform: 'tiktok',
      accountId: '7012345678901234567',
      credentials: { accessToken: fake.credentials.tiktok },
      conversions,
    });

    const order = async (externalId: string, changes: Record<string, unknown> = {}, as = token): Promise<Record<string, any>> => {
      const created = await api.request('POST', '/api/v1/orders', {
        token: as,
        body: anOrderPayload({
          externalId,
          status: 'paid',
          createdAt: paidAt.toISOString(),
          customer: { email: ' John_Smith@Gmail.com ', phone: '+1 (650) 555-1212', name: 'John Smith' },
          trackingExtras: { fbclid: 'IwAR2F4-dbP0l7Mn1IawQQ', gclid: 'EAIaIQobChMI', ttclid: 'E.C.P.tt42', capturedAt: CAPTURED_AT },
          ...changes,
        }),
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      return created.body.order;
    };
    const conversionsOf = async (accountId: string, query = '') =>
      (await api.request('GET', `${PATH}/${accountId}/conversions${query}`, { token })).body;
    const accountOf = async (accountId: string) => (await api.request('GET', `${PATH}/${accountId}`, { token })).body.adAccount;
    const finished = (accountId: string, count: number) =>
      eventually(`${count} finished conversions of ${accountId}`, async () => {
        const page = await conversionsOf(accountId);
        const done = page.conversions.filter((c: { status: string }) => c.status !== 'pending');
        return done.length >= count ? page.conversions : undefined;
      });
    /** Lets the relay and the senders run several rounds: what was not sent by then is not waiting to be. */
    const settle = () => new Promise((resolve) => setTimeout(resolve, 400));

    beforeEach(async () => {
      fake = await FakeConversionPlatforms.start();
    });
    afterEach(async () => {
      await api?.stop();
      await fake.stop();
    });

    it("sends a paid order to Meta's Conversions API once, as Meta documents it, and lists the attempt with Meta's reply", async () => {
      await start();
      const accountId = await connect(meta({ enabled: true, pixelId: '998877' }));
      const paid = await order('shop-1001');
      const [listed] = await finished(accountId, 1);
      await settle();
      expect(fake.of('meta')).to.have.length(1);
      const [request] = fake.of('meta');
      expect(request.path).to.equal('/v25.0/998877/events');
      expect(request.headers['content-type']).to.equal('application/json');
      expect(request.body).to.deep.equal({
        data: [
          {
            event_name: 'Purchase',
            event_time: Math.floor(paidAt.getTime() / 1000),
            event_id: paid['id'],
            action_source: 'website',
            user_data: { em: [EMAIL_HASH], ph: [PHONE_HASH], fbc: `fb.1.${Date.parse(CAPTURED_AT)}.IwAR2F4-dbP0l7Mn1IawQQ` },
            custom_data: { value: 100, currency: 'BRL', order_id: 'shop-1001' },
          },
        ],
        access_token: fake.credentials.meta,
      });
      expect(listed).to.deep.include({
        orderId: paid['id'],
        externalId: 'shop-1001',
        event: 'purchase',
        status: 'succeeded',
        valueCents: 10_000,
        currency: 'BRL',
        matchedBy: ['fbclid', 'email', 'phone'],
        nextAttemptAt: null,
      });
      expect(listed.attempts).to.have.length(1);
      expect(listed.attempts[0]).to.include({ outcome: 'accepted', test: false, responseStatus: 200, message: null });
      expect(JSON.parse(listed.attempts[0].reply)).to.deep.equal({ events_received: 1, messages: [], fbtrace_id: 'Fb7race' });
      expect(JSON.stringify(listed)).to.not.include(EMAIL_HASH);
      const account = await accountOf(accountId);
      expect(account.conversions).to.deep.equal({ enabled: true, pixelId: '998877', status: 'ok', message: null, failingSince: null });
      expect(lines.join('\n')).to.not.include(fake.credentials.meta);
      expect(lines.join('\n')).to.not.include(EMAIL_HASH);
    });

    it('sends nothing for test orders, unpaid orders, accounts with conversions off or accounts of other dashboards; an order that becomes paid is sent then', async () => {
      await start();
      const on = await connect(tiktok({ enabled: true, pixelCode: 'CPIXEL1' }));
      await connect(meta({ enabled: false, pixelId: '998877' }));
      const other = await api.newDashboard();
      await connect(google({ enabled: true, conversionAction: '555' }), other.token);
      await order('test-order', { isTest: true });
      const pending = await order('later', { status: 'pending' });
      await settle();
      expect(fake.seen).to.deep.equal([]);
      expect((await conversionsOf(on)).total).to.equal(0);

      const patched = await api.request('PATCH', '/api/v1/orders/later', { token, body: { status: 'paid', paidAt: paidAt.toISOString() } });
      expect(patched.status).to.equal(200);
      await finished(on, 1);
      await settle();
      expect(fake.seen.map((r) => `${r.platform} ${r.body.data?.[0]?.event_id}`)).to.deep.equal([`tiktok ${pending['id']}`]);
    });

    it('uploads a click conversion to Google Ads with the gclid, the action and its date time, then retracts it when the order is refunded', async () => {
      await start();
      const accountId = await connect(google({ enabled: true, conversionAction: '555' }));
      const paid = await order('g-1');
      await finished(accountId, 1);
      const [upload] = fake.of('google');
      expect(upload.path).to.equal('/v25/customers/1234567890:uploadClickConversions');
      expect(upload.headers['developer-token']).to.equal(fake.credentials.google.developerToken);
      expect(upload.headers['authorization']).to.equal(`Bearer ${fake.credentials.googleAccessToken}`);
      const dateTime = `${paidAt.toISOString().slice(0, 19).replace('T', ' ')}+00:00`;
      expect(upload.body).to.deep.equal({
        conversions: [
          {
            gclid: 'EAIaIQobChMI',
            conversionAction: 'customers/1234567890/conversionActions/555',
            conversionDateTime: dateTime,
            conversionValue: 100,
            currencyCode: 'BRL',
            orderId: paid['id'],
          },
        ],
        partialFailure: true,
        validateOnly: false,
      });

      const refundedAt = new Date(paidAt.getTime() + 600_000);
      expect(
        (await api.request('PATCH', '/api/v1/orders/g-1', { token, body: { status: 'refunded', refundedAt: refundedAt.toISOString() } }))
          .status,
      ).to.equal(200);
      const listed = await finished(accountId, 2);
      await settle();
      expect(fake.of('google')).to.have.length(2);
      expect(fake.of('google')[1].path).to.equal('/v25/customers/1234567890:uploadConversionAdjustments');
      expect(fake.of('google')[1].body).to.deep.equal({
        conversionAdjustments: [
          {
            conversionAction: 'customers/1234567890/conversionActions/555',
            adjustmentType: 'RETRACTION',
            adjustmentDateTime: `${refundedAt.toISOString().slice(0, 19).replace('T', ' ')}+00:00`,
            orderId: paid['id'],
          },
        ],
        partialFailure: true,
        validateOnly: false,
      });
      expect(listed.map((c: { event: string; status: string }) => `${c.event} ${c.status}`)).to.deep.equal([
        'refund succeeded',
        'purchase succeeded',
      ]);
    });

    it("sends TikTok a CompletePayment with the ttclid and the hashed contacts, in TikTok's test mode when a test event code is set", async () => {
      await start();
      const accountId = await connect(tiktok({ enabled: true, pixelCode: 'CPIXEL1', testEventCode: 'TEST42' }));
      const paid = await order('t-1', { customer: { email: 'Buyer@Example.com', phone: '+55 (11) 98765-4321' } });
      const [listed] = await finished(accountId, 1);
      const [request] = fake.of('tiktok');
      expect(request.headers['access-token']).to.equal(fake.credentials.tiktok);
      expect(request.body).to.deep.equal({
        event_source: 'web',
        event_source_id: 'CPIXEL1',
        test_event_code: 'TEST42',
        data: [
          {
            event: 'CompletePayment',
            event_time: Math.floor(paidAt.getTime() / 1000),
            event_id: paid['id'],
            user: { ttclid: 'E.C.P.tt42', email: sha256('buyer@example.com'), phone: sha256('+5511987654321') },
            properties: { currency: 'BRL', value: 100, order_id: 't-1' },
          },
        ],
      });
      expect(listed.attempts[0]).to.include({ outcome: 'accepted', test: true });
    });

    it("checks Google uploads without recording them in Google's test mode (validateOnly)", async () => {
      await start();
      const accountId = await connect(
        google({ enabled: true, conversionAction: 'customers/1234567890/conversionActions/9', validateOnly: true }),
      );
      await order('g-test');
      const [listed] = await finished(accountId, 1);
      expect(fake.of('google')[0].body).to.include({ validateOnly: true });
      expect(fake.of('google')[0].body.conversions[0].conversionAction).to.equal('customers/1234567890/conversionActions/9');
      expect(listed.attempts[0]).to.include({ outcome: 'accepted', test: true });
      expect((await accountOf(accountId)).conversions).to.include({ validateOnly: true, status: 'ok' });
    });

    it("marks the account as needing attention with Meta's words when the token expired, and sends the purchase once new credentials are entered", async () => {
      await start();
      const accountId = await connect(meta({ enabled: true, pixelId: '998877' }));
      fake.canned.meta.push(META_EXPIRED_TOKEN);
      await order('m-expired');
      const expected =
        'Meta: Error validating access token: Session has expired on Thursday, 26-Nov-26 10:00:00 PST. (code 190, subcode 463)';
      const marked = await eventually('the account marked', async () => {
        const account = await accountOf(accountId);
        return account.conversions.status === 'needsAttention' ? account : undefined;
      });
      expect(marked).to.include({ status: 'needsAttention', message: expected });
      expect(marked.conversions).to.include({ message: expected });
      expect(marked.conversions.failingSince).to.be.a('string');
      const [waiting] = (await conversionsOf(accountId)).conversions;
      expect(waiting.status).to.equal('pending');
      expect(waiting.attempts[0]).to.include({ outcome: 'refused', responseStatus: 400, message: expected });

      const replaced = await api.request('PATCH', `${PATH}/${accountId}`, {
        token,
        body: { credentials: { accessToken: fake.credentials.meta } },
      });
      expect(replaced.status).to.equal(200);
      const [sent] = await finished(accountId, 1);
      expect(sent.attempts.map((a: { outcome: string }) => a.outcome)).to.deep.equal(['refused', 'accepted']);
      const account = await eventually('the account clear', async () => {
        const found = await accountOf(accountId);
        return found.conversions.status === 'ok' && found.status !== 'syncing' ? found : undefined;
      });
      expect(account).to.include({ status: 'ok', message: null });
      expect(fake.of('meta')).to.have.length(2);
    });

    it('fails a refused payload at once, without sending it again, and says so on the account (Meta, Google, TikTok)', async () => {
      await start();
      const metaId = await connect(meta({ enabled: true, pixelId: '998877' }));
      const googleId = await connect(google({ enabled: true, conversionAction: '555' }));
      const tiktokId = await connect(tiktok({ enabled: true, pixelCode: 'CPIXEL1' }));
      fake.canned.meta.push(META_INVALID_PARAMETER);
      fake.canned.google.push(GOOGLE_PARTIAL_FAILURE);
      fake.canned.tiktok.push(TIKTOK_REVOKED);
      await order('refused');
      const [metaRefused] = await finished(metaId, 1);
      const [googleRefused] = await finished(googleId, 1);
      expect(metaRefused.status).to.equal('failed');
      expect(googleRefused.status).to.equal('failed');
      await eventually('TikTok refused', async () => fake.of('tiktok').length === 1);
      await settle();
      expect(fake.of('meta')).to.have.length(1);
      expect(fake.of('google')).to.have.length(1);
      expect((await accountOf(metaId)).conversions.message).to.equal(
        'Meta: The event does not have enough customer information parameters to be matched. (code 100, subcode 2804050)',
      );
      expect((await accountOf(googleId)).conversions.message).to.equal(
        'Google Ads: The click ID could not be decoded. (UNPARSEABLE_GCLID)',
      );
      const tiktokAccount = await eventually('TikTok marked', async () => {
        const found = await accountOf(tiktokId);
        return found.conversions.status === 'needsAttention' ? found : undefined;
      });
      expect(tiktokAccount.conversions.message).to.equal('TikTok: Access token is incorrect or has been revoked. (code 40105)');
      expect((await conversionsOf(tiktokId)).conversions[0].status).to.equal('pending');
    });

    it('waits as long as the platform asks on a rate limit (Retry-After), then sends, leaving the account as it was', async () => {
      await start([0, 0]);
      const accountId = await connect(meta({ enabled: true, pixelId: '998877' }));
      fake.canned.meta.push({ status: 429, body: {}, headers: { 'retry-after': '1' } });
      await order('limited');
      const [listed] = await finished(accountId, 1);
      expect(listed.status).to.equal('succeeded');
      const [first, second] = listed.attempts;
      expect(first).to.include({ outcome: 'unavailable', responseStatus: 429 });
      expect(Date.parse(second.at) - Date.parse(first.at)).to.be.at.least(1_000);
      expect((await accountOf(accountId)).conversions.status).to.equal('ok');
    });

    it("keeps each dashboard's conversions to itself and refuses bad queries", async () => {
      await start();
      const accountId = await connect(meta({ enabled: true, pixelId: '998877' }));
      const other = await api.newDashboard();
      expect((await api.request('GET', `${PATH}/${accountId}/conversions`, { token: other.token })).status).to.equal(404);
      expect((await api.request('GET', `${PATH}/${accountId}/conversions?status=sent`, { token })).status).to.equal(400);
      expect((await api.request('GET', `${PATH}/${accountId}/conversions?colour=red`, { token })).status).to.equal(400);
      const empty = await api.request('GET', `${PATH}/${accountId}/conversions?status=failed&page=1&pageSize=10`, { token });
      expect(empty.body).to.deep.equal({ conversions: [], page: 1, pageSize: 10, total: 0 });
      const refused = await api.request('POST', PATH, {
        token,
        body: { ...meta({ enabled: true, pixelId: '1', validateOnly: true }), name: 'x', campaignKey: 'name', accountId: 'act_5' },
      });
      expect(refused.status).to.equal(400);
      expect(refused.body.details).to.deep.include({
        path: 'conversions.validateOnly',
        message: 'Meta has no validateOnly: its test mode is testEventCode',
      });
      const malformed = await api.request('POST', PATH, {
        token,
        body: { ...meta({ enabled: true, pixelId: 'px-1', testEventCode: 'TEST 1' }), name: 'x', campaignKey: 'name', accountId: 'act_5' },
      });
      expect(malformed.status).to.equal(400);
      expect(malformed.body.details).to.deep.include({
        path: 'conversions.pixelId',
        message: "must be the dataset's id: digits, as Meta's Events Manager shows it (1234567890123456)",
      });
      expect(malformed.body.details).to.deep.include({
        path: 'conversions.testEventCode',
        message: "must be the code the platform's Test events view shows: letters and digits (TEST12345)",
      });
      const patched = await api.request('PATCH', `${PATH}/${accountId}`, {
        token,
        body: { conversions: { enabled: true, pixelId: '998877 ' } },
      });
      expect(patched.status).to.equal(400);
      expect(patched.body.details.map((d: { path: string }) => d.path)).to.deep.equal(['conversions.pixelId']);
      expect((await accountOf(accountId)).conversions).to.include({ enabled: true, pixelId: '998877' });
    });
  });
};
