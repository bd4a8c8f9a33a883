import type { AuthenticateToken } from './authenticate-token';
import type { CheckRateLimit } from './check-rate-limit';
import type { CreateDashboard } from './create-dashboard';
import type { CreateOrder } from './create-order';
import type { CreateToken } from './create-token';
import type { GetOrder } from './get-order';
import type { IdempotencyGate } from './idempotency-gate';
import type { ListDashboards } from './list-dashboards';
import type { ListOrders } from './list-orders';
import type { ListTokens } from './list-tokens';
import type { RevokeToken } from './revoke-token';
import type { UpdateOrder } from './update-order';

/**
 * Every use case of the service, resolved once by bootstrap and handed to the driving adapters (the
 * HTTP app, the CLI), which never reach into the container themselves.
 */
export interface UseCases {
  readonly authenticateToken: AuthenticateToken;
  readonly checkRateLimit: CheckRateLimit;
  readonly idempotencyGate: IdempotencyGate;
  readonly createOrder: CreateOrder;
  readonly listOrders: ListOrders;
  readonly getOrder: GetOrder;
  readonly updateOrder: UpdateOrder;
  readonly createDashboard: CreateDashboard;
  readonly listDashboards: ListDashboards;
  readonly createToken: CreateToken;
  readonly listTokens: ListTokens;
  readonly revokeToken: RevokeToken;
}
