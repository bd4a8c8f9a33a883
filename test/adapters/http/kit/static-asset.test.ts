import { gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import { acceptsGzip, noneMatch, prepareAsset } from '../../../../src/adapters/http/kit/static-asset';

describe('static asset: encodings and entity tags', () => {
  const asset = prepareAsset(Buffer.from('console.log("hello");\n'.repeat(20)));

  it('keeps the bytes as they are and gzips them, each encoding with a strong tag of its own', () => {
    expect(gunzipSync(asset.gzip.bytes).equals(asset.identity.bytes)).to.equal(true);
    expect(asset.gzip.bytes.length).to.be.lessThan(asset.identity.bytes.length);
    expect(asset.identity.etag).to.match(/^"[A-Za-z0-9_-]{32}"$/);
    expect(asset.gzip.etag).to.equal(`${asset.identity.etag.slice(0, -1)}-gzip"`);
    expect(prepareAsset(Buffer.from('other')).identity.etag).not.to.equal(asset.identity.etag);
    expect(prepareAsset(Buffer.from(asset.identity.bytes)).gzip.etag).to.equal(asset.gzip.etag);
  });

  const encodings: [string | undefined, boolean][] = [
    [undefined, false],
    ['', false],
    ['gzip', true],
    ['GZIP', true],
    ['x-gzip', true],
    ['gzip, deflate, br, zstd', true],
    ['br;q=1.0, gzip;q=0.8', true],
    ['gzip;q=0', false],
    ['gzip; q=0.000', false],
    ['gzip;q=abc', false],
    ['*', true],
    ['*;q=0', false],
    ['gzip;q=0, *', false],
    ['identity', false],
    ['deflate, br', false],
    [',,;;q=', false],
  ];
  for (const [header, gzip] of encodings) {
    it(`Accept-Encoding ${JSON.stringify(header)} ${gzip ? 'takes' : 'does not take'} gzip`, () => {
      expect(acceptsGzip(header)).to.equal(gzip);
    });
  }

  const conditions: [string | undefined, boolean][] = [
    [undefined, false],
    ['"abc"', true],
    ['W/"abc"', true],
    ['"x", W/"abc" , "y"', true],
    ['*', true],
    [' * ', true],
    ['"abcd"', false],
    ['abc', false],
    ['"ab"c"', false],
    ['"x",*', false],
  ];
  for (const [header, matches] of conditions) {
    it(`If-None-Match ${JSON.stringify(header)} ${matches ? 'names' : 'does not name'} "abc"`, () => {
      expect(noneMatch(header, '"abc"')).to.equal(matches);
    });
  }
});
