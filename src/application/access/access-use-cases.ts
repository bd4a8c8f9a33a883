import type { Clock } from '../ports/clock';
import type { DashboardRepository } from '../ports/dashboard-repository';
import type { IdGenerator } from '../ports/id-generator';
import type { TokenRepository } from '../ports/token-repository';
import type { TokenSecrets } from '../ports/token-secrets';
import { AuthenticateToken } from './authenticate-token';
import { CreateDashboard } from './create-dashboard';
import { CreateToken } from './create-token';
import { GetDashboard } from './get-dashboard';
import { ListDashboards } from './list-dashboards';
import { ListTokens } from './list-tokens';
import { RevokeToken } from './revoke-token';
import { UpdateDashboard } from './update-dashboard';

export interface AccessPorts {
  readonly dashboards: DashboardRepository;
  readonly tokens: TokenRepository;
  readonly tokenSecrets: TokenSecrets;
  readonly ids: IdGenerator;
  readonly clock: Clock;
}

export const accessUseCases = ({ dashboards, tokens, tokenSecrets, ids, clock }: AccessPorts) => ({
  authenticateToken: new AuthenticateToken(tokens, tokenSecrets, clock),
  createDashboard: new CreateDashboard(dashboards, ids, clock),
  listDashboards: new ListDashboards(dashboards),
  getDashboard: new GetDashboard(dashboards),
  updateDashboard: new UpdateDashboard(dashboards),
  createToken: new CreateToken(dashboards, tokens, tokenSecrets, ids, clock),
  listTokens: new ListTokens(dashboards, tokens),
  revokeToken: new RevokeToken(tokens, clock),
});

export type AccessUseCases = ReturnType<typeof accessUseCases>;
