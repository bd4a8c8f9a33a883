import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { TRACKER_SCRIPT_PATH } from '../../src/bootstrap/tracker-script';
import { TestApi } from '../support/test-api';

interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly bytes: Buffer;
}

/** A GET or HEAD through node:http, which leaves a gzipped body as it came. */
const fetchRaw = (base: string, method: 'GET' | 'HEAD', headers: Record<string, string> = {}): Promise<RawResponse> =>
  new Promise((resolve, reject) => {
    const req = request(new URL('/tracker.js', base), { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });

/** decision 0014: at most 5 KB gzipped; 5,000 bytes, the stricter reading of "KB". */
const GZIP_LIMIT = 5_000;

describe('GET /tracker.js', () => {
  const built = readFileSync(TRACKER_SCRIPT_PATH);
  const gzippedSize = gzipSync(built, { level: 9 }).length;
  let api: TestApi;

  before(async () => {
    api = await TestApi.start();
  });

  after(async () => {
    await api.stop();
  });

  it(`is at most ${GZIP_LIMIT} bytes gzipped (${gzippedSize} bytes gzipped, ${built.length} as built)`, async () => {
    const res = await fetchRaw(api.url, 'GET', { 'accept-encoding': 'gzip' });
    expect(res.headers['content-encoding']).to.equal('gzip');
    expect(res.bytes.length).to.equal(gzippedSize);
    expect(res.bytes.length).to.be.at.most(GZIP_LIMIT);
  });

  it('serves the built script as it is, with the caching headers of decision 0014 and a strong ETag', async () => {
    const res = await fetchRaw(api.url, 'GET');
    expect(res.status).to.equal(200);
    expect(res.bytes.equals(built), 'the bytes of dist/browser/tracker.js').to.equal(true);
    expect(res.headers['content-type']).to.equal('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).to.equal('public, max-age=300');
    expect(res.headers['vary']).to.equal('Accept-Encoding');
    expect(res.headers['etag']).to.match(/^"[A-Za-z0-9_-]+"$/);
    expect(res.headers['content-encoding']).to.equal(undefined);
    expect(res.headers['content-length']).to.equal(String(built.length));
  });

  it('gzips it when the client takes gzip, under an ETag of its own', async () => {
    const plain = await fetchRaw(api.url, 'GET', { 'accept-encoding': 'identity' });
    const gzipped = await fetchRaw(api.url, 'GET', { 'accept-encoding': 'gzip, deflate, br' });
    expect(plain.headers['content-encoding']).to.equal(undefined);
    expect(plain.bytes.equals(built)).to.equal(true);
    expect(gzipped.headers['content-encoding']).to.equal('gzip');
    expect(gzipped.headers['content-type']).to.equal('text/javascript; charset=utf-8');
    expect(gzipped.headers['vary']).to.equal('Accept-Encoding');
    expect(gunzipSync(gzipped.bytes).equals(built)).to.equal(true);
    expect(gzipped.headers['etag']).to.match(/^"[A-Za-z0-9_-]+-gzip"$/);
    expect(gzipped.headers['etag']).not.to.equal(plain.headers['etag']);
    const refused = await fetchRaw(api.url, 'GET', { 'accept-encoding': 'gzip;q=0, br' });
    expect(refused.headers['content-encoding']).to.equal(undefined);
  });

  it('answers 304 without a body when If-None-Match names the ETag of what would be sent, in any form', async () => {
    const plain = String((await fetchRaw(api.url, 'GET')).headers['etag']);
    const gzipped = String((await fetchRaw(api.url, 'GET', { 'accept-encoding': 'gzip' })).headers['etag']);
    const cases: [Record<string, string>, string][] = [
      [{ 'if-none-match': plain }, plain],
      [{ 'if-none-match': `W/${plain}` }, plain],
      [{ 'if-none-match': `"old", ${plain}` }, plain],
      [{ 'if-none-match': '*' }, plain],
      [{ 'if-none-match': gzipped, 'accept-encoding': 'gzip' }, gzipped],
    ];
    for (const [headers, etag] of cases) {
      const res = await fetchRaw(api.url, 'GET', headers);
      expect(res.status, JSON.stringify(headers)).to.equal(304);
      expect(res.bytes.length).to.equal(0);
      expect(res.headers['etag']).to.equal(etag);
      expect(res.headers['cache-control']).to.equal('public, max-age=300');
      expect(res.headers['vary']).to.equal('Accept-Encoding');
      expect(res.headers['content-encoding']).to.equal(undefined);
    }
    const others: Record<string, string>[] = [
      { 'if-none-match': '"old"' },
      { 'if-none-match': gzipped },
      { 'if-none-match': plain, 'accept-encoding': 'gzip' },
    ];
    for (const headers of others) {
      const res = await fetchRaw(api.url, 'GET', headers);
      expect(res.status, JSON.stringify(headers)).to.equal(200);
      expect(res.bytes.length).to.be.greaterThan(0);
    }
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const get = await fetchRaw(api.url, 'GET', { 'accept-encoding': 'gzip' });
    const head = await fetchRaw(api.url, 'HEAD', { 'accept-encoding': 'gzip' });
    expect(head.status).to.equal(200);
    expect(head.bytes.length).to.equal(0);
    for (const name of ['content-type', 'content-length', 'content-encoding', 'etag', 'cache-control', 'vary']) {
      expect(head.headers[name], name).to.equal(get.headers[name]);
    }
    const conditional = await fetchRaw(api.url, 'HEAD', { 'if-none-match': String(get.headers['etag']), 'accept-encoding': 'gzip' });
    expect(conditional.status).to.equal(304);
  });

  it('takes no authentication and is not rate limited', async () => {
    const limited = await TestApi.start({ rateLimitMax: 1 });
    try {
      for (let i = 0; i < 3; i++) {
        const res = await limited.request('GET', '/tracker.js', { token: 'ok_live_' + 'x'.repeat(43) });
        expect(res.status).to.equal(200);
        expect(res.headers.get('ratelimit')).to.equal(null);
      }
    } finally {
      await limited.stop();
    }
  });
});
