import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { CustomData, ServerEvent, UserData } from 'facebook-nodejs-business-sdk';
import { metaEvent } from '../../src/adapters/ads/meta/meta-conversions';
import { tiktokEvent } from '../../src/adapters/ads/tiktok/tiktok-conversions';
import { googleClickConversion, googleDateTime } from '../../src/adapters/ads/google/google-conversions';
import { conversionOf } from '../../src/application/conversions/conversions-of-events';
import type { AdAccount, AdPlatformName } from '../../src/domain/ad-account';
import {
  afterConversionAttempt,
  clickIdOf,
  internationalDigits,
  metaFbc,
  newConversionDelivery,
  normalEmail,
  platformPhone,
} from '../../src/domain/conversion';
import type { OrderEvent } from '../../src/application/ports/order-repository';
import type { Order } from '../../src/domain/order';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

const order = (changes: Partial<Order> = {}): Order => ({
  id: 'ord_abc',
  dashboardId: 'dsh_a',
  externalId: 'shop-1001',
  platform: 'shopify',
  paymentMethod: 'credit_card',
  status: 'paid',
  isTest: false,
  createdAt: new Date('2026-11-28T09:00:00Z'),
  paidAt: new Date('2026-11-28T10:00:00Z'),
  amounts: {
    currency: 'BRL',
    grossCents: 12_990,
    netToSellerCents: 11_000,
    discountCents: 0,
    shippingCents: 0,
    taxesCents: 0,
    totalFeesCents: 0,
  },
  products: [],
  tracking: { utmSource: 'facebook', utmMedium: 'paid', utmCampaign: 'bf' },
  customer: { email: ' John_Smith@Gmail.com ', phone: '+1 (650) 555-1212', name: 'John' },
  trackingExtras: { fbclid: 'IwAR2F4-dbP0l7Mn1IawQQ', gclid: 'EAIaIQob', ttclid: 'E.C.P.tt', capturedAt: '2026-11-27T08:00:00.000Z' },
  version: 2,
  updatedAt: new Date('2026-11-28T10:00:00Z'),
  ...changes,
});

const paidEvent = (o: Order = order()): OrderEvent => ({ id: 'evt_1', type: 'order.paid', occurredAt: o.updatedAt, order: o });

const account = (platform: AdPlatformName): AdAccount => ({
  id: `ada_${platform}`,
  dashboardId: 'dsh_a',
  platform,
  name: platform,
  accountId: '1234567890',
  campaignKey: 'name',
  utmSource: platform,
  conversions: { enabled: true, target: 'px' },
  sealedCredentials: 'sealed',
  createdAt: new Date(0),
  updatedAt: new Date(0),
  version: 1,
  sync: { status: 'ok', nextSyncAt: new Date(0) },
});

const NOW = new Date('2026-11-29T00:00:00Z');

describe('conversions: what leaves for the platforms', () => {
  describe("Meta's published normalisation examples (customer information parameters)", () => {
    it('email: John_Smith@gmail.com hashes to 62a14e44…', () => {
      expect(sha256(normalEmail('John_Smith@gmail.com')!)).to.equal('62a14e44f765419d10fea99367361a727c12365e2520f32218d505ed9aa0f62f');
      expect(normalEmail('  JOHN_SMITH@GMAIL.COM ')).to.equal('john_smith@gmail.com');
    });

    it('phone: (650)555-1212 with its country code hashes to e323ec62…', () => {
      expect(sha256(platformPhone('meta', '+1 (650) 555-1212')!)).to.equal(
        'e323ec626319ca94ee8bff2e4c87cf613be6ea19919ed1364124e16807ab3176',
      );
      expect(internationalDigits('0044 20 7946 0958')).to.equal('442079460958');
    });

    it('leaves out what cannot be matched: a phone without its country code, a text that is no email', () => {
      expect(internationalDigits('(650) 555-1212')).to.equal(undefined);
      expect(internationalDigits('+1 650 CALL NOW')).to.equal(undefined);
      expect(normalEmail('not an email')).to.equal(undefined);
    });
  });

  it("builds the same Purchase event as Meta's own Business SDK (facebook-nodejs-business-sdk's ServerEvent.normalize)", () => {
    const conversion = conversionOf(paidEvent(), account('meta'), NOW)!;
    const fbc = metaFbc('IwAR2F4-dbP0l7Mn1IawQQ', new Date('2026-11-27T08:00:00.000Z'));
    expect(fbc).to.equal('fb.1.1795766400000.IwAR2F4-dbP0l7Mn1IawQQ');
    const sdk = new ServerEvent()
      .setEventName('Purchase')
      .setEventTime(Math.floor(Date.parse('2026-11-28T10:00:00Z') / 1000))
      .setEventId('ord_abc')
      .setActionSource('website')
      .setUserData(new UserData().setEmails([' John_Smith@Gmail.com ']).setPhones(['+1 (650) 555-1212']).setFbc(fbc))
      .setCustomData(new CustomData().setValue(129.9).setCurrency('BRL').setOrderId('shop-1001'))
      .normalize();
    expect(metaEvent(conversion)).to.deep.equal(sdk);
  });

  it("TikTok: email lowercased and phone in E.164 (+ and the digits) before SHA-256, as TikTok's Events API asks", () => {
    const conversion = conversionOf(paidEvent(), account('tiktok'), NOW)!;
    expect(tiktokEvent(conversion)).to.deep.equal({
      event: 'CompletePayment',
      event_time: Math.floor(Date.parse('2026-11-28T10:00:00Z') / 1000),
      event_id: 'ord_abc',
      user: { ttclid: 'E.C.P.tt', email: sha256('john_smith@gmail.com'), phone: sha256('+16505551212') },
      properties: { currency: 'BRL', value: 129.9, order_id: 'shop-1001' },
    });
  });

  it('Google: the click id, the action, the date time as Google writes it, the value and the order id; no personal data', () => {
    const conversion = conversionOf(paidEvent(), account('google'), NOW)!;
    expect(conversion.hashedEmail).to.equal(undefined);
    expect(conversion.hashedPhone).to.equal(undefined);
    expect(googleDateTime(new Date('2026-11-28T10:00:00.123Z'))).to.equal('2026-11-28 10:00:00+00:00');
    expect(googleClickConversion('1234567890', '555', conversion)).to.deep.equal({
      gclid: 'EAIaIQob',
      conversionAction: 'customers/1234567890/conversionActions/555',
      conversionDateTime: '2026-11-28 10:00:00+00:00',
      conversionValue: 129.9,
      currencyCode: 'BRL',
      orderId: 'ord_abc',
    });
  });

  it("takes the last touch's click id, else the first touch's, with the capture time of its visit", () => {
    const firstOnly = order({ trackingExtras: { utmTerm: 'x', firstTouch: { gbraid: 'GB1', capturedAt: '2026-11-01T00:00:00Z' } } });
    expect(clickIdOf(firstOnly, 'google')).to.deep.equal({ name: 'gbraid', value: 'GB1', capturedAt: new Date('2026-11-01T00:00:00Z') });
    expect(clickIdOf(firstOnly, 'meta')).to.equal(undefined);
  });

  it('sends nothing for a test order, an unpaid status, a kind the platform does not take, or an order nobody can be matched by', () => {
    expect(conversionOf(paidEvent(order({ isTest: true })), account('meta'), NOW)).to.equal(undefined);
    expect(conversionOf({ ...paidEvent(), type: 'order.created' }, account('meta'), NOW)).to.equal(undefined);
    expect(conversionOf({ ...paidEvent(), type: 'order.refunded' }, account('meta'), NOW)).to.equal(undefined);
    expect(conversionOf({ ...paidEvent(), type: 'order.refunded' }, account('google'), NOW)?.kind).to.equal('refund');
    expect(conversionOf(paidEvent(order({ trackingExtras: {} })), account('google'), NOW)).to.equal(undefined);
    expect(conversionOf(paidEvent(order({ trackingExtras: {}, customer: {} })), account('meta'), NOW)).to.equal(undefined);
    expect(conversionOf(paidEvent(order({ trackingExtras: {} })), account('meta'), NOW)?.hashedEmail).to.be.a('string');
  });

  it("leaves out a Meta purchase more than 7 days old, which Meta's API refuses", () => {
    const old = order({ paidAt: new Date(NOW.getTime() - 8 * 86_400_000) });
    expect(conversionOf(paidEvent(old), account('meta'), NOW)).to.equal(undefined);
    expect(conversionOf(paidEvent(old), account('tiktok'), NOW)).to.not.equal(undefined);
  });

  describe('the schedule of attempts', () => {
    const delivery = newConversionDelivery(
      {
        id: 'cnv_1',
        dashboardId: 'dsh_a',
        adAccountId: 'ada_meta',
        platform: 'meta',
        eventId: 'evt_1',
        conversion: conversionOf(paidEvent(), account('meta'), NOW)!,
      },
      NOW,
    );
    const at = new Date('2026-11-29T01:00:00Z');

    it('succeeds when accepted, fails at once on a refused payload, and retries a refused token on the schedule', () => {
      expect(
        afterConversionAttempt(delivery, { at, durationMs: 5, test: false, result: { kind: 'accepted', status: 200 } }, [60], 0.5).status,
      ).to.equal('succeeded');
      const refused = afterConversionAttempt(
        delivery,
        { at, durationMs: 5, test: false, result: { kind: 'refused', message: 'no', final: true } },
        [60],
        0.5,
      );
      expect(refused.status).to.equal('failed');
      expect(refused.nextAttemptAt).to.equal(undefined);
      const token = afterConversionAttempt(
        delivery,
        { at, durationMs: 5, test: false, result: { kind: 'refused', message: 'expired', final: false } },
        [60],
        0.5,
      );
      expect(token.status).to.equal('pending');
      expect(token.nextAttemptAt!.getTime()).to.equal(at.getTime() + 5 + 60_000);
    });

    it("waits as long as the platform asks when that is longer than the schedule's delay, at most an hour", () => {
      const asked = (waitMs: number) =>
        afterConversionAttempt(
          delivery,
          { at, durationMs: 0, test: false, result: { kind: 'unavailable', message: '429', waitMs } },
          [1],
          0.5,
        ).nextAttemptAt!.getTime() - at.getTime();
      expect(asked(30_000)).to.equal(30_000);
      expect(asked(10 * 3_600_000)).to.equal(3_600_000);
      expect(asked(10)).to.equal(1_000);
    });

    it('fails after the last delay of the schedule', () => {
      const once = afterConversionAttempt(
        delivery,
        { at, durationMs: 0, test: false, result: { kind: 'unavailable', message: 'down' } },
        [1],
        0.5,
      );
      expect(once.status).to.equal('pending');
      expect(
        afterConversionAttempt(once, { at, durationMs: 0, test: false, result: { kind: 'unavailable', message: 'down' } }, [1], 0.5).status,
      ).to.equal('failed');
    });
  });
});
