import * as O from 'fp-ts/Option';
import { retryOnConflict } from './retry-on-conflict';

/** A record kept by dashboard and changed by compare-and-set on its version (webhook endpoints, sources). */
export interface VersionedStore<R extends { readonly version: number }> {
  find(dashboardId: string, id: string): Promise<O.Option<R>>;
  replace(record: R): Promise<boolean>;
}

/** Each lost round is another write of the record landing in between; these records are rarely written. */
const MAX_ROUNDS = 20;

/**
 * Applies `change` to the stored record with optimistic concurrency: read, change, compare-and-set on
 * the version, again when another write got there first. A change that returns the record unchanged
 * (same version) writes nothing. `none` when the dashboard has no such record.
 */
export const changeStored = async <R extends { readonly version: number }>(
  what: string,
  store: VersionedStore<R>,
  dashboardId: string,
  id: string,
  change: (current: R) => R,
): Promise<O.Option<R>> =>
  retryOnConflict<O.Option<R>>(what, MAX_ROUNDS, async () => {
    const current = await store.find(dashboardId, id);
    if (O.isNone(current)) return { done: current };
    const changed = change(current.value);
    if (changed.version === current.value.version) return { done: current };
    return (await store.replace(changed)) ? { done: O.some(changed) } : 'conflict';
  });
