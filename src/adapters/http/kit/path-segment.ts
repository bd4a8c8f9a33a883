import * as t from 'io-ts';
import { Documented } from './json-schema';

/**
 * Identifiers of the caller (an order's externalId) name resources in a path, percent-encoded. Two
 * of them cannot be written as they are: every URL resolver removes the segments `.` and `..` (and
 * their encodings `%2E`, `%2E%2E`), so `/api/v1/orders/..` becomes `/api/v1/`. Such a segment, and
 * any made of tildes and then one or two dots, is written with one more leading `~`: `.` is `~.`,
 * `~..` is `~~..`. Every other identifier is its own segment, so clients that only percent-encode
 * keep working for everything but those.
 */
const WRITTEN_WITH_TILDE = /^~*\.{1,2}$/;
const READ_WITHOUT_TILDE = /^~+\.{1,2}$/;

/** The path segment that names `id`: percent-encoded, with a dot segment behind a `~`. */
export const toPathSegment = (id: string): string => encodeURIComponent(WRITTEN_WITH_TILDE.test(id) ? `~${id}` : id);

/**
 * A path parameter that names a caller's identifier: the percent-decoded segment, with the `~` of a
 * dot segment taken off, checked by `codec`, whose longest value may take one more character here.
 */
export const pathIdentifier = <A extends string>(codec: t.Type<A, A, unknown>, maxLength: number, description: string): Documented<A, A> =>
  new Documented<A, A>(
    codec.name,
    codec.is,
    (u, c) => codec.validate(typeof u === 'string' && READ_WITHOUT_TILDE.test(u) ? u.slice(1) : u, c),
    t.identity,
    () => ({
      type: 'string',
      minLength: 1,
      // Only the `~` of a dot segment can take an identifier of the longest length one further.
      anyOf: [
        { type: 'string', maxLength },
        { type: 'string', pattern: READ_WITHOUT_TILDE.source, maxLength: maxLength + 1 },
      ],
      description: `${description} Percent-encoded; \`.\` and \`..\`, which URL resolvers remove from paths, are written \`~.\` and \`~..\` (and an identifier of tildes followed by one or two dots takes one more \`~\`).`,
    }),
  );
