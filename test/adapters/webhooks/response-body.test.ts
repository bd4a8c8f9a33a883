import { expect } from 'chai';
import { keptResponseBody } from '../../../src/adapters/webhooks/response-body';
import { RESPONSE_BODY_LIMIT_BYTES } from '../../../src/domain/delivery';

const LIMIT = RESPONSE_BODY_LIMIT_BYTES;
const bytesOf = (text: string): Buffer => Buffer.from(text, 'utf8');

describe('the response body an attempt keeps (decision 0022)', () => {
  it('keeps a short body whole, and nothing of an empty one', () => {
    expect(keptResponseBody(bytesOf('{"ok":true} ção ✓'), true)).to.deep.equal({ text: '{"ok":true} ção ✓', truncated: false });
    expect(keptResponseBody(bytesOf(''), true)).to.equal(undefined);
    expect(keptResponseBody(bytesOf('x'.repeat(LIMIT)), true)).to.deep.equal({ text: 'x'.repeat(LIMIT), truncated: false });
  });

  it('keeps the first 4 KiB of a longer body and says it was cut', () => {
    const kept = keptResponseBody(bytesOf('y'.repeat(LIMIT + 1)), false);
    expect(kept).to.deep.equal({ text: 'y'.repeat(LIMIT), truncated: true });
    expect(keptResponseBody(bytesOf('y'.repeat(LIMIT + 1)), true)).to.deep.equal(kept);
  });

  it('cuts where a character ends: never half of a multi-byte character', () => {
    // 4,095 bytes of ASCII, then a 3-byte character that the limit splits.
    const kept = keptResponseBody(bytesOf(`${'z'.repeat(LIMIT - 1)}✓✓`), false)!;
    expect(kept).to.deep.equal({ text: 'z'.repeat(LIMIT - 1), truncated: true });
    const emoji = keptResponseBody(bytesOf('😀'.repeat(LIMIT)), false)!;
    expect(emoji.text).to.equal('😀'.repeat(LIMIT / 4));
  });

  it('replaces bytes that are not UTF-8, and still keeps at most 4 KiB of UTF-8', () => {
    expect(keptResponseBody(Buffer.from([0x6f, 0x6b, 0xff, 0xc3]), true)).to.deep.equal({ text: 'ok\uFFFD\uFFFD', truncated: false });
    // Each 0xff becomes U+FFFD, 3 bytes: 4,096 of them would be 12 KiB of text.
    const kept = keptResponseBody(Buffer.alloc(LIMIT, 0xff), true)!;
    expect(Buffer.byteLength(kept.text, 'utf8')).to.be.at.most(LIMIT);
    expect(kept).to.deep.equal({ text: '\uFFFD'.repeat(Math.floor(LIMIT / 3)), truncated: true });
  });

  it('says a body cut off before its end was cut, however short', () => {
    expect(keptResponseBody(bytesOf('{"partial'), false)).to.deep.equal({ text: '{"partial', truncated: true });
  });
});
