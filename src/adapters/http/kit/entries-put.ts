import type * as t from 'io-ts';
import { arrayOf, int, objectValues, strictObject, type StrictObject } from './codec-kit';
import { described } from './json-schema';
import { valuesFor, type BodyValues } from './well-formed';

/**
 * A PUT that sets a batch of entries (spend, product costs), each replacing what is stored under
 * its key: the request of 1 to `max` entries, every one checked before any is stored; the answer,
 * how many were stored; and the count of JSON values its body may reach, that of the body at its
 * limits (the body, its array, and `max` entries of an object and its fields).
 */
export const entriesPut = <R extends Record<string, t.Mixed>, O extends Record<string, t.Mixed>>(
  name: string,
  entry: StrictObject<R, O>,
  max: number,
) => ({
  body: strictObject(`${name}Request`, {
    entries: described(arrayOf(entry, 1, max), `1 to ${max} entries; all are checked first, and none is stored if one is wrong.`),
  }),
  bodyValues: { values: valuesFor(2 + max * objectValues(entry)) } satisfies BodyValues,
  response: strictObject(`${name}Response`, { upserted: int(0, max) }),
});
