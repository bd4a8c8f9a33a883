import type { Logger } from '../../../application/ports/logger';
import type { UseCases } from '../../../application/use-cases';

export interface ConsoleDeps {
  readonly useCases: UseCases;
  readonly logger: Logger;
  /** PUBLIC_BASE_URL, else the service's own address: short links, and whether cookies are Secure. */
  readonly publicBaseUrl: () => string;
  /** PUBLIC_BASE_URL as configured, undefined when unset: then the only origin forms are taken from. */
  readonly configuredBaseUrl?: string;
}
