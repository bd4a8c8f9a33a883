import 'reflect-metadata';
import { parseArgs } from 'node:util';
import * as E from 'fp-ts/Either';
import { dashboardView, revokedTokenView, tokenView } from '../adapters/http/presenters';
import { sinkDestination } from '../adapters/logging/log-destinations';
import { PinoLogger } from '../adapters/logging/pino-logger';
import { loadConfig, type Env } from './config';
import type { UseCases } from '../application/use-cases';
import { compose } from './container';
import { openStorage } from './open-storage';
import type { Storage } from '../application/ports/storage';

export const USAGE = `usage: orders-cli <command>
  dashboards create --name NAME
  dashboards list
  tokens create --dashboard DASHBOARD_ID [--name NAME]
  tokens list --dashboard DASHBOARD_ID
  tokens revoke TOKEN_ID
Reads the same environment as the service (MONGODB_URI, MONGODB_DB). Prints JSON on stdout.`;

export interface CliIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

/**
 * The admin use cases from a shell, over the service's store (DECISIONS D8). Resolves the exit code:
 * 0 done, 1 refused (not found, bad configuration, a store that does not persist), 2 bad usage.
 * `storage` lets tests run it on a store they opened; otherwise the configuration names the store.
 */
export const runCli = async (argv: readonly string[], env: Env, io: CliIo, storage?: Storage): Promise<number> => {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (err) {
    io.err(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
    return 2;
  }
  const loaded = loadConfig(env);
  if (!loaded.ok) {
    for (const problem of loaded.problems) io.err(`invalid configuration: ${problem}`);
    return 1;
  }
  const logger = new PinoLogger('silent', sinkDestination(() => undefined));
  const store = storage ?? (await openStorage(loaded.config, logger));
  try {
    if (!store.persistent) {
      io.err('refused: the embedded store keeps nothing after this command exits; set MONGODB_URI to manage a persistent store');
      return 1;
    }
    const { rateLimitMax, rateLimitWindowSeconds, idempotencyTtlSeconds, idempotencyLeaseSeconds } = loaded.config;
    const { useCases } = compose({
      storage: store,
      logger,
      transitions: {},
      rateLimit: { max: rateLimitMax, windowSeconds: rateLimitWindowSeconds },
      idempotency: { ttlMs: idempotencyTtlSeconds * 1000, leaseMs: idempotencyLeaseSeconds * 1000 },
    });
    return await run(parsed, useCases, io);
  } finally {
    if (storage === undefined) await store.health.close();
  }
};

type Command =
  | { kind: 'dashboards create'; name: string }
  | { kind: 'dashboards list' }
  | { kind: 'tokens create'; dashboardId: string; name?: string }
  | { kind: 'tokens list'; dashboardId: string }
  | { kind: 'tokens revoke'; tokenId: string };

const parse = (argv: readonly string[]): Command => {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: { name: { type: 'string' }, dashboard: { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  const [group, action, ...rest] = positionals;
  const command = `${group ?? ''} ${action ?? ''}`;
  const required = (value: string | undefined, flag: string): string => {
    if (value === undefined || value.trim() === '') throw new Error(`${command} needs ${flag}`);
    return value;
  };
  const noExtra = (): void => {
    if (rest.length > 0) throw new Error(`unexpected argument ${rest[0]}`);
  };
  switch (command) {
    case 'dashboards create':
      noExtra();
      return { kind: command, name: required(values.name, '--name NAME') };
    case 'dashboards list':
      noExtra();
      return { kind: command };
    case 'tokens create':
      noExtra();
      return { kind: command, dashboardId: required(values.dashboard, '--dashboard ID'), name: values.name };
    case 'tokens list':
      noExtra();
      return { kind: command, dashboardId: required(values.dashboard, '--dashboard ID') };
    case 'tokens revoke':
      if (rest.length !== 1) throw new Error('tokens revoke needs exactly one TOKEN_ID');
      return { kind: command, tokenId: rest[0] as string };
    default:
      throw new Error(`unknown command "${command.trim()}"`);
  }
};

const run = async (command: Command, useCases: UseCases, io: CliIo): Promise<number> => {
  const print = (value: unknown): number => {
    io.out(JSON.stringify(value, null, 2));
    return 0;
  };
  const refuse = (message: string): number => {
    io.err(message);
    return 1;
  };
  switch (command.kind) {
    case 'dashboards create':
      return print({ dashboard: dashboardView(await useCases.createDashboard.execute(command.name)) });
    case 'dashboards list':
      return print({ dashboards: (await useCases.listDashboards.execute()).map(dashboardView) });
    case 'tokens create': {
      const issued = await useCases.createToken.execute(command.dashboardId, command.name);
      if (E.isLeft(issued)) return refuse(`no dashboard ${command.dashboardId}`);
      const { token, plain } = issued.right;
      return print({ token: { ...tokenView(token), dashboardId: token.dashboardId, token: plain } });
    }
    case 'tokens list': {
      const tokens = await useCases.listTokens.execute(command.dashboardId);
      if (E.isLeft(tokens)) return refuse(`no dashboard ${command.dashboardId}`);
      return print({ tokens: tokens.right.map(tokenView) });
    }
    case 'tokens revoke': {
      const revoked = await useCases.revokeToken.execute(command.tokenId);
      if (E.isLeft(revoked)) return refuse(`no token ${command.tokenId}`);
      return print({ token: revokedTokenView(revoked.right) });
    }
  }
};

if (require.main === module) {
  runCli(process.argv.slice(2), process.env, {
    out: (line) => process.stdout.write(line + '\n'),
    err: (line) => process.stderr.write(line + '\n'),
  }).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`orders-cli failed: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
