import { isLeft } from 'fp-ts/Either';
import * as t from 'io-ts';
import type { Logger } from '../../application/ports/logger';

/**
 * A document read back does not have the shape this service writes. The message names the
 * collection, the document id and the first bad field; never the document's content.
 */
export class CorruptDocumentError extends Error {
  override readonly name = 'CorruptDocumentError';
}

/**
 * The dotted path of the field an io-ts error points at. Intersections and unions add the index of
 * their member to the context; those are not fields, so they are left out.
 */
const fieldPath = (context: t.Context): string => {
  const keys: string[] = [];
  for (let i = 1; i < context.length; i++) {
    const parent = context[i - 1]?.type;
    if (parent instanceof t.IntersectionType || parent instanceof t.UnionType) continue;
    keys.push(context[i]?.key ?? '?');
  }
  return keys.length === 0 ? '(document)' : keys.join('.');
};

const idOf = (raw: unknown): string => {
  const id = typeof raw === 'object' && raw !== null ? (raw as { _id?: unknown })._id : undefined;
  if (id === undefined) return '(none)';
  // An _id is a string, a number or an ObjectId, whose String() is its hex: the id a reader can look up.
  // eslint-disable-next-line @typescript-eslint/no-base-to-string
  return String(id).slice(0, 100);
};

/**
 * Decodes a document with its codec. A corrupt one is logged (collection, id, field: nothing else)
 * and thrown as `CorruptDocumentError`, which fails the one request that read it.
 */
export const decodeDocument = <A>(codec: t.Decoder<unknown, A>, raw: unknown, collection: string, logger: Logger): A => {
  const decoded = codec.decode(raw);
  if (!isLeft(decoded)) return decoded.right;
  const documentId = idOf(raw);
  const field = decoded.left[0] === undefined ? '(document)' : fieldPath(decoded.left[0].context);
  logger.error('corrupt document in MongoDB', { collection, documentId, field });
  throw new CorruptDocumentError(`${collection} document ${documentId} is corrupt at ${field}`);
};
