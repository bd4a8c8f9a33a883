import { expect } from 'chai';
import { randomBase62 } from '../../../src/adapters/system/base62';

describe('randomBase62', () => {
  it('makes strings of the asked length over [0-9A-Za-z]', () => {
    for (const length of [1, 22, 43, 100]) expect(randomBase62(length)).to.match(new RegExp(`^[0-9A-Za-z]{${length}}$`));
  });

  it('never repeats an id across many refills of its pool', () => {
    const ids = new Set(Array.from({ length: 100_000 }, () => randomBase62(22)));
    expect(ids.size).to.equal(100_000);
  });

  it('draws every character about equally often (no modulo bias)', () => {
    const counts = new Map<string, number>();
    const text = Array.from({ length: 10_000 }, () => randomBase62(100)).join('');
    for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).to.equal(62);
    const expected = text.length / 62;
    // About 127 standard deviations of 16,129 draws each: 5% is more than 6 of them.
    for (const [char, count] of counts) expect(Math.abs(count - expected) / expected, char).to.be.below(0.05);
  });
});
