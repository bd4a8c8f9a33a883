import type * as t from 'io-ts';
import type { Collection, Db, Document } from 'mongodb';
import type { Logger } from '../../application/ports/logger';
import { decodeDocument } from './bson-codecs';
import { COLLECTIONS } from './mongo-indexes';

/** One of the service's collections, and the decoding of what is read from it: a corrupt document is logged under the collection's name. */
export class MongoCollection<D extends Document> {
  readonly documents: Collection<D>;
  private readonly name: string;

  constructor(
    db: Db,
    collection: keyof typeof COLLECTIONS,
    private readonly logger: Logger,
  ) {
    this.name = COLLECTIONS[collection];
    this.documents = db.collection<D>(this.name);
  }

  decode<A>(codec: t.Decoder<unknown, A>, raw: unknown): A {
    return decodeDocument(codec, raw, this.name, this.logger);
  }
}
