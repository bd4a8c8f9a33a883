/**
 * Opaque cursors (decision 0019): where a listing stands and the filters it was asked with, as
 * base64url JSON behind a version number. A client passes them back untouched; what it makes up is
 * refused by the route that reads it.
 */
export const encodeCursor = (values: readonly (string | number)[]): string =>
  Buffer.from(JSON.stringify([1, ...values]), 'utf8').toString('base64url');

/** The values of a cursor this service could have made, or undefined. */
export const decodeCursor = (cursor: string): readonly unknown[] | undefined => {
  let parsed: unknown;
  try {
    parsed = /^[A-Za-z0-9_-]+$/.test(cursor) ? JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) : undefined;
  } catch {
    parsed = undefined;
  }
  return Array.isArray(parsed) && parsed[0] === 1 ? parsed.slice(1) : undefined;
};

export const NOT_A_CURSOR = 'must be a nextCursor this service gave';
