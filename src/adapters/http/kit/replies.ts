import * as E from 'fp-ts/Either';

/**
 * What a handler folds its use case's result into, mapped over the Either so that the use case's
 * errors go on to the error table untouched.
 */

/** `status`, with the body made of the result. */
export const reply = <const S extends number, A, B>(status: S, bodyOf: (result: A) => B) =>
  E.map((result: A) => ({ status, body: bodyOf(result) }));

/** 204: done, nothing to show. */
export const noContent = E.map(() => ({ status: 204 as const, body: undefined }));

/** The path of a resource made under `collection`: the collection's path, then its id as one segment. */
export const locationOf = (collection: string, id: string): string => `${collection}/${encodeURIComponent(id)}`;

/** 201 for a resource made under `collection`, `Location` its path. */
export const created = <A extends { readonly id: string }, B>(collection: string, bodyOf: (made: A) => B) =>
  E.map((made: A) => ({ status: 201 as const, headers: { Location: locationOf(collection, made.id) }, body: bodyOf(made) }));
