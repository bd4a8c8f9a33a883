import type { Option } from 'fp-ts/Option';
import type { Dashboard } from '../../domain/dashboard';

/** Where dashboards live. Dashboards are never deleted. */
export interface DashboardRepository {
  /** Stores a new dashboard; ids are made by the service and never collide. */
  insert(dashboard: Dashboard): Promise<void>;
  /** Stores the dashboard's new name, time zone and tax rate; the last write wins. Resolves false when there is no such dashboard. */
  update(dashboard: Dashboard): Promise<boolean>;
  /** The dashboard, or `none`. */
  findById(id: string): Promise<Option<Dashboard>>;
  /** Every dashboard, oldest first (then by id). */
  list(): Promise<readonly Dashboard[]>;
}
