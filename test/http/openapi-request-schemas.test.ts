import { expect } from 'chai';
import { isRight } from 'fp-ts/Either';
import { CreateOrderBody, UpdateOrderBody } from '../../src/adapters/http/orders/order-codecs';
import { CreateWebhookBody, UpdateWebhookBody } from '../../src/adapters/http/webhooks/webhook-codecs';
import { WEBHOOK_EVENT_TYPES } from '../../src/domain/webhook';
import { HTTP_METHODS } from '../../src/adapters/http/kit/openapi/types';
import { anOrderPayload } from '../support/order-builder';
import { doc, escapePointer, deref, validatesAgainst } from './openapi-support';

describe('OpenAPI document', () => {
  describe('request schemas agree with the codecs', () => {
    const createPointer = '#/components/schemas/CreateOrderRequest';
    const updatePointer = '#/components/schemas/UpdateOrderRequest';
    const products = (n: number) => Array.from({ length: n }, () => ({ name: 'x', quantity: 1, unitPriceCents: 1 }));
    const nested = (levels: number): Record<string, unknown> => (levels === 1 ? { leaf: 'x' } : { a: nested(levels - 1) });
    const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
    const amounts = (changes: Record<string, unknown>) => ({
      amounts: { currency: 'BRL', grossCents: 1, netToSellerCents: 1, ...changes },
    });
    const withoutField = (field: string) => {
      const payload = anOrderPayload();
      delete payload[field];
      return payload;
    };

    const createCases: [string, unknown, boolean][] = [
      ['the minimal payload of the builder', anOrderPayload(), true],
      [
        'every optional field',
        anOrderPayload({
          status: 'paid',
          paidAt: '2026-01-02T03:05:00.123456789+05:30',
          refundedAt: '2024-02-29T00:00:00Z',
          chargedbackAt: '2026-01-02T03:05:00-03:00',
          customer: { email: 'a@example.com', tags: ['vip', null, 1.5, true] },
          fees: {},
          metadata: nested(5),
          trackingExtras: { a: [[[[1]]]] },
          ...amounts({ discountCents: 0, shippingCents: 10 ** 13, taxesCents: 1, totalFeesCents: 2 }),
          products: [{ name: '🙂'.repeat(255), quantity: 1_000_000, unitPriceCents: 0 }],
        }),
        true,
      ],
      ['500 products', anOrderPayload({ products: products(500) }), true],
      ['50 keys of metadata', anOrderPayload({ metadata: keys(50) }), true],
      ['a missing externalId', withoutField('externalId'), false],
      ['a missing tracking', withoutField('tracking'), false],
      ['an unknown field', anOrderPayload({ coupon: 'X' }), false],
      ['an unknown field in amounts', anOrderPayload(amounts({ vat: 1 })), false],
      ['an unknown field in a product', anOrderPayload({ products: [{ ...products(1)[0], color: 'red' }] }), false],
      ['negative cents', anOrderPayload(amounts({ grossCents: -1 })), false],
      ['cents above 10^13', anOrderPayload(amounts({ grossCents: 10 ** 13 + 1 })), false],
      ['fractional cents', anOrderPayload(amounts({ grossCents: 1.5 })), false],
      ['cents as a string', anOrderPayload(amounts({ grossCents: '100' })), false],
      ['a lowercase currency', anOrderPayload(amounts({ currency: 'brl' })), false],
      ['a four-letter currency', anOrderPayload(amounts({ currency: 'BRLX' })), false],
      ['quantity 0', anOrderPayload({ products: [{ name: 'x', quantity: 0, unitPriceCents: 1 }] }), false],
      ['quantity above a million', anOrderPayload({ products: [{ name: 'x', quantity: 1_000_001, unitPriceCents: 1 }] }), false],
      ['no products', anOrderPayload({ products: [] }), false],
      ['501 products', anOrderPayload({ products: products(501) }), false],
      ['an empty externalId', anOrderPayload({ externalId: '' }), false],
      ['an externalId of 256 characters', anOrderPayload({ externalId: 'x'.repeat(256) }), false],
      ['a date without timezone', anOrderPayload({ createdAt: '2026-01-02T03:04:05' }), false],
      ['a date that does not exist', anOrderPayload({ createdAt: '2026-02-30T00:00:00Z' }), false],
      ['a date with a space for T', anOrderPayload({ createdAt: '2026-01-02 03:04:05Z' }), false],
      ['hour 24', anOrderPayload({ createdAt: '2026-01-02T24:00:00Z' }), false],
      ['a leap second', anOrderPayload({ createdAt: '2026-06-30T23:59:60Z' }), false],
      ['a lowercase z', anOrderPayload({ createdAt: '2026-01-02T03:04:05z' }), false],
      ['ten fraction digits', anOrderPayload({ createdAt: '2026-01-02T03:04:05.1234567890Z' }), false],
      ['an unknown status', anOrderPayload({ status: 'shipped' }), false],
      ['isTest as a string', anOrderPayload({ isTest: 'true' }), false],
      ['metadata as an array', anOrderPayload({ metadata: [] }), false],
      ['metadata null', anOrderPayload({ metadata: null }), false],
      ['51 keys of metadata', anOrderPayload({ metadata: keys(51) }), false],
      ['metadata nested six levels', anOrderPayload({ metadata: nested(6) }), false],
      ['arrays nested six levels', anOrderPayload({ trackingExtras: { a: [[[[[1]]]]] } }), false],
      ['a key starting with $', anOrderPayload({ metadata: { $set: 1 } }), false],
      ['a key with a dot', anOrderPayload({ customer: { a: { 'b.c': 1 } } }), false],
      ['an empty key', anOrderPayload({ fees: { '': 1 } }), false],
      ['a nested string of 1001 characters', anOrderPayload({ metadata: { a: ['x'.repeat(1001)] } }), false],
      ['a nested array of 51 items', anOrderPayload({ metadata: { a: Array(51).fill(0) } }), false],
      ['an array body', [anOrderPayload()], false],
      ['a null body', null, false],
    ];

    for (const [name, payload, valid] of createCases) {
      it(`create: ${name} is ${valid ? 'accepted' : 'refused'} by both`, () => {
        expect(isRight(CreateOrderBody.decode(payload)), 'codec').to.equal(valid);
        const errors = validatesAgainst(createPointer, payload);
        if (valid) expect(errors, 'schema').to.equal(undefined);
        else expect(errors, 'schema').to.be.a('string');
      });
    }

    const updateCases: [string, unknown, boolean][] = [
      ['a status', { status: 'paid' }, true],
      [
        'every field',
        {
          status: 'refunded',
          paidAt: '2026-01-02T03:04:05Z',
          refundedAt: '2026-01-03T00:00:00+01:00',
          chargedbackAt: '2026-01-04T00:00:00Z',
          metadata: {},
        },
        true,
      ],
      ['an empty object', {}, false],
      ['an unknown field', { status: 'paid', note: 'x' }, false],
      ['a date without timezone', { paidAt: '2026-01-02T03:04:05' }, false],
      ['metadata as a string', { metadata: 'x' }, false],
    ];
    for (const [name, payload, valid] of updateCases) {
      it(`update: ${name} is ${valid ? 'accepted' : 'refused'} by both`, () => {
        expect(isRight(UpdateOrderBody.decode(payload)), 'codec').to.equal(valid);
        const errors = validatesAgainst(updatePointer, payload);
        if (valid) expect(errors, 'schema').to.equal(undefined);
        else expect(errors, 'schema').to.be.a('string');
      });
    }

    const webhookCases: [string, unknown, unknown, boolean][] = [
      ['the minimal webhook', CreateWebhookBody, { url: 'https://hooks.example.com/orders' }, true],
      [
        'every webhook field',
        CreateWebhookBody,
        { url: 'https://[2606:4700::1111]:8443/a/b?c=d&e', events: ['order.paid', 'webhook.test'], description: 'd'.repeat(200) },
        true,
      ],
      ['every event type once', CreateWebhookBody, { url: 'https://a.example', events: [...WEBHOOK_EVENT_TYPES] }, true],
      ['an IPv4 address with a port', CreateWebhookBody, { url: 'http://127.0.0.1:65535/x' }, true],
      ['an event type twice', CreateWebhookBody, { url: 'https://a.example', events: ['order.paid', 'order.paid'] }, false],
      ['an unknown event type', CreateWebhookBody, { url: 'https://a.example', events: ['order.shipped'] }, false],
      ['a description of 201 characters', CreateWebhookBody, { url: 'https://a.example', description: 'd'.repeat(201) }, false],
      ['a URL of 2,049 characters', CreateWebhookBody, { url: `https://a.example/${'x'.repeat(2031)}` }, false],
      ['a URL with credentials', CreateWebhookBody, { url: 'https://u:p@a.example/' }, false],
      ['a URL with a fragment', CreateWebhookBody, { url: 'https://a.example/#f' }, false],
      ['an ftp URL', CreateWebhookBody, { url: 'ftp://a.example/' }, false],
      ['a host that reads as a number', CreateWebhookBody, { url: 'https://0x7f.1/' }, false],
      ['a port past 65535', CreateWebhookBody, { url: 'https://a.example:65536/' }, false],
      ['an IPv6 address without brackets', CreateWebhookBody, { url: 'https://::1/' }, false],
      ['an unknown field', CreateWebhookBody, { url: 'https://a.example', secret: 'whsec_x' }, false],
      ['no url', CreateWebhookBody, {}, false],
      ['a change of description to null', UpdateWebhookBody, { description: null }, true],
      ['every change', UpdateWebhookBody, { url: 'https://b.example', events: [], description: 'x', enabled: false }, true],
      ['no change', UpdateWebhookBody, {}, false],
      ['enabled as a string', UpdateWebhookBody, { enabled: 'true' }, false],
    ];
    for (const [name, codec, value, valid] of webhookCases) {
      it(`webhooks: ${name} is ${valid ? 'accepted' : 'refused'} by both`, () => {
        const pointer =
          codec === CreateWebhookBody ? '#/components/schemas/CreateWebhookRequest' : '#/components/schemas/UpdateWebhookRequest';
        expect(isRight((codec as typeof CreateWebhookBody).decode(value)), 'codec').to.equal(valid);
        const errors = validatesAgainst(pointer, value);
        if (valid) expect(errors, 'schema').to.equal(undefined);
        else expect(errors, 'schema').to.be.a('string');
      });
    }

    it('accepts its own examples', () => {
      const examples = Object.entries(doc.paths).flatMap(([path, item]) =>
        HTTP_METHODS.flatMap((method) => {
          const body = item[method]?.requestBody;
          if (body === undefined) return [];
          return Object.entries(deref(body).content).flatMap(([media, content]) =>
            Object.values(content.examples ?? {}).map((example) => ({
              pointer: `#/paths/${escapePointer(path)}/${method}/requestBody/content/${escapePointer(media)}/schema`,
              value: example.value,
            })),
          );
        }),
      );
      expect(examples).to.have.length.greaterThan(3);
      for (const { pointer, value } of examples) expect(validatesAgainst(pointer, value), pointer).to.equal(undefined);
    });
  });
});
