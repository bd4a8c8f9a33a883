import type { Option } from 'fp-ts/Option';
import type { Link } from '../../domain/link';

export interface LinkPageQuery {
  /** 1-based. */
  readonly page: number;
  readonly pageSize: number;
}

export interface LinkPage {
  readonly links: readonly Link[];
  /** Every link of the dashboard, whatever the page. */
  readonly total: number;
}

/**
 * Where UTM links live (decision 0013). Every method but `findBySlug` and `recordClick` is scoped by dashboard: a
 * link of another dashboard is never seen. Implementations must agree on everything written here
 * (test/contract/link-repository.contract.ts).
 */
export interface LinkRepository {
  /**
   * Stores a new link. Resolves false, storing nothing, when another link has its slug: a unique
   * index decides, so of racing inserts with one slug exactly one resolves true. Ids are made by the
   * service and never collide.
   */
  insert(link: Link): Promise<boolean>;

  /** The dashboard's link with this id, or `none`. */
  findById(dashboardId: string, id: string): Promise<Option<Link>>;

  /** One page, newest first: `createdAt` descending, then `id` descending, so pages are stable. */
  list(dashboardId: string, query: LinkPageQuery): Promise<LinkPage>;

  /**
   * Deletes the dashboard's link with this id; resolves false when it has none (another dashboard's
   * link is left alone). Its slug leads nowhere afterwards.
   */
  delete(dashboardId: string, id: string): Promise<boolean>;

  /**
   * The link with this slug, whatever its dashboard, or `none` when no link has the slug; counts
   * nothing and writes nothing (the redirect answered to a `HEAD`). Costs one look-up on the slug's
   * unique index.
   */
  findBySlug(slug: string): Promise<Option<Link>>;

  /**
   * The redirect: counts one click on the link with this slug and resolves the link as stored right
   * after it (its `clicks` counting this click), or `none` when no link has the slug. The count is one
   * atomic increment: parallel calls never lose a click. (Whether each also resolves a distinct count
   * depends on the store returning the image of its own update: SQLite, memory and MongoDB do,
   * mongo-java-server not always; nothing relies on it.) Costs one look-up by slug, on an index, and
   * the increment; a miss writes nothing.
   */
  recordClick(slug: string): Promise<Option<Link>>;
}
