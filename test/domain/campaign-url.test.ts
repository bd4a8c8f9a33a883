import { expect } from 'chai';
import { AD_MACROS, macroAt } from '../../src/domain/ad-macros';
import { campaignUrl, encodeValue, withClickParams, type Destination, type LinkParam, type UtmFields } from '../../src/domain/campaign-url';

/** A destination as the edge parses it: `origin` in ASCII, `rest` as written. */
const at = (origin: string, rest = '', href = `${origin}${rest}`): Destination => ({ href, origin, rest });

const UTM: UtmFields = { utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'bf' };
const TAIL = 'utm_source=google&utm_medium=cpc&utm_campaign=bf';

interface Case {
  readonly name: string;
  readonly destination: Destination;
  readonly utm?: Partial<UtmFields>;
  readonly params?: readonly LinkParam[];
  readonly url: string;
}

const p = (key: string, value: string): LinkParam => ({ key, value });

/** The rules of decision 0013, one case each; `url` is written out by hand. */
const CASES: readonly Case[] = [
  { name: 'a bare host gets the query right after it', destination: at('https://shop.example'), url: `https://shop.example?${TAIL}` },
  { name: 'a path is kept', destination: at('https://shop.example', '/a/b/'), url: `https://shop.example/a/b/?${TAIL}` },
  {
    name: 'the utm fields come in the order source, medium, campaign, id, term, content',
    destination: at('https://shop.example', '/'),
    utm: { utmContent: 'c', utmTerm: 't', utmId: 'i' },
    url: `https://shop.example/?${TAIL}&utm_id=i&utm_term=t&utm_content=c`,
  },
  {
    name: "the destination's parameters are kept in their order, its utm_* taken out whatever their case or spelling",
    destination: at('https://shop.example', '/p?color=blue&utm_source=old&size=M&UTM_Medium=x&utm%5Fcampaign=y&Utm_term=z&utmx=1'),
    url: `https://shop.example/p?color=blue&size=M&utmx=1&${TAIL}`,
  },
  {
    name: "the destination's parameters are kept byte for byte: +, escapes in any case, = inside a value",
    destination: at('https://shop.example', '/s?q=a+b&r=%2B%20x&s=caf%c3%a9&t=a=b&flag'),
    url: `https://shop.example/s?q=a+b&r=%2B%20x&s=caf%c3%a9&t=a=b&flag&${TAIL}`,
  },
  {
    name: 'a destination of utm_* only keeps none of them',
    destination: at('https://shop.example', '/?utm_source=x&utm_term=y'),
    url: `https://shop.example/?${TAIL}`,
  },
  {
    name: 'empty pieces of the query are dropped',
    destination: at('https://shop.example', '/?a=1&&b=2&'),
    url: `https://shop.example/?a=1&b=2&${TAIL}`,
  },
  { name: 'an empty query is dropped', destination: at('https://shop.example', '/?'), url: `https://shop.example/?${TAIL}` },
  {
    name: 'the fragment stays at the end',
    destination: at('https://shop.example', '/p?a=1#reviews'),
    url: `https://shop.example/p?a=1&${TAIL}#reviews`,
  },
  { name: 'a fragment without a query', destination: at('https://shop.example', '/p#top'), url: `https://shop.example/p?${TAIL}#top` },
  { name: 'an empty fragment is kept', destination: at('https://shop.example', '/p#'), url: `https://shop.example/p?${TAIL}#` },
  {
    name: 'a fragment holding ? and / stays, a second # is encoded',
    destination: at('https://shop.example', '/#/a?b=1#c'),
    url: `https://shop.example/?${TAIL}#/a?b=1%23c`,
  },
  {
    name: 'an IDN host comes in ASCII from the edge; its path, query and fragment are encoded as UTF-8',
    destination: at('https://xn--bcher-kva.example', '/straße?q=ü#été', 'https://bücher.example/straße?q=ü#été'),
    url: `https://xn--bcher-kva.example/stra%C3%9Fe?q=%C3%BC&${TAIL}#%C3%A9t%C3%A9`,
  },
  {
    name: 'characters no URL may hold are encoded in the destination, and nothing else',
    destination: at('https://shop.example', '/a"b?q="x"<y>|z^`&d=50%off&e=%zz&k=:@/?!$\'()*,;'),
    url: `https://shop.example/a%22b?q=%22x%22%3Cy%3E%7Cz%5E%60&d=50%25off&e=%25zz&k=:@/?!$'()*,;&${TAIL}`,
  },
  {
    name: "the destination's own macros are kept",
    destination: at('https://shop.example', '/{lpurl}?gclid={gclid}&ad={{ad.id}}&t=__CID__'),
    url: `https://shop.example/{lpurl}?gclid={gclid}&ad={{ad.id}}&t=__CID__&${TAIL}`,
  },
  {
    name: 'values are percent-encoded as RFC 3986: reserved characters, a space as %20, unreserved ones kept',
    destination: at('https://shop.example', '/'),
    utm: { utmCampaign: 'a&b=c?d#e/f+g%h i', utmTerm: "!'()*", utmContent: 'A-z_0.9~' },
    url: 'https://shop.example/?utm_source=google&utm_medium=cpc&utm_campaign=a%26b%3Dc%3Fd%23e%2Ff%2Bg%25h%20i&utm_term=%21%27%28%29%2A&utm_content=A-z_0.9~',
  },
  {
    name: 'values beyond ASCII are encoded as UTF-8, four bytes included',
    destination: at('https://shop.example', '/'),
    utm: { utmCampaign: 'ção 🎉' },
    url: 'https://shop.example/?utm_source=google&utm_medium=cpc&utm_campaign=%C3%A7%C3%A3o%20%F0%9F%8E%89',
  },
  {
    name: 'macros of Meta, Google and TikTok are kept verbatim, mixed with text that is encoded',
    destination: at('https://shop.example', '/'),
    utm: {
      utmSource: 'facebook',
      utmCampaign: '{{campaign.name}}-x',
      utmTerm: '{campaignid}_{adgroupid}',
      utmContent: '__CAMPAIGN_NAME__',
      utmId: 'Black Friday {{ad.name}}!',
    },
    url:
      'https://shop.example/?utm_source=facebook&utm_medium=cpc&utm_campaign={{campaign.name}}-x&utm_id=Black%20Friday%20{{ad.name}}%21' +
      '&utm_term={campaignid}_{adgroupid}&utm_content=__CAMPAIGN_NAME__',
  },
  {
    name: 'braces that are not a macro are text, and encoded',
    destination: at('https://shop.example', '/'),
    params: [p('a', '{not a macro}'), p('b', '{{unclosed'), p('c', '{{a}'), p('d', '{}'), p('e', '{{a b}}')],
    url: `https://shop.example/?${TAIL}&a=%7Bnot%20a%20macro%7D&b=%7B%7Bunclosed&c=%7B{a}&d=%7B%7D&e=%7B%7Ba%20b%7D%7D`,
  },
  {
    name: "Google's conditional and escaped macros are kept",
    destination: at('https://shop.example', '/'),
    params: [p('device', '{ifmobile:mobile}{ifnotmobile:desktop}'), p('lp', '{lpurl+2}'), p('custom', '{_season}')],
    url: `https://shop.example/?${TAIL}&device={ifmobile:mobile}{ifnotmobile:desktop}&lp={lpurl+2}&custom={_season}`,
  },
  {
    name: 'params come last, in the order given, whatever their keys',
    destination: at('https://shop.example', '/'),
    params: [p('z', '1'), p('a', ''), p('10', 'x y'), p('k.e-y_', '2')],
    url: `https://shop.example/?${TAIL}&z=1&a=&10=x%20y&k.e-y_=2`,
  },
  {
    name: "a param with a key the destination already has is added, the destination's kept (decision 0013 replaces utm_* only)",
    destination: at('https://shop.example', '/?ref=home'),
    params: [p('ref', 'newsletter')],
    url: `https://shop.example/?ref=home&${TAIL}&ref=newsletter`,
  },
  { name: 'a port is kept in the origin', destination: at('http://127.0.0.1:8080', '/x'), url: `http://127.0.0.1:8080/x?${TAIL}` },
];

describe('campaignUrl (decision 0013)', () => {
  for (const c of CASES) {
    it(c.name, () => {
      expect(campaignUrl(c.destination, { ...UTM, ...c.utm }, c.params ?? [])).to.equal(c.url);
    });
  }

  it('never holds a space, a control character or a character beyond ASCII', () => {
    for (const c of CASES) expect(campaignUrl(c.destination, { ...UTM, ...c.utm }, c.params ?? [])).to.match(/^[\x21-\x7e]+$/);
  });
});

describe('encodeValue', () => {
  it('keeps the examples of every platform verbatim, alone and between text', () => {
    for (const { examples } of AD_MACROS) {
      for (const macro of examples) {
        expect(encodeValue(macro), macro).to.equal(macro);
        expect(encodeValue(`a ${macro} b`), macro).to.equal(`a%20${macro}%20b`);
      }
    }
  });

  it('finds a macro only where one starts', () => {
    expect(macroAt('x{{campaign.name}}', 0)).to.equal(undefined);
    expect(macroAt('x{{campaign.name}}', 1)).to.equal('{{campaign.name}}');
    // From the second brace on, `{campaign.name}` is not a Google macro: those have no dot.
    expect(macroAt('x{{campaign.name}}', 2)).to.equal(undefined);
  });
});

describe('withClickParams (decision 0013)', () => {
  const url = `https://shop.example/p?color=blue&${TAIL}`;
  const cases: [string, string, string, string][] = [
    ['no query adds nothing', url, '', url],
    ["a click id is added after the link's parameters", url, 'fbclid=IwAR0x', `${url}&fbclid=IwAR0x`],
    [
      'a utm_* the link has is never replaced nor doubled, in any spelling',
      url,
      'utm_source=evil&UTM_MEDIUM=x&utm%5Fcampaign=y&gclid=1',
      `${url}&gclid=1`,
    ],
    ['a utm_* the link does not have is added', url, 'utm_term=shoes', `${url}&utm_term=shoes`],
    ["any other name the link's URL has is left out", url, 'color=red&size=M', `${url}&size=M`],
    ['the parameters go before the fragment', `${url}#reviews`, 'gclid=1', `${url}&gclid=1#reviews`],
    ['empty pieces are dropped, repeated names kept', url, '&&a=1&a=2&', `${url}&a=1&a=2`],
    [
      'the query is kept as sent, made valid where it was not',
      url,
      'q=a+b%20c&r=x|y"z&m={gclid}',
      `${url}&q=a+b%20c&r=x%7Cy%22z&m={gclid}`,
    ],
  ];
  for (const [name, link, query, expected] of cases) {
    it(name, () => {
      expect(withClickParams(link, query)).to.equal(expected);
    });
  }
});
