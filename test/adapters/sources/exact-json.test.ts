import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { MAX_BODY_DEPTH, readBodyJson } from '../../../src/adapters/sources/exact-json';

const bytes = (text: string): Uint8Array => Buffer.from(text, 'utf8');

const valueOf = (text: string): unknown => {
  const read = readBodyJson(bytes(text));
  if (!read.ok) throw new Error(`not read: ${read.problem}`);
  return read.value;
};

/** A small seeded generator (mulberry32), so that a failure can be replayed. */
const seeded = (seed: number) => () => {
  let t = (seed += 0x6d2b79f5);
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

describe("a platform's body read as JSON, numbers as sent", () => {
  it('keeps every digit of the ids of Shopify’s test notification, and reads the numbers a double holds as numbers', () => {
    const text = readFileSync(join(__dirname, '../../../../test/fixtures/sources/shopify/test-notification-orders-create.json'), 'utf8');
    const order = valueOf(text) as Record<string, any>;
    expect(order['id']).to.equal('820982911946154508');
    expect(order['line_items'].map((line: { id: unknown }) => line.id)).to.deep.equal(['866550311766439020', '141249953214522974']);
    expect(order['customer'].id).to.equal('115310627314723954');
    expect(order['number']).to.equal(234);
    expect(order['line_items'][0].product_id).to.equal(632910392);
    expect(order['total_price']).to.equal('403.00');
    expect((JSON.parse(text) as Record<string, unknown>)['id'], 'what JSON.parse alone makes of it').to.equal(820982911946154500);
  });

  it('keeps as text the integers past 2^53 − 1 and the decimals of more than 15 significant digits, and only those', () => {
    expect(valueOf('[9007199254740991, -9007199254740991, 9007199254740992, -820982911946154508]')).to.deep.equal([
      9007199254740991,
      -9007199254740991,
      '9007199254740992',
      '-820982911946154508',
    ]);
    expect(valueOf('[149.90, 0.29, 123456789012345, 1234567890.12345, 0.30000000000000004, 1234567890123.456]')).to.deep.equal([
      149.9,
      0.29,
      123456789012345,
      1234567890.12345,
      '0.30000000000000004',
      '1234567890123.456',
    ]);
    expect(valueOf('{"n": 1e2, "m": 0.000000000000000000001}')).to.deep.equal({ n: 100, m: 1e-21 });
  });

  it('leaves strings as they are, digits, escaped quotes and backslashes included', () => {
    const text = '{"a": "820982911946154508", "b": "x\\"99999999999999999999\\\\", "c": 99999999999999999999, "d": "\\\\"}';
    expect(valueOf(text)).to.deep.equal({ a: '820982911946154508', b: 'x"99999999999999999999\\', c: '99999999999999999999', d: '\\' });
  });

  it('reads what JSON.parse reads wherever every number fits a double, over 500 seeded random bodies', () => {
    const random = seeded(25);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
    const texts = ['', 'plain', 'quote " and \\ back', 'digits 12345678901234567890', 'ünïcödé ✓ 𝄞', '\u0000\u001f', '[{"not": 1}]'];
    const value = (depth: number): unknown => {
      const kind = depth > 4 ? Math.floor(random() * 4) : Math.floor(random() * 6);
      if (kind === 0) return Math.floor((random() - 0.5) * 2 * Number.MAX_SAFE_INTEGER);
      if (kind === 1) return Number((random() * 10 ** Math.floor(random() * 10)).toPrecision(1 + Math.floor(random() * 15)));
      if (kind === 2) return pick([true, false, null, pick(texts)]);
      if (kind === 3) return pick(texts);
      if (kind === 4) return Array.from({ length: Math.floor(random() * 5) }, () => value(depth + 1));
      return Object.fromEntries(Array.from({ length: Math.floor(random() * 5) }, (_, i) => [`${pick(texts)}${i}`, value(depth + 1)]));
    };
    for (let i = 0; i < 500; i++) {
      const text = JSON.stringify(value(0), null, i % 2 === 0 ? undefined : 2);
      expect(valueOf(text), text).to.deep.equal(JSON.parse(text));
    }
  });

  it(`refuses a body nested more than ${MAX_BODY_DEPTH} levels before building it, a body that is not UTF-8 and one that is not JSON`, () => {
    const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
    expect(readBodyJson(bytes(nested(MAX_BODY_DEPTH))).ok).to.equal(true);
    const deepest = { ok: false, problem: `the body nests objects and arrays more than ${MAX_BODY_DEPTH} levels deep` };
    expect(readBodyJson(bytes(nested(MAX_BODY_DEPTH + 1)))).to.deep.equal(deepest);
    expect(readBodyJson(bytes(`{"a": "[[[[", "b": ${nested(MAX_BODY_DEPTH)}}`)).ok, 'brackets in strings do not count').to.equal(false);
    expect(readBodyJson(bytes(`{"a": "[[[[", "b": ${nested(MAX_BODY_DEPTH - 1)}}`)).ok).to.equal(true);
    expect(readBodyJson(bytes(nested(200_000)))).to.deep.equal(deepest);
    expect(readBodyJson(Uint8Array.from([0x7b, 0xff, 0x7d]))).to.deep.equal({ ok: false, problem: 'the body is not UTF-8' });
    for (const text of ['', '{"a": 1', '{"a": 01}', '{"a": 1.}', 'webhook_id=12', '<order/>'])
      expect(readBodyJson(bytes(text)), text).to.deep.equal({ ok: false, problem: 'the body is not JSON' });
  });
});
