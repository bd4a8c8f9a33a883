import type { Storage } from '../../src/application/ports/storage';
import type { PasswordHasher } from '../../src/application/ports/password-hasher';
import { inMemoryStorage } from '../../src/adapters/memory/in-memory-storage';
import type { Config } from '../../src/bootstrap/config';
import { compose } from '../../src/bootstrap/composition';
import type { ServiceOverrides } from '../../src/bootstrap/service';
import { cheapScrypt } from './held-hasher';
import { TestApi } from './test-api';

export const OWNER = { email: 'owner@shop.example', password: 'owner password 123' } as const;

/** A running service with a dashboard, a token and an owner who can sign in to the console. */
export interface ConsoleWorld {
  readonly api: TestApi;
  readonly storage: Storage;
  readonly dashboardId: string;
  readonly token: string;
}

/**
 * Starts the service on `storage` (a new in-memory store by default), hashing passwords with
 * `passwords` (cheap scrypt by default), and makes its first owner as the CLI would.
 */
export const startConsole = async (
  config: Partial<Config> = {},
  passwords: PasswordHasher = cheapScrypt(),
  storage: Storage = inMemoryStorage(),
  overrides: ServiceOverrides = {},
): Promise<ConsoleWorld> => {
  const api = await TestApi.start(config, { storage, passwords, ...overrides });
  const { dashboardId, token } = await api.newDashboard('Console shop');
  const { useCases } = compose({
    storage,
    transitions: {},
    rateLimit: { max: 1000, windowSeconds: 60 },
    idempotency: { ttlMs: 60_000, leaseMs: 10_000 },
    passwords: cheapScrypt(),
  });
  const made = await useCases.createOwner.execute(dashboardId, OWNER.email, OWNER.password);
  if (made._tag !== 'Right') throw new Error(`the owner was not made: ${JSON.stringify(made.left)}`);
  return { api, storage, dashboardId, token };
};

/** The headers a proxy in front adds for a client at `address`. */
export const from = (address: string): Record<string, string> => ({ 'x-forwarded-for': address });
