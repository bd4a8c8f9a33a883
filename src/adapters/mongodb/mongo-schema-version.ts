import * as t from 'io-ts';
import type { Db } from 'mongodb';
import type { Logger } from '../../application/ports/logger';
import { bsonCount, bsonDate, decodeDocument } from './bson-codecs';
import { isDuplicateKey } from './mongo-errors';
import { COLLECTIONS } from './mongo-indexes';

/**
 * The layout of the documents this service writes: the collections, the fields and their BSON
 * types. A change that makes existing documents unreadable raises it and brings the migration from
 * the version before. Version 1 is the first recorded; the layout before it (written for FerretDB
 * 1.x, with claim collections and free-form objects as JSON text) was never deployed and is not
 * migrated. A new collection (`links`) is not a change of version: no stored document changes shape.
 */
export const SCHEMA_VERSION = 1;

const SCHEMA_ID = 'schema';

interface SchemaDocument {
  readonly _id: string;
  readonly version: number;
  readonly recordedAt: Date;
}

const schemaDocumentCodec = t.type({ _id: t.string, version: bsonCount, recordedAt: bsonDate });

export class SchemaVersionMismatchError extends Error {
  override readonly name = 'SchemaVersionMismatchError';
}

/**
 * Records `SCHEMA_VERSION` in `meta` on a new database, and refuses a database written in another
 * version: reading it would fail request by request (or worse, misread it). One upsert that inserts
 * only when the document is missing; two instances starting at once may race on it, and the loser's
 * duplicate-key error is answered by reading the winner's document.
 */
export const checkSchemaVersion = async (db: Db, logger: Logger): Promise<void> => {
  const meta = db.collection<SchemaDocument>(COLLECTIONS.meta);
  const record = () =>
    meta.findOneAndUpdate(
      { _id: SCHEMA_ID },
      { $setOnInsert: { version: SCHEMA_VERSION, recordedAt: new Date() } },
      { upsert: true, returnDocument: 'after' },
    );
  const stored = await record().catch((err: unknown) => {
    if (isDuplicateKey(err)) return meta.findOne({ _id: SCHEMA_ID });
    throw err;
  });
  const { version } = decodeDocument(schemaDocumentCodec, stored, COLLECTIONS.meta, logger);
  if (version !== SCHEMA_VERSION) {
    throw new SchemaVersionMismatchError(
      `the database holds documents of schema version ${version}, and this service reads and writes version ${SCHEMA_VERSION}; start the service on a database of its own version`,
    );
  }
};
