import { expect } from 'chai';
import { checkBody, parseBody, type BodyValues } from '../../../../src/adapters/http/kit/well-formed';
import { MAX_BATCH_ORDERS } from '../../../../src/adapters/http/orders/batch-routes';
import { MAX_ORDER_VALUES } from '../../../../src/adapters/http/orders/order-codecs';
import { anOrderAtItsLimits } from '../../../support/order-builder';

const ANY: BodyValues = { values: 1_000_000 };
const BATCH: BodyValues = {
  values: 2 * MAX_ORDER_VALUES,
  items: { member: 'orders', most: MAX_BATCH_ORDERS, tooMany: 'too many', values: 2 * MAX_ORDER_VALUES },
};

const bytes = (text: string): Buffer => Buffer.from(text);

const parses = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

describe('the check of a body before it is parsed (decision 0023)', () => {
  it('agrees with JSON.parse on what is JSON', async () => {
    const texts = [
      '{}',
      '[]',
      ' \t\r\n{"a" : [1, -0, 0.5, 1e3, -2E-7, 1.5e+2, true, false, null, "x"]} ',
      '"just a string"',
      '42',
      '"\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\uD83D\\uDE00"',
      '{"a":1,"a":2}',
      '{"é":"ü\\u00fc","😀":["日本"]}',
      '["\u00ff\u0080"]',
      '[[[[]]],{}]',
      '\u2028"\u2028"',
      '{"a":1,}',
      '[1,]',
      '[01]',
      '[1.]',
      '[.5]',
      '[-]',
      '[1e]',
      '[+1]',
      '["\\x"]',
      '["\\u12G4"]',
      '["a\u0001"]',
      '["unterminated]',
      '{"a" 1}',
      '{a:1}',
      '{"a":1}}',
      '[1] [2]',
      '[tru]',
      '[truex]',
      'nul',
      '\uFEFF{}',
      '[1}',
      '{"a":1]',
      "['a']",
      '[NaN]',
      '[Infinity]',
    ];
    for (const text of texts) expect((await checkBody(Buffer.from(text), ANY)) !== undefined, text).to.equal(parses(text));
  });

  it('finds unpaired surrogate escapes in values and keys, at their paths, and lets pairs through', async () => {
    const shape = await checkBody(bytes('{"a":["ok","\\ud800x"],"\\udfffk":{"b":"\\ud83d\\ude00","c":"\\ude00\\ud83d"}}'), ANY);
    expect(shape!.details.map((d) => d.path)).to.deep.equal(['a.1', '\udfffk', '\udfffk.c']);
    const named = await checkBody(bytes('{"ação":{"日本":"\\udc00"}}'), ANY);
    expect(named!.details.map((d) => d.path)).to.deep.equal(['ação.日本']);
    expect(shape!.stopped).to.equal(false);
  });

  it('stops at the first level too deep, and at one value more than the count, whatever follows', async () => {
    const deep = await checkBody(bytes(`{"a":${'['.repeat(100)}`), ANY);
    expect(deep).to.deep.equal({
      details: [{ path: `a${'.0'.repeat(15)}`, message: 'nests objects and arrays more than 16 levels deep' }],
      stopped: true,
    });
    const wide = await checkBody(bytes(`[${Array<string>(11).fill('0').join(',')}, not json`), { values: 11 });
    expect(wide!.stopped).to.equal(true);
    expect(wide!.details.map((d) => d.path)).to.deep.equal(['(body)']);
    expect((await checkBody(bytes(`[${Array<string>(10).fill('0').join(',')}]`), { values: 11 }))!.stopped).to.equal(false);
  });

  it(`lets a batch of ${MAX_BATCH_ORDERS} orders at every limit through, and parses it as JSON.parse does`, async () => {
    const text = JSON.stringify({ orders: Array.from({ length: MAX_BATCH_ORDERS }, (_, i) => anOrderAtItsLimits(`o-${i}`)) });
    const shape = await checkBody(bytes(text), BATCH);
    expect(shape).to.include({ stopped: false });
    expect(shape!.details).to.deep.equal([]);
    expect(JSON.stringify(await parseBody(bytes(text), shape!, 'orders'))).to.equal(text);
  });

  it('counts each item of the member apart, and parses as JSON.parse does when the member is given twice or is not an array', async () => {
    for (const text of [
      '{"x":1,"orders":[{"a":1},2,"three",[4]],"y":{"z":null}}',
      '{"orders":[1,2],"orders":[3]}',
      '{"orders":[1,2],"orders":{"not":"an array"}}',
      '{"ord\\u0065rs":[1],"orders":[2,[3]]}',
      '{"orders":[]}',
      '[{"orders":[1]}]',
    ]) {
      const shape = await checkBody(bytes(text), BATCH);
      expect(shape, text).to.include({ stopped: false });
      expect(await parseBody(bytes(text), shape!, 'orders'), text).to.deep.equal(JSON.parse(text));
    }
    const heavy = await checkBody(bytes(`{"orders":[1,[${Array<string>(20).fill('0').join(',')}]]}`), {
      values: 5,
      items: { member: 'orders', most: 10, tooMany: 'too many', values: 20 },
    });
    expect(heavy!.details).to.deep.equal([
      { path: 'orders.1', message: 'holds more than 20 JSON values (each object, array, string, number, boolean and null counts one)' },
    ]);
    const many = await checkBody(bytes(`{"orders":[${Array<string>(11).fill('0').join(',')}]}`), {
      values: 5,
      items: { member: 'orders', most: 10, tooMany: 'too many', values: 20 },
    });
    expect(many!.details).to.deep.equal([{ path: 'orders', message: 'too many' }]);
  });
});
