import * as O from 'fp-ts/Option';
import type { Db } from 'mongodb';
import type { LinkPage, LinkPageQuery, LinkRepository } from '../../../application/ports/link-repository';
import type { Logger } from '../../../application/ports/logger';
import type { Link } from '../../../domain/link';
import { linkDocumentCodec, linkFromDocument, linkToDocument, type LinkDocument } from './link-document';
import { guarded, insertUnlessDuplicate } from '../mongo-errors';
import { MongoCollection } from '../mongo-collection';

/** Newest first, the link id breaking ties; the listing index ends with the same two keys. */
const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const;

/**
 * Links in MongoDB, one document per link. The unique slug index decides a collision; a click is one
 * `findOneAndUpdate` that `$inc`s the count and returns the link as it is afterwards, which MongoDB
 * applies to the document atomically: parallel clicks from any number of instances never lose one.
 */
export class MongoLinkRepository implements LinkRepository {
  private readonly links: MongoCollection<LinkDocument>;

  constructor(db: Db, logger: Logger) {
    this.links = new MongoCollection(db, 'links', logger);
  }

  /** Link ids are random and never collide, so the only unique key a new link can hit is its slug. */
  async insert(link: Link): Promise<boolean> {
    return insertUnlessDuplicate(this.links.documents, linkToDocument(link));
  }

  async findById(dashboardId: string, id: string): Promise<O.Option<Link>> {
    const found = await guarded(() => this.links.documents.findOne({ _id: id, dashboardId }));
    return found === null ? O.none : O.some(this.decode(found));
  }

  /** Two reads without a snapshot between them, as for orders: a link made in between may show in one only. */
  async list(dashboardId: string, query: LinkPageQuery): Promise<LinkPage> {
    const [documents, total] = await guarded(() =>
      Promise.all([
        this.links.documents
          .find({ dashboardId })
          .sort(NEWEST_FIRST)
          .skip((query.page - 1) * query.pageSize)
          .limit(query.pageSize)
          .toArray(),
        this.links.documents.countDocuments({ dashboardId }),
      ]),
    );
    return { links: documents.map((document) => this.decode(document)), total };
  }

  async delete(dashboardId: string, id: string): Promise<boolean> {
    const result = await guarded(() => this.links.documents.deleteOne({ _id: id, dashboardId }));
    return result.deletedCount === 1;
  }

  /** Found by the unique slug index; nothing written. */
  async findBySlug(slug: string): Promise<O.Option<Link>> {
    const found = await guarded(() => this.links.documents.findOne({ slug }));
    return found === null ? O.none : O.some(this.decode(found));
  }

  /** One command: found by the unique slug index, incremented and returned in the same write. */
  async recordClick(slug: string): Promise<O.Option<Link>> {
    const clicked = await guarded(() =>
      this.links.documents.findOneAndUpdate({ slug }, { $inc: { clicks: 1 } }, { returnDocument: 'after' }),
    );
    return clicked === null ? O.none : O.some(this.decode(clicked));
  }

  private decode(document: unknown): Link {
    return linkFromDocument(this.links.decode(linkDocumentCodec, document));
  }
}
