import * as O from 'fp-ts/Option';
import type { Source } from '../../domain/source';
import type { SourceRepository } from '../ports/source-repository';
import { retryOnConflict } from '../shared/retry-on-conflict';

/** Each lost round is another write of the source landing in between; sources are rarely written. */
const MAX_ROUNDS = 20;

/**
 * Applies `change` to the stored source with optimistic concurrency (read, change, compare-and-set on
 * the version, again when outraced). A change that gives the source back unchanged writes nothing.
 * `none` when the dashboard has no such source.
 */
export const changeStoredSource = async (
  sources: SourceRepository,
  dashboardId: string,
  id: string,
  change: (current: Source) => Source,
): Promise<O.Option<Source>> =>
  retryOnConflict<O.Option<Source>>('source', MAX_ROUNDS, async () => {
    const current = await sources.find(dashboardId, id);
    if (O.isNone(current)) return { done: current };
    const changed = change(current.value);
    if (changed.version === current.value.version) return { done: current };
    return (await sources.replace(changed)) ? { done: O.some(changed) } : 'conflict';
  });
