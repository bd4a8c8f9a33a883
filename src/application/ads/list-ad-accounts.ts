import type { AdAccount } from '../../domain/ad-account';
import type { AdAccountRepository } from '../ports/ad-account-repository';

export class ListAdAccounts {
  constructor(private readonly accounts: AdAccountRepository) {}

  execute(dashboardId: string): Promise<readonly AdAccount[]> {
    return this.accounts.listByDashboard(dashboardId);
  }
}
