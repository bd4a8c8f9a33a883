import { expect } from 'chai';
import { TEST_EPOCH } from '../../support/mutable-clock';
import type { ApiResponse } from '../../support/test-api';
import { useApi, type Harness, type StorageFactory } from '../harness';
import { expectInvalid, expectProblem } from '../problem-assertions';

const LINKS = '/api/v1/links';

const A_LINK = {
  destinationUrl: 'https://shop.example/products/tee?color=blue&utm_source=old#reviews',
  utmSource: 'facebook',
  utmMedium: 'paid social',
  utmCampaign: '{{campaign.name}}',
};
/** The URL of A_LINK, written out by hand. */
const A_URL =
  'https://shop.example/products/tee?color=blue&utm_source=facebook&utm_medium=paid%20social&utm_campaign={{campaign.name}}#reviews';

const post = (h: Harness, path: string, body: unknown, token = h.token): Promise<ApiResponse> =>
  h.api.request('POST', path, { token, body });

const create = async (h: Harness, changes: Record<string, unknown> = {}, token = h.token): Promise<any> => {
  const res = await post(h, LINKS, { ...A_LINK, ...changes }, token);
  expect(res.status, res.text).to.equal(201);
  return res.body.link;
};

const read = async (h: Harness, id: string, token = h.token): Promise<any> => {
  const res = await h.api.request('GET', `${LINKS}/${id}`, { token });
  expect(res.status, res.text).to.equal(200);
  return res.body.link;
};

const slugOf = (link: { shortUrl: string }): string => link.shortUrl.slice(link.shortUrl.lastIndexOf('/') + 1);

/** A click on a short link: no token, never followed. */
const click = (h: Harness, slug: string, query = ''): Promise<ApiResponse> => h.api.request('GET', `/l/${slug}${query}`);

/** What a link checker sends: the headers of a click, no body, no token. */
const check = (h: Harness, slug: string, query = ''): Promise<ApiResponse> => h.api.request('HEAD', `/l/${slug}${query}`);

/** The 302 of a short link (decision 0013): where to, not stored by caches, no body, no rate-limit headers. */
const expectRedirect = (res: ApiResponse, location: string): void => {
  expect(res.status, res.text).to.equal(302);
  expect(res.headers.get('location')).to.equal(location);
  expect(res.headers.get('cache-control')).to.equal('no-store');
  expect(res.text).to.equal('');
  expect(res.headers.get('ratelimit')).to.equal(null);
  expect(res.headers.get('x-request-id')).to.be.a('string');
};

/** UTM links and short links through the API (decision 0013). */
export const linksBehaviour = (storageFactory: StorageFactory): void => {
  describe('UTM links', () => {
    const h = useApi(storageFactory, { clock: true });

    describe('POST /api/v1/links/build', () => {
      it('answers the URL of the rules, macros kept, and saves nothing', async () => {
        const res = await post(h, `${LINKS}/build`, {
          ...A_LINK,
          utmId: 'id 1',
          utmTerm: '{keyword}',
          utmContent: '__CID__-{{ad.name}}',
          params: { ad: '{{ad.id}}', ref: 'a&b' },
          name: 'not in the URL',
        });
        expect(res.status, res.text).to.equal(200);
        expect(res.body).to.deep.equal({
          url:
            'https://shop.example/products/tee?color=blue&utm_source=facebook&utm_medium=paid%20social&utm_campaign={{campaign.name}}' +
            '&utm_id=id%201&utm_term={keyword}&utm_content=__CID__-{{ad.name}}&ad={{ad.id}}&ref=a%26b#reviews',
        });
        expect(res.headers.get('ratelimit')).to.be.a('string');
        expect((await h.api.request('GET', LINKS, { token: h.token })).body.total).to.equal(0);
      });

      it('gives an IDN host in punycode and encodes the path as UTF-8', async () => {
        const res = await post(h, `${LINKS}/build`, { ...A_LINK, destinationUrl: 'https://Bücher.example/straße?x=1' });
        expect(res.body.url).to.equal(
          'https://xn--bcher-kva.example/stra%C3%9Fe?x=1&utm_source=facebook&utm_medium=paid%20social&utm_campaign={{campaign.name}}',
        );
      });

      it('needs a token', async () => {
        expectProblem(await post(h, `${LINKS}/build`, A_LINK, 'ok_live_' + 'x'.repeat(43)), 401, 'UNAUTHORIZED');
      });

      it('is a path of its own: POST only, not a link named build', async () => {
        const options = await h.api.request('OPTIONS', `${LINKS}/build`, { token: h.token });
        expect(options.headers.get('allow')).to.equal('POST');
        for (const method of ['GET', 'DELETE']) {
          const res = await h.api.request(method, `${LINKS}/build`, { token: h.token });
          expectProblem(res, 405, 'METHOD_NOT_ALLOWED');
          expect(res.headers.get('allow'), method).to.equal('POST');
        }
        expectProblem(await h.api.request('GET', `${LINKS}/buildx`, { token: h.token }), 404, 'NOT_FOUND');
        expect((await h.api.request('OPTIONS', `${LINKS}/lnk_x`, { token: h.token })).headers.get('allow')).to.equal('HEAD, GET, DELETE');
      });
    });

    describe('POST, GET, DELETE /api/v1/links', () => {
      it('saves a link with its URL and a short link under the address of the service, and reads it back at Location', async () => {
        const res = await post(h, LINKS, { ...A_LINK, name: 'BF', utmTerm: 't', params: { z: '1', a: 'x y' } });
        expect(res.status, res.text).to.equal(201);
        const link = res.body.link;
        expect(link.id).to.match(/^lnk_[0-9A-Za-z]{22}$/);
        expect(res.headers.get('location')).to.equal(`${LINKS}/${link.id}`);
        expect(link.shortUrl).to.match(new RegExp(`^${h.api.url.replace(/\./g, '\\.')}/l/[0-9A-Za-z]{11}$`));
        expect(link).to.deep.equal({
          id: link.id,
          name: 'BF',
          ...A_LINK,
          utmTerm: 't',
          params: { z: '1', a: 'x y' },
          url: A_URL.replace('#reviews', '&utm_term=t&z=1&a=x%20y#reviews'),
          shortUrl: link.shortUrl,
          clicks: 0,
          createdAt: TEST_EPOCH,
        });
        expect(await read(h, link.id)).to.deep.equal(link);
      });

      it('leaves out what was not given, and shows no params as {}', async () => {
        const link = await create(h);
        expect(link).not.to.have.any.keys('name', 'utmTerm', 'utmContent', 'utmId');
        expect(link.params).to.deep.equal({});
        expect(link.url).to.equal(A_URL);
      });

      it('gives every link its own slug', async () => {
        const slugs = new Set<string>();
        for (let i = 0; i < 5; i++) slugs.add(slugOf(await create(h)));
        expect(slugs.size).to.equal(5);
      });

      it('lists newest first with pages and the total, and refuses bad paging (decision 0005)', async () => {
        const ids: string[] = [];
        for (let i = 0; i < 3; i++) {
          ids.push((await create(h, { name: `link ${i}` })).id);
          h.clock.advance(1_000);
        }
        const page = async (query: string) => (await h.api.request('GET', `${LINKS}${query}`, { token: h.token })).body;
        const first = await page('?pageSize=2');
        expect(first.links.map((link: { id: string }) => link.id)).to.deep.equal([ids[2], ids[1]]);
        expect(first).to.include({ page: 1, pageSize: 2, total: 3 });
        expect((await page('?page=2&pageSize=2')).links.map((link: { id: string }) => link.id)).to.deep.equal([ids[0]]);
        expect(await page('?page=3&pageSize=2')).to.deep.equal({ links: [], page: 3, pageSize: 2, total: 3 });
        expect(await page('')).to.include({ page: 1, pageSize: 20, total: 3 });
        expectInvalid(await h.api.request('GET', `${LINKS}?page=0&pageSize=101&colour=red`, { token: h.token }), [
          'query.page',
          'query.pageSize',
          'query.colour',
        ]);
      });

      it('deletes a link: 204 without a body, then 404 for it and for its short link', async () => {
        const link = await create(h);
        const deleted = await h.api.request('DELETE', `${LINKS}/${link.id}`, { token: h.token });
        expect(deleted.status).to.equal(204);
        expect(deleted.text).to.equal('');
        expectProblem(await h.api.request('GET', `${LINKS}/${link.id}`, { token: h.token }), 404, 'NOT_FOUND');
        expectProblem(await h.api.request('DELETE', `${LINKS}/${link.id}`, { token: h.token }), 404, 'NOT_FOUND');
        expectProblem(await click(h, slugOf(link)), 404, 'NOT_FOUND');
      });

      it("answers another dashboard's link as an unknown one, lists it not, and deletes it not", async () => {
        const other = (await h.api.newDashboard('Other shop')).token;
        const theirs = await create(h, {}, other);
        const unknown = await h.api.request('GET', `${LINKS}/lnk_unknown`, { token: h.token });
        const answer = await h.api.request('GET', `${LINKS}/${theirs.id}`, { token: h.token });
        const body = expectProblem(answer, 404, 'NOT_FOUND');
        expect({ ...body, requestId: 'x' }).to.deep.equal({ ...expectProblem(unknown, 404, 'NOT_FOUND'), requestId: 'x' });
        expectProblem(await h.api.request('DELETE', `${LINKS}/${theirs.id}`, { token: h.token }), 404, 'NOT_FOUND');
        expect((await h.api.request('GET', LINKS, { token: h.token })).body.total).to.equal(0);
        expect(await read(h, theirs.id, other)).to.deep.equal(theirs);
      });
    });

    describe('validation (decision 0013: unknown fields refused, every problem at once)', () => {
      const invalid = {
        destinationUrl: 'ftp://shop.example/',
        utmSource: '',
        utmCampaign: 'x'.repeat(256),
        utmTerm: 7,
        params: { utm_x: 'a', 'bad key': 'b', ok: 'x'.repeat(501), UTM_y: 'c' },
        name: '',
        colour: 'red',
      };
      const paths = [
        'destinationUrl',
        'utmSource',
        'utmMedium',
        'utmCampaign',
        'utmTerm',
        'params.utm_x',
        'params.bad key',
        'params.ok',
        'params.UTM_y',
        'name',
        'colour',
      ];

      for (const path of [LINKS, `${LINKS}/build`]) {
        it(`POST ${path} reports every problem at once`, async () => {
          expectInvalid(await post(h, path, invalid), paths);
        });
      }

      it('says why a destination is refused: credentials, scheme, length, spaces', async () => {
        const problem = async (destinationUrl: unknown) => (await post(h, LINKS, { ...A_LINK, destinationUrl })).body.details;
        expect(await problem('https://user:secret@shop.example/')).to.deep.equal([
          { path: 'destinationUrl', message: 'must not hold credentials (user:password@)' },
        ]);
        for (const url of [
          'ftp://shop.example/',
          '/relative',
          'https://shop.example/a b',
          'https://shop.example:99999/',
          'https://1.2.3.4.5/',
          'http:shop.example',
        ]) {
          expect(await problem(url), url).to.deep.equal([{ path: 'destinationUrl', message: 'must be an absolute http or https URL' }]);
        }
        expect(await problem(`https://shop.example/${'x'.repeat(2030)}`)).to.deep.equal([
          { path: 'destinationUrl', message: 'must be at most 2048 characters' },
        ]);
        expect(await problem(['https://shop.example/'])).to.deep.equal([{ path: 'destinationUrl', message: 'must be a string' }]);
      });

      it('takes 20 params and refuses 21', async () => {
        const params = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, String(i)]));
        expect((await post(h, LINKS, { ...A_LINK, params: params(20) })).status).to.equal(201);
        expect((await post(h, LINKS, { ...A_LINK, params: params(21) })).body.details).to.deep.equal([
          { path: 'params', message: 'must have at most 20 parameters' },
        ]);
        expectInvalid(await post(h, LINKS, { ...A_LINK, params: ['a'] }), ['params']);
      });
    });

    describe('GET /l/{slug}', () => {
      it("redirects without a token to the link's URL, not stored by caches, and counts the click", async () => {
        const link = await create(h);
        expectRedirect(await click(h, slugOf(link)), A_URL);
        expectRedirect(await click(h, slugOf(link)), A_URL);
        expect((await read(h, link.id)).clicks).to.equal(2);
      });

      it("adds the click's own parameters before the fragment, never replacing the link's utm_*", async () => {
        const link = await create(h);
        expectRedirect(
          await click(h, slugOf(link), '?fbclid=IwAR0&utm_source=evil&utm_term=shoes&color=red&gclid=a+b'),
          A_URL.replace('#reviews', '&fbclid=IwAR0&utm_term=shoes&gclid=a+b#reviews'),
        );
      });

      it('counts every click of many in parallel', async () => {
        const link = await create(h);
        const answers = await Promise.all(Array.from({ length: 100 }, () => click(h, slugOf(link))));
        expect(answers.map((res) => res.status)).to.deep.equal(Array(100).fill(302));
        expect((await read(h, link.id)).clicks).to.equal(100);
      });

      it('answers 404 for an unknown slug and for text that is not a slug, counting nothing', async () => {
        const link = await create(h);
        for (const slug of ['zzzzzzzzzzz', 'short', 'x'.repeat(12), `${slugOf(link)}x`, '%E2%9C%93', '..%2F']) {
          expectProblem(await click(h, slug), 404, 'NOT_FOUND');
        }
        expect((await read(h, link.id)).clicks).to.equal(0);
      });
    });

    describe('HEAD /l/{slug}', () => {
      it('answers what a GET answers, the same Location, and counts nothing', async () => {
        const link = await create(h);
        const query = '?fbclid=IwAR0&utm_source=evil';
        const location = A_URL.replace('#reviews', '&fbclid=IwAR0#reviews');
        expectRedirect(await check(h, slugOf(link), query), location);
        expectRedirect(await check(h, slugOf(link)), A_URL);
        expect((await read(h, link.id)).clicks).to.equal(0);
        expectRedirect(await click(h, slugOf(link), query), location);
        expect((await read(h, link.id)).clicks).to.equal(1);
      });

      it('answers 404 for an unknown slug and for text that is not a slug, with the headers of the problem', async () => {
        for (const slug of ['zzzzzzzzzzz', 'short']) {
          const res = await check(h, slug);
          expect(res.status, slug).to.equal(404);
          expect(res.headers.get('content-type'), slug).to.match(/^application\/problem\+json\b/);
          expect(res.text, slug).to.equal('');
        }
      });
    });
  });

  describe('UTM links under PUBLIC_BASE_URL', () => {
    const h = useApi(storageFactory, { config: { publicBaseUrl: 'https://go.example/s' } });

    it('gives short links under it, and they redirect', async () => {
      const link = await create(h);
      expect(link.shortUrl).to.match(/^https:\/\/go\.example\/s\/l\/[0-9A-Za-z]{11}$/);
      expectRedirect(await click(h, slugOf(link)), A_URL);
    });
  });
};
