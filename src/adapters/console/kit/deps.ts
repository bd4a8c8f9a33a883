import type { Logger } from '../../../application/ports/logger';
import type { UseCases } from '../../../application/use-cases';
import type { DashboardShares } from '../../system/dashboard-shares';
import type { HeavyRequestTurns } from '../../system/heavy-request-turns';

export interface ConsoleDeps {
  readonly useCases: UseCases;
  readonly logger: Logger;
  /** PUBLIC_BASE_URL, else the service's own address: short links, and whether cookies are Secure. */
  readonly publicBaseUrl: () => string;
  /** PUBLIC_BASE_URL as configured, undefined when unset: then the only origin forms are taken from. */
  readonly configuredBaseUrl?: string;
  /** The turns of each dashboard's heavy requests, shared with the API (decision 0023). */
  readonly heavyTurns: HeavyRequestTurns;
  /** Each dashboard's share of the requests in progress, shared with the API. */
  readonly shares: DashboardShares;
}
