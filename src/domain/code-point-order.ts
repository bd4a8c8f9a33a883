/**
 * Orders strings by Unicode code point, as SQLite's BINARY collation and MongoDB compare them (both
 * compare UTF-8 bytes): JavaScript's `<` compares UTF-16 units, which puts U+E000..U+FFFF after the
 * characters beyond U+FFFF. Report rows equal on their sort metric are ordered this way on every store.
 */
export const compareCodePoints = (a: string, b: string): number => {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return unitRank(x) - unitRank(y);
  }
  return a.length - b.length;
};

/** Surrogates (the units of code points beyond U+FFFF) rank after every other unit. */
const unitRank = (unit: number): number => (unit >= 0xd800 && unit <= 0xdfff ? unit + 0x2000 : unit >= 0xe000 ? unit - 0x800 : unit);
