import type { AccountStores } from '../ports/account-repositories';
import type { OpaqueSecrets } from '../ports/password-hasher';

export class SignOut {
  constructor(
    private readonly accounts: AccountStores,
    private readonly secrets: OpaqueSecrets,
  ) {}

  /** Ends the session; an unknown or ended one is no error. */
  async execute(sessionId: string): Promise<void> {
    await this.accounts.sessions.delete(this.secrets.hash(sessionId));
  }
}
