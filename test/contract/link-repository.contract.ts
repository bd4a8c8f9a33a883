import { expect } from 'chai';
import * as O from 'fp-ts/Option';
import type { LinkRepository } from '../../src/application/ports/link-repository';
import type { Link } from '../../src/domain/link';

/** A link that uses every field, with awkward values: ms dates, params whose order JSON would not keep. */
const aLink = (id: string, changes: Partial<Link> = {}): Link => ({
  id,
  dashboardId: 'dsh_a',
  slug: `slug${id
    .replace(/[^0-9A-Za-z]/g, '')
    .padStart(7, '0')
    .slice(-7)}`,
  name: 'Black Friday — ação',
  destinationUrl: 'https://bücher.example/p?color=blue#top',
  utmSource: 'facebook',
  utmMedium: 'paid_social',
  utmCampaign: '{{campaign.name}}',
  utmTerm: 'term',
  utmContent: 'content',
  utmId: 'id-1',
  params: [
    { key: 'z', value: 'last letter' },
    { key: '10', value: '' },
    { key: 'a.b-c_d', value: '{{ad.id}}' },
  ],
  url: 'https://xn--bcher-kva.example/p?color=blue&utm_source=facebook#top',
  clicks: 0,
  createdAt: new Date('2026-01-02T03:04:05.678Z'),
  ...changes,
});

/** A link with only the fields every link has. */
const aMinimalLink = (id: string, changes: Partial<Link> = {}): Link => {
  const { name: _name, utmTerm: _term, utmContent: _content, utmId: _id, ...minimal } = aLink(id, { params: [], ...changes });
  return minimal;
};

/** What every LinkRepository must do (src/application/ports/link-repository.ts). */
export const linkRepositoryContract = (adapterName: string, factory: () => Promise<LinkRepository>): void => {
  describe(`LinkRepository contract: ${adapterName}`, () => {
    let links: LinkRepository;

    beforeEach(async () => {
      links = await factory();
    });

    describe('insert and findById', () => {
      it('finds a stored link exactly as it was stored, params in their order', async () => {
        expect(await links.insert(aLink('lnk_1'))).to.equal(true);
        expect(await links.findById('dsh_a', 'lnk_1')).to.deep.equal(O.some(aLink('lnk_1')));
      });

      it('gives back a link without its optional fields without inventing them', async () => {
        await links.insert(aMinimalLink('lnk_1'));
        const found = await links.findById('dsh_a', 'lnk_1');
        expect(found).to.deep.equal(O.some(aMinimalLink('lnk_1')));
        expect(O.isSome(found) && found.value).not.to.have.any.keys('name', 'utmTerm', 'utmContent', 'utmId');
      });

      it("resolves none for an unknown id, and for another dashboard's link", async () => {
        await links.insert(aLink('lnk_1'));
        expect(await links.findById('dsh_a', 'lnk_missing')).to.deep.equal(O.none);
        expect(await links.findById('dsh_b', 'lnk_1')).to.deep.equal(O.none);
      });

      it('refuses a slug already stored, in any dashboard, and stores nothing', async () => {
        await links.insert(aLink('lnk_1'));
        expect(await links.insert(aLink('lnk_2', { dashboardId: 'dsh_b', slug: aLink('lnk_1').slug }))).to.equal(false);
        expect(await links.findById('dsh_b', 'lnk_2')).to.deep.equal(O.none);
        expect((await links.list('dsh_b', { page: 1, pageSize: 10 })).total).to.equal(0);
      });

      // Relies on the unique index on the slug: a read followed by a write would let several win.
      it('lets exactly one of parallel inserts with one slug win', async () => {
        const results = await Promise.all(Array.from({ length: 10 }, (_, i) => links.insert(aLink(`lnk_${i}`, { slug: 'sameSlug001' }))));
        expect(results.filter((inserted) => inserted)).to.have.length(1);
        expect((await links.list('dsh_a', { page: 1, pageSize: 20 })).total).to.equal(1);
      });

      it('does not share a found link with the store', async () => {
        await links.insert(aLink('lnk_1'));
        const found = await links.findById('dsh_a', 'lnk_1');
        if (O.isNone(found)) throw new Error('link not found');
        const scribbled = found.value as unknown as { clicks: number; params: { key: string }[]; createdAt: Date };
        scribbled.clicks = 99;
        scribbled.params[0].key = 'scribbled';
        scribbled.createdAt.setTime(0);
        expect(await links.findById('dsh_a', 'lnk_1')).to.deep.equal(O.some(aLink('lnk_1')));
      });
    });

    describe('list', () => {
      it("pages the dashboard's links newest first, then by id descending, with the total", async () => {
        const same = new Date('2026-01-05T00:00:00.000Z');
        const inserted = [
          aLink('lnk_b', { createdAt: same }),
          aLink('lnk_late', { createdAt: new Date('2026-01-05T00:00:00.001Z') }),
          aLink('lnk_A', { createdAt: same }),
          aLink('lnk_other', { dashboardId: 'dsh_b', createdAt: new Date('2026-01-09T00:00:00.000Z') }),
          aLink('lnk_a', { createdAt: same }),
          aLink('lnk_early', { createdAt: new Date('2026-01-04T23:59:59.999Z') }),
        ];
        for (const link of inserted) expect(await links.insert(link)).to.equal(true);
        const first = await links.list('dsh_a', { page: 1, pageSize: 3 });
        expect(first.links.map((link) => link.id)).to.deep.equal(['lnk_late', 'lnk_b', 'lnk_a']);
        expect(first.total).to.equal(5);
        expect(first.links[0]).to.deep.equal(aLink('lnk_late', { createdAt: new Date('2026-01-05T00:00:00.001Z') }));
        const second = await links.list('dsh_a', { page: 2, pageSize: 3 });
        expect(second.links.map((link) => link.id)).to.deep.equal(['lnk_A', 'lnk_early']);
        expect(second.total).to.equal(5);
      });

      it('answers a page past the end with no links and the real total', async () => {
        await links.insert(aLink('lnk_1'));
        expect(await links.list('dsh_a', { page: 3, pageSize: 1 })).to.deep.equal({ links: [], total: 1 });
        expect(await links.list('dsh_empty', { page: 1, pageSize: 20 })).to.deep.equal({ links: [], total: 0 });
      });
    });

    describe('delete', () => {
      it("deletes the dashboard's link: not found, not listed, and its slug leads nowhere", async () => {
        await links.insert(aLink('lnk_1'));
        await links.insert(aLink('lnk_2'));
        expect(await links.delete('dsh_a', 'lnk_1')).to.equal(true);
        expect(await links.findById('dsh_a', 'lnk_1')).to.deep.equal(O.none);
        expect(await links.recordClick(aLink('lnk_1').slug)).to.deep.equal(O.none);
        expect((await links.list('dsh_a', { page: 1, pageSize: 20 })).links.map((link) => link.id)).to.deep.equal(['lnk_2']);
        expect(await links.delete('dsh_a', 'lnk_1')).to.equal(false);
      });

      it("leaves another dashboard's link alone, and resolves false for an unknown one", async () => {
        await links.insert(aLink('lnk_1'));
        expect(await links.delete('dsh_b', 'lnk_1')).to.equal(false);
        expect(await links.delete('dsh_a', 'lnk_missing')).to.equal(false);
        expect(await links.findById('dsh_a', 'lnk_1')).to.deep.equal(O.some(aLink('lnk_1')));
      });
    });

    describe('findBySlug', () => {
      it('finds the link of a slug, whatever its dashboard, with its current clicks', async () => {
        await links.insert(aLink('lnk_1', { dashboardId: 'dsh_b' }));
        await links.recordClick(aLink('lnk_1').slug);
        expect(await links.findBySlug(aLink('lnk_1').slug)).to.deep.equal(O.some(aLink('lnk_1', { dashboardId: 'dsh_b', clicks: 1 })));
      });

      it('resolves none for a slug no link has, and for the slug of a deleted link', async () => {
        await links.insert(aLink('lnk_1'));
        expect(await links.findBySlug('unknownSlug')).to.deep.equal(O.none);
        await links.delete('dsh_a', 'lnk_1');
        expect(await links.findBySlug(aLink('lnk_1').slug)).to.deep.equal(O.none);
      });

      it('counts nothing: after several look-ups a click still counts from the stored number', async () => {
        await links.insert(aLink('lnk_1'));
        await links.recordClick(aLink('lnk_1').slug);
        for (let i = 0; i < 3; i++) {
          expect(await links.findBySlug(aLink('lnk_1').slug)).to.deep.equal(O.some(aLink('lnk_1', { clicks: 1 })));
        }
        expect(await links.findById('dsh_a', 'lnk_1')).to.deep.equal(O.some(aLink('lnk_1', { clicks: 1 })));
        expect(await links.recordClick(aLink('lnk_1').slug)).to.deep.equal(O.some(aLink('lnk_1', { clicks: 2 })));
      });

      it('does not share a found link with the store', async () => {
        await links.insert(aLink('lnk_1'));
        const found = await links.findBySlug(aLink('lnk_1').slug);
        if (O.isNone(found)) throw new Error('link not found');
        (found.value as unknown as { clicks: number }).clicks = 99;
        expect(await links.findBySlug(aLink('lnk_1').slug)).to.deep.equal(O.some(aLink('lnk_1')));
      });
    });

    describe('recordClick', () => {
      it('counts a click and resolves the link as stored after it', async () => {
        await links.insert(aLink('lnk_1'));
        expect(await links.recordClick(aLink('lnk_1').slug)).to.deep.equal(O.some(aLink('lnk_1', { clicks: 1 })));
        expect(await links.recordClick(aLink('lnk_1').slug)).to.deep.equal(O.some(aLink('lnk_1', { clicks: 2 })));
        expect(await links.findById('dsh_a', 'lnk_1')).to.deep.equal(O.some(aLink('lnk_1', { clicks: 2 })));
      });

      it('resolves none for a slug no link has, and counts nothing anywhere', async () => {
        await links.insert(aLink('lnk_1'));
        expect(await links.recordClick('unknownSlug')).to.deep.equal(O.none);
        expect(await links.findById('dsh_a', 'lnk_1')).to.deep.equal(O.some(aLink('lnk_1')));
      });

      it('counts on the link of the slug only', async () => {
        await links.insert(aLink('lnk_1'));
        await links.insert(aLink('lnk_2'));
        await links.recordClick(aLink('lnk_2').slug);
        expect(O.map((link: Link) => link.clicks)(await links.findById('dsh_a', 'lnk_1'))).to.deep.equal(O.some(0));
      });

      // Relies on an atomic increment: where the count is read and written apart, parallel clicks
      // lose increments and share counts.
      it('loses no click under hundreds of parallel clicks (atomic increment), each answered with a count that includes it', async () => {
        await links.insert(aLink('lnk_1'));
        const clicks = 300;
        const results = await Promise.all(Array.from({ length: clicks }, () => links.recordClick(aLink('lnk_1').slug)));
        const counts = results.map((result) => (O.isSome(result) ? result.value.clicks : 0));
        expect(Math.min(...counts)).to.be.at.least(1);
        expect(Math.max(...counts)).to.equal(clicks);
        expect(O.map((link: Link) => link.clicks)(await links.findById('dsh_a', 'lnk_1'))).to.deep.equal(O.some(clicks));
      });
    });
  });
};
