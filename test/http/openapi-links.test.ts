import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import { isRight } from 'fp-ts/Either';
import { DESTINATION_PATTERN } from '../../src/domain/campaign-url';
import { LinkBody } from '../../src/adapters/http/links/link-codecs';
import { openApiDocument } from '../../src/adapters/http/openapi';
import type { ParameterObject, ResponseObject } from '../../src/adapters/http/kit/openapi/types';
import { linkUrl, SLUG_PATTERN } from '../../src/domain/link';

const doc = openApiDocument;
const BASE = 'https://orders.test/openapi-links.json';
const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true, allowUnionTypes: true });
addFormats(ajv);
// OpenAPI's `discriminator` is an annotation for generators: `oneOf` alone decides.
ajv.addVocabulary(['openapi', 'info', 'servers', 'tags', 'paths', 'webhooks', 'components', 'discriminator']);
ajv.addSchema({ ...JSON.parse(JSON.stringify(doc)), $id: BASE });
const validateBody = ajv.compile({ $ref: `${BASE}#/components/schemas/LinkRequest` });

const A_LINK = { destinationUrl: 'https://shop.example/', utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'bf' };

/** A pseudo-random sequence of its own, so that a failure can be replayed. */
const random = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};

describe('OpenAPI document: UTM links (decision 0013)', () => {
  it('documents GET /l/{slug} without security or rate limit: 302 with Location and Cache-Control, 404 for an unknown slug', () => {
    const op = doc.paths['/l/{slug}']?.get;
    if (op === undefined) throw new Error('GET /l/{slug} is not documented');
    expect(op.security).to.deep.equal([]);
    expect(Object.keys(op.responses).sort()).to.deep.equal(['302', '400', '404', '500', '503']);
    const found = op.responses['302'] as ResponseObject;
    expect(Object.keys(found.headers ?? {}).sort()).to.deep.equal(['Cache-Control', 'Location', 'X-Request-Id']);
    expect(found.content).to.equal(undefined);
    for (const response of Object.values(op.responses))
      expect((response as ResponseObject).headers).not.to.have.any.keys('RateLimit', 'RateLimit-Policy');
    const slug = (op.parameters ?? []).find((p) => (p as ParameterObject).name === 'slug') as ParameterObject;
    expect(slug.schema.pattern).to.equal(SLUG_PATTERN);
  });

  const params = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, String(i)]));
  const cases: [string, unknown, boolean][] = [
    ['the required fields', A_LINK, true],
    [
      'every field, with macros',
      {
        ...A_LINK,
        utmCampaign: '{{campaign.name}}',
        utmTerm: '{keyword}',
        utmContent: '__CID__',
        utmId: 'x',
        name: 'BF',
        params: { ad: '{{ad.id}}', empty: '' },
      },
      true,
    ],
    ['an IDN host and a Unicode path', { ...A_LINK, destinationUrl: 'https://bücher.example/straße?q=ü#été' }, true],
    ['an IDN top-level domain', { ...A_LINK, destinationUrl: 'http://пример.рф/' }, true],
    ['a punycode host', { ...A_LINK, destinationUrl: 'https://xn--bcher-kva.example' }, true],
    ['an IPv4 address with a port', { ...A_LINK, destinationUrl: 'http://127.0.0.1:65535/x' }, true],
    ['an uppercase scheme and host, a trailing dot', { ...A_LINK, destinationUrl: 'HTTPS://SHOP.EXAMPLE./' }, true],
    ['a query of anything but spaces', { ...A_LINK, destinationUrl: 'https://shop.example/?q="a"|{b}\\c&d=%zz' }, true],
    ['2,048 characters', { ...A_LINK, destinationUrl: `https://shop.example/${'x'.repeat(2048 - 21)}` }, true],
    [
      '20 params, keys u, ut, utm, utmx, utm-x',
      { ...A_LINK, params: { ...params(15), u: '1', ut: '2', utm: '3', utmx: '4', 'utm-x': '5' } },
      true,
    ],
    ['a key of 64 characters, a value of 500', { ...A_LINK, params: { ['k'.repeat(64)]: 'v'.repeat(500) } }, true],
    ['2,049 characters', { ...A_LINK, destinationUrl: `https://shop.example/${'x'.repeat(2049 - 21)}` }, false],
    ['credentials', { ...A_LINK, destinationUrl: 'https://user:pw@shop.example/' }, false],
    ['an empty user', { ...A_LINK, destinationUrl: 'https://@shop.example/' }, false],
    ['ftp', { ...A_LINK, destinationUrl: 'ftp://shop.example/' }, false],
    ['a relative URL', { ...A_LINK, destinationUrl: '/p' }, false],
    ['no slashes after the scheme', { ...A_LINK, destinationUrl: 'https:shop.example' }, false],
    ['a space', { ...A_LINK, destinationUrl: 'https://shop.example/a b' }, false],
    ['a backslash in the path', { ...A_LINK, destinationUrl: 'https://shop.example\\evil.example/' }, false],
    ['a port above 65535', { ...A_LINK, destinationUrl: 'https://shop.example:65536/' }, false],
    ['a host that reads as a number', { ...A_LINK, destinationUrl: 'https://shop.0x1f/' }, false],
    ['five numbers', { ...A_LINK, destinationUrl: 'https://1.2.3.4.5/' }, false],
    ['an IPv6 address', { ...A_LINK, destinationUrl: 'http://[::1]/' }, false],
    ['an empty utmSource', { ...A_LINK, utmSource: '' }, false],
    ['a utmCampaign of 256 characters', { ...A_LINK, utmCampaign: 'x'.repeat(256) }, false],
    ['no utmMedium', { destinationUrl: 'https://shop.example/', utmSource: 'a', utmCampaign: 'b' }, false],
    ['21 params', { ...A_LINK, params: params(21) }, false],
    ['a utm_ key', { ...A_LINK, params: { utm_source: 'x' } }, false],
    ['a UTM_ key', { ...A_LINK, params: { UTM_X: 'x' } }, false],
    ['a key with a space', { ...A_LINK, params: { 'a b': 'x' } }, false],
    ['a key of 65 characters', { ...A_LINK, params: { ['k'.repeat(65)]: 'x' } }, false],
    ['a value of 501 characters', { ...A_LINK, params: { k: 'v'.repeat(501) } }, false],
    ['a number as a value', { ...A_LINK, params: { k: 1 } }, false],
    ['an unknown field', { ...A_LINK, colour: 'red' }, false],
    ['an empty name', { ...A_LINK, name: '' }, false],
  ];
  for (const [name, body, valid] of cases) {
    it(`link body: ${name} is ${valid ? 'accepted' : 'refused'} by the codec and the schema`, () => {
      expect(isRight(LinkBody.decode(body)), 'codec').to.equal(valid);
      expect(validateBody(body), `schema ${ajv.errorsText(validateBody.errors)}`).to.equal(valid);
    });
  }

  it('gives the destination in ASCII, an IDN host in punycode, and the rest as written', () => {
    const decoded = LinkBody.decode({ ...A_LINK, destinationUrl: 'HTTPS://Bücher.Example:443/Straße?Q=1#x' });
    if (!isRight(decoded)) throw new Error('refused');
    expect(decoded.right.destinationUrl).to.deep.equal({
      href: 'HTTPS://Bücher.Example:443/Straße?Q=1#x',
      origin: 'https://xn--bcher-kva.example',
      rest: '/Straße?Q=1#x',
    });
  });

  it('accepts, in the codec and the schema, every destination the pattern admits, and builds a URL of printable ASCII from it', () => {
    const next = random(13);
    const pick = (chars: string): string => [...chars][Math.floor(next() * [...chars].length)];
    const some = (chars: string, min: number, max: number): string =>
      Array.from({ length: min + Math.floor(next() * (max - min + 1)) }, () => pick(chars)).join('');
    const idn = 'àÖøſΑΣωЖяぁゖァヺ一鿿가힣';
    const labelChars = `abcXYZ019_-${idn}`;
    const top = `abcXYZ_${idn}`;
    const rest = 'aZ9-._~!$&\'()*+,;=:@/%"<>^`{|}é€😀\u00a0';
    const pattern = new RegExp(DESTINATION_PATTERN, 'u');
    for (let i = 0; i < 2000; i++) {
      const labels = Array.from({ length: Math.floor(next() * 3) }, () => `${some(labelChars, 1, 6)}.`).join('');
      const host =
        next() < 0.1
          ? `${Math.floor(next() * 256)}.0.${Math.floor(next() * 256)}.255`
          : `${labels}${pick(top)}${some(labelChars, 0, 5)}${next() < 0.1 ? '.' : ''}`;
      const port = next() < 0.2 ? `:${Math.floor(next() * 65536)}` : '';
      const path = next() < 0.7 ? `/${some(`${rest}/`, 0, 10)}` : '';
      const query = next() < 0.6 ? `?${some(`${rest}?\\&=`, 0, 15)}` : '';
      const fragment = next() < 0.3 ? `#${some(`${rest}?#\\`, 0, 8)}` : '';
      const destinationUrl = `${next() < 0.5 ? 'https' : 'HTTP'}://${host}${port}${path}${query}${fragment}`;
      expect(pattern.test(destinationUrl), destinationUrl).to.equal(true);
      const body = { ...A_LINK, destinationUrl };
      expect(validateBody(body), destinationUrl).to.equal(true);
      const decoded = LinkBody.decode(body);
      if (!isRight(decoded)) throw new Error(`the codec refused ${destinationUrl}`);
      const url = linkUrl({ ...decoded.right, destination: decoded.right.destinationUrl, params: [] });
      expect(url, destinationUrl).to.match(/^[\x21-\x7e]+$/);
    }
  });
});
