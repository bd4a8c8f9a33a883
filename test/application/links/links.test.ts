import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { InMemoryLinkRepository } from '../../../src/adapters/memory/links/in-memory-link-repository';
import { BuildLinkUrl } from '../../../src/application/links/build-link-url';
import { CreateLink, SLUG_ATTEMPTS, SlugsExhaustedError } from '../../../src/application/links/create-link';
import { DeleteLink } from '../../../src/application/links/delete-link';
import { FollowShortLink } from '../../../src/application/links/follow-short-link';
import { GetLink } from '../../../src/application/links/get-link';
import { ListLinks } from '../../../src/application/links/list-links';
import type { LinkRepository } from '../../../src/application/ports/link-repository';
import type { SlugGenerator } from '../../../src/application/ports/slug-generator';
import type { LinkInput } from '../../../src/domain/link';
import { MutableClock } from '../../support/mutable-clock';
import { SequenceIds } from '../../support/sequence-ids';

/** Slugs in the order given, then a failure: a test says which slug comes next. */
class ListedSlugs implements SlugGenerator {
  drawn = 0;
  constructor(private readonly slugs: readonly string[]) {}
  next(): string {
    const slug = this.slugs[this.drawn++];
    if (slug === undefined) throw new Error('no slug left');
    return slug;
  }
}

const anInput = (changes: Partial<LinkInput> = {}): LinkInput => ({
  destination: {
    href: 'https://Shop.example/p?utm_source=old&color=blue#top',
    origin: 'https://shop.example',
    rest: '/p?utm_source=old&color=blue#top',
  },
  utmSource: 'facebook',
  utmMedium: 'paid social',
  utmCampaign: '{{campaign.name}}',
  params: [{ key: 'ad', value: '{{ad.id}}' }],
  ...changes,
});
const URL =
  'https://shop.example/p?color=blue&utm_source=facebook&utm_medium=paid%20social&utm_campaign={{campaign.name}}&ad={{ad.id}}#top';

/** A repository whose redirect look-ups fail the test: what must be answered without the store. */
const noLookUp = (links: LinkRepository): LinkRepository =>
  Object.assign(Object.create(links) as LinkRepository, {
    recordClick: async () => {
      throw new Error('the store was asked');
    },
    findBySlug: async () => {
      throw new Error('the store was asked');
    },
  });

const CLICK = { count: true };
const CHECK = { count: false };

describe('UTM link use cases (decision 0013)', () => {
  let links: InMemoryLinkRepository;
  let clock: MutableClock;
  let slugs: ListedSlugs;
  let createLink: CreateLink;

  beforeEach(() => {
    links = new InMemoryLinkRepository();
    clock = new MutableClock('2026-03-01T12:00:00.000Z');
    slugs = new ListedSlugs(['aaaaaaaaaa1', 'aaaaaaaaaa2', 'aaaaaaaaaa3']);
    createLink = new CreateLink(links, new SequenceIds(), slugs, clock);
  });

  describe('BuildLinkUrl', () => {
    it('answers the URL of the rules, saving nothing', async () => {
      expect(new BuildLinkUrl().execute(anInput())).to.equal(URL);
    });
  });

  describe('CreateLink', () => {
    it('saves the link in the dashboard with an lnk_ id, a slug, its URL, no click, the time of the clock and the destination as given', async () => {
      const link = await createLink.execute('dsh_a', anInput({ name: 'BF', utmTerm: 't' }));
      expect(link).to.deep.equal({
        id: 'lnk_000001',
        dashboardId: 'dsh_a',
        slug: 'aaaaaaaaaa1',
        name: 'BF',
        destinationUrl: 'https://Shop.example/p?utm_source=old&color=blue#top',
        utmSource: 'facebook',
        utmMedium: 'paid social',
        utmCampaign: '{{campaign.name}}',
        utmTerm: 't',
        params: [{ key: 'ad', value: '{{ad.id}}' }],
        url: 'https://shop.example/p?color=blue&utm_source=facebook&utm_medium=paid%20social&utm_campaign={{campaign.name}}&utm_term=t&ad={{ad.id}}#top',
        clicks: 0,
        createdAt: new Date('2026-03-01T12:00:00.000Z'),
      });
      expect(await links.findById('dsh_a', 'lnk_000001')).to.deep.equal(O.some(link));
    });

    it('draws another slug when the first is taken, and keeps its id', async () => {
      await links.insert({ ...(await createLink.execute('dsh_b', anInput())), id: 'lnk_other', slug: 'aaaaaaaaaa2' });
      const link = await createLink.execute('dsh_a', anInput());
      expect(link).to.include({ id: 'lnk_000002', slug: 'aaaaaaaaaa3' });
      expect(slugs.drawn).to.equal(3);
    });

    it(`gives up with an error after ${SLUG_ATTEMPTS} slugs taken, saving nothing`, async () => {
      const taken = await createLink.execute('dsh_b', anInput());
      const always = new ListedSlugs(Array<string>(SLUG_ATTEMPTS + 1).fill(taken.slug));
      let failure: unknown;
      try {
        await new CreateLink(links, new SequenceIds(), always, clock).execute('dsh_a', anInput());
      } catch (err) {
        failure = err;
      }
      expect(failure).to.be.instanceOf(SlugsExhaustedError);
      expect(always.drawn).to.equal(SLUG_ATTEMPTS);
      expect((await links.list('dsh_a', { page: 1, pageSize: 10 })).total).to.equal(0);
    });
  });

  describe('ListLinks, GetLink, DeleteLink', () => {
    it("lists, reads and deletes the dashboard's links only", async () => {
      const first = await createLink.execute('dsh_a', anInput());
      clock.advance(1);
      const second = await createLink.execute('dsh_a', anInput());
      await createLink.execute('dsh_b', anInput());
      expect(await new ListLinks(links).execute('dsh_a', { page: 1, pageSize: 10 })).to.deep.equal({ links: [second, first], total: 2 });
      expect(await new GetLink(links).execute('dsh_a', first.id)).to.deep.equal(E.right(first));
      expect(await new GetLink(links).execute('dsh_b', first.id)).to.deep.equal(E.left({ _tag: 'LinkNotFound', linkId: first.id }));
      expect(await new DeleteLink(links).execute('dsh_b', first.id)).to.deep.equal(E.left({ _tag: 'LinkNotFound', linkId: first.id }));
      expect(await new DeleteLink(links).execute('dsh_a', first.id)).to.deep.equal(E.right(undefined));
      expect(await new GetLink(links).execute('dsh_a', first.id)).to.deep.equal(E.left({ _tag: 'LinkNotFound', linkId: first.id }));
    });
  });

  describe('FollowShortLink', () => {
    const clicksOf = async (id: string): Promise<O.Option<number>> =>
      O.map((l: { clicks: number }) => l.clicks)(await links.findById('dsh_a', id));

    it("counts the click and leads to the link's URL with the click's parameters, the link's utm_* kept", async () => {
      const link = await createLink.execute('dsh_a', anInput());
      const followed = await new FollowShortLink(links).execute(link.slug, 'fbclid=IwAR1&utm_source=evil', CLICK);
      expect(followed).to.deep.equal(E.right({ location: URL.replace('#top', '&fbclid=IwAR1#top') }));
      expect(await clicksOf(link.id)).to.deep.equal(O.some(1));
    });

    it('without counting, leads to the same place and counts nothing; a click afterwards counts from there', async () => {
      const link = await createLink.execute('dsh_a', anInput());
      const follow = new FollowShortLink(links);
      expect(await follow.execute(link.slug, 'fbclid=IwAR1&utm_source=evil', CHECK)).to.deep.equal(
        E.right({ location: URL.replace('#top', '&fbclid=IwAR1#top') }),
      );
      expect(await follow.execute(link.slug, '', CHECK)).to.deep.equal(E.right({ location: URL }));
      expect(await clicksOf(link.id)).to.deep.equal(O.some(0));
      await follow.execute(link.slug, '', CLICK);
      expect(await clicksOf(link.id)).to.deep.equal(O.some(1));
    });

    for (const [name, options] of [
      ['a click', CLICK],
      ['a request that does not count', CHECK],
    ] as const) {
      it(`answers not found for an unknown slug, and for a deleted link: ${name}`, async () => {
        const link = await createLink.execute('dsh_a', anInput());
        const follow = new FollowShortLink(links);
        expect(await follow.execute('zzzzzzzzzzz', '', options)).to.deep.equal(E.left({ _tag: 'ShortLinkNotFound' }));
        await new DeleteLink(links).execute('dsh_a', link.id);
        expect(await follow.execute(link.slug, '', options)).to.deep.equal(E.left({ _tag: 'ShortLinkNotFound' }));
      });

      it(`answers not found for text that cannot be a slug, without asking the store: ${name}`, async () => {
        const follow = new FollowShortLink(noLookUp(links));
        for (const text of ['', 'short', 'aaaaaaaaaa12', 'aaaaaaaaa-1', 'aaaaaaaaaa\u00e9', '../../admin']) {
          expect(await follow.execute(text, '', options), text).to.deep.equal(E.left({ _tag: 'ShortLinkNotFound' }));
        }
        let failure: unknown;
        await follow.execute('aaaaaaaaaa1', '', options).catch((err: unknown) => (failure = err));
        expect(failure, 'a slug of the right shape is looked up').to.be.instanceOf(Error);
      });
    }
  });
});
