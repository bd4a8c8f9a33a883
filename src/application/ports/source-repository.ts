import type { Option } from 'fp-ts/Option';
import type { Source } from '../../domain/source';

/**
 * Where sources live. Every method but `findById` is scoped by dashboard: another dashboard's source
 * is never seen. Implementations must agree on everything written here
 * (test/contract/source-repository.contract.ts).
 */
export interface SourceRepository {
  /**
   * Stores a new source unless its dashboard already has `limit`; resolves whether it was stored.
   * Atomic: racing inserts into one dashboard never leave it with more than `limit`.
   */
  insert(source: Source, limit: number): Promise<boolean>;

  /** The source, or `none` when the dashboard has no source with this id. */
  find(dashboardId: string, id: string): Promise<Option<Source>>;

  /** The source with this id, whatever its dashboard: what a platform's delivery names in its URL. */
  findById(id: string): Promise<Option<Source>>;

  /** The dashboard's sources, oldest first (then by id). */
  listByDashboard(dashboardId: string): Promise<readonly Source[]>;

  /**
   * Replaces the stored source when its stored version is still `source.version - 1` (compare-and-set
   * on one record): of racing replaces from one version exactly one resolves true. False, writing
   * nothing, when another write got there first or the source is gone.
   */
  replace(source: Source): Promise<boolean>;

  /** Deletes the source; false when the dashboard had no source with this id. */
  delete(dashboardId: string, id: string): Promise<boolean>;
}
