// First: an older Node stops here with one line, before a native module can crash it.
import './node-preflight';
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import type { AccountError } from '../application/accounts/account-errors';
import { ROLES, type Invitation, type Role, type User } from '../domain/account';
import { parseArgs } from 'node:util';
import * as E from 'fp-ts/Either';
import type { Storage } from '../application/ports/storage';
import type { UseCases } from '../application/use-cases';
import { dashboardView, issuedTokenView, revokedTokenView, tokenView } from '../adapters/http/access/access-presenters';
import { sinkDestination } from '../adapters/logging/log-destinations';
import { PinoLogger } from '../adapters/logging/pino-logger';
import { backupSqliteFile } from '../adapters/sqlite/sqlite-backup';
import { loadConfig, type Config, type Env } from './config';
import { compose, configuredWiring } from './composition';
import { openStorage } from './open-storage';
import { parseSpendCsv, SPEND_CSV_MAX_BYTES } from '../application/spend/spend-csv';
import { parseCostsCsv } from '../application/costs/costs-csv';
import { CSV_MAX_BYTES, linesOf, type CsvRead, type CsvRefusal } from '../application/shared/csv-file';
import { UploadInterrupted, UPLOAD_SLICE_ROWS, type Rows } from '../application/shared/sliced-upload';
import { utf8Lines } from '../application/shared/utf8-lines';
import { describeErrors } from '../adapters/http/kit/codec-kit';
import { dateTimeProblem, parseIsoInstant } from '../adapters/http/kit/dates';
import { MAX_BATCH_ORDERS } from '../adapters/http/orders/batch-routes';
import { CreateOrderBody } from '../adapters/http/orders/order-codecs';
import { isScope, SCOPES, type Scope } from '../domain/scope';
import { isTimeZone } from '../domain/time-zone';
import { isTaxRate, MAX_TAX_RATE } from '../domain/tax-rate';
import {
  isSourceSecret,
  MAX_SOURCE_NAME_LENGTH,
  MAX_SOURCE_SECRET_LENGTH,
  SOURCE_PLATFORMS,
  sourceUrl,
  type Source,
  type SourcePlatformName,
} from '../domain/source';

export const USAGE = `usage: orders-cli <command>
  dashboards create --name NAME [--timezone ZONE]
  dashboards update DASHBOARD_ID [--name NAME] [--timezone ZONE] [--tax-rate PERCENT]
                              the tax rate: percent of paid revenue, 0 to 100, at most 2 decimals
  dashboards list
  tokens create --dashboard DASHBOARD_ID [--name NAME] [--scopes SCOPE,...] [--expires-at INSTANT]
                              scopes: ${SCOPES.join(', ')} (all by default);
                              a checkout's token: --scopes orders:write
  tokens list --dashboard DASHBOARD_ID
  tokens revoke TOKEN_ID
  spend import --dashboard DASHBOARD_ID --file FILE.csv
                              date,utm_source,utm_medium,utm_campaign,utm_content,currency,amount
                              (amount in currency units, such as 1234.50); every line is checked,
                              nothing is imported when one is wrong
  costs import --dashboard DASHBOARD_ID --file FILE.csv
                              product,currency,unit_cost,from (unit_cost in currency units, from a
                              day YYYY-MM-DD); every line is checked, nothing is imported when one
                              is wrong
                              Both: names in any case and order, separated by , or by ; (then
                              12,50 is taken too); stored ${UPLOAD_SLICE_ROWS} lines at a time, and a failed
                              import run again completes what it stored
  orders import --dashboard DASHBOARD_ID --file FILE.jsonl
                              one order per line, as POST /api/v1/orders takes it, created 500
                              at a time (the batch path); a progress line on stderr, then a
                              summary: created, duplicates, invalid lines with their numbers
  users create-owner --email EMAIL --dashboard DASHBOARD_ID
                              a new user, owner of the dashboard in the console; refused for an
                              email that has an account (invite it: invitations create)
  users reset-password --email EMAIL
                              sets a new password and ends the user's sessions
  users remove-member --email EMAIL --dashboard DASHBOARD_ID
                              ends the user's membership of the dashboard (their sessions go on
                              for their other dashboards); never the dashboard's last owner
  users list                  every user with their memberships (never a password hash)
                              A new password is taken from ORDERS_PASSWORD (12 to 128 characters);
                              without it one is generated and printed this once.
  invitations create --dashboard DASHBOARD_ID --email EMAIL --role owner|analyst
                              prints a one-time invitation link, valid 7 days, for the operator to
                              send to that person; an existing account accepts it signed in as
                              itself or with its password
  invitations list --dashboard DASHBOARD_ID
                              the pending invitations (neither accepted nor expired), newest first
  invitations revoke INVITATION_ID
                              its link then answers as an unknown one (an accepted one stays)
  sources create --dashboard DASHBOARD_ID --platform PLATFORM --name NAME
                              a source for ${SOURCE_PLATFORMS.join(', ')}: the platform's secret is
                              taken from SOURCE_SECRET (never an argument, which other users of the
                              machine can read); prints the URL to paste into the platform
                              (PUBLIC_BASE_URL + /in/v1/ + its id; the path alone without it)
  sources list --dashboard DASHBOARD_ID
                              the dashboard's sources, oldest first, never a secret
  sources delete SOURCE_ID --dashboard DASHBOARD_ID
                              its URL answers 404 from then on; the orders it made stay
  reports rebuild             recomputes the report totals from the orders
  backup --to FILE            a consistent copy of the SQLite file, taken while the service runs
  help                        this text
Works on the service's store, read from the same environment (SQLITE_PATH, STORE, MONGODB_URI,
MONGODB_DB), while the service runs. Prints JSON on stdout; errors as JSON on stderr, with exit code
1 (refused: not found, bad configuration, a store that keeps nothing) or 2 (bad usage).`;

export interface CliIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

type Command =
  | { kind: 'help' }
  | { kind: 'dashboards create'; name: string; timezone?: string }
  | { kind: 'dashboards update'; dashboardId: string; name?: string; timezone?: string; taxRate?: number }
  | { kind: 'spend import'; dashboardId: string; file: string }
  | { kind: 'costs import'; dashboardId: string; file: string }
  | { kind: 'orders import'; dashboardId: string; file: string }
  | { kind: 'users create-owner'; email: string; dashboardId: string; password?: string }
  | { kind: 'users reset-password'; email: string; password?: string }
  | { kind: 'users list' }
  | { kind: 'users remove-member'; email: string; dashboardId: string }
  | { kind: 'invitations create'; dashboardId: string; email: string; role: Role }
  | { kind: 'invitations list'; dashboardId: string }
  | { kind: 'invitations revoke'; invitationId: string }
  | { kind: 'reports rebuild' }
  | { kind: 'dashboards list' }
  | { kind: 'tokens create'; dashboardId: string; name?: string; scopes?: Scope[]; expiresAt?: Date }
  | { kind: 'tokens list'; dashboardId: string }
  | { kind: 'tokens revoke'; tokenId: string }
  | { kind: 'sources create'; dashboardId: string; platform: SourcePlatformName; name: string; secret?: string }
  | { kind: 'sources list'; dashboardId: string }
  | { kind: 'sources delete'; dashboardId: string; sourceId: string }
  | { kind: 'backup'; to: string };

/** An error the CLI reports as `{ "error": { code, message } }` on stderr. */
class CliError extends Error {
  constructor(
    readonly code: 'USAGE' | 'INVALID_CONFIGURATION' | 'NOT_FOUND' | 'REFUSED' | 'FAILED',
    message: string,
    readonly exitCode: 1 | 2 = code === 'USAGE' ? 2 : 1,
  ) {
    super(message);
  }
}

/**
 * The admin use cases from a shell, over the service's store (decision 0008), and the backup of the
 * SQLite file. Resolves the exit code: 0 done, 1 refused, 2 bad usage. `storage` lets tests run it
 * on a store they opened; otherwise the configuration names the store.
 */
export const runCli = async (argv: readonly string[], env: Env, io: CliIo, storage?: Storage): Promise<number> => {
  const fail = (error: CliError): number => {
    io.err(JSON.stringify({ error: { code: error.code, message: error.message, ...(error.code === 'USAGE' ? { usage: USAGE } : {}) } }));
    return error.exitCode;
  };
  try {
    const command = parse(argv);
    if (command.kind === 'help') {
      io.out(USAGE);
      return 0;
    }
    const loaded = loadConfig(env);
    if (!loaded.ok) throw new CliError('INVALID_CONFIGURATION', loaded.problems.join('; '));
    if (command.kind === 'backup') return print(io, { backup: await backup(loaded.config, command.to) });
    if (command.kind === 'reports rebuild')
      return await onStore(loaded.config, storage, async (_useCases, store) => {
        await store.reports.rebuild();
        return print(io, { reports: { rebuilt: true, store: store.description } });
      });
    if (command.kind === 'sources create' || command.kind === 'sources list' || command.kind === 'sources delete') {
      const withSecret = command.kind === 'sources create' ? { ...command, secret: sourceSecretOf(env) } : command;
      return await onStore(loaded.config, storage, (useCases) => runSources(withSecret, useCases, loaded.config.publicBaseUrl, io));
    }
    const withPassword =
      command.kind === 'users create-owner' || command.kind === 'users reset-password'
        ? { ...command, ...(env['ORDERS_PASSWORD'] === undefined ? {} : { password: env['ORDERS_PASSWORD'] }) }
        : command;
    return await onStore(loaded.config, storage, (useCases) => run(withPassword, useCases, io, loaded.config.publicBaseUrl));
  } catch (err) {
    return fail(err instanceof CliError ? err : new CliError('FAILED', err instanceof Error ? err.message : String(err)));
  }
};

/** 24 random base64url characters (144 bits): shown once, for the user to change in the console. */
const generatedPassword = (): string => randomBytes(18).toString('base64url');

const userView = (user: User) => ({ id: user.id, email: user.email, createdAt: user.createdAt.toISOString() });

const invitationView = (invitation: Invitation) => ({
  id: invitation.id,
  dashboardId: invitation.dashboardId,
  email: invitation.email,
  role: invitation.role,
  invitedBy: invitation.invitedBy,
  createdAt: invitation.createdAt.toISOString(),
  expiresAt: invitation.expiresAt.toISOString(),
});

const accountFailure = (error: AccountError): CliError => {
  switch (error._tag) {
    case 'DashboardNotFound':
      return new CliError('NOT_FOUND', `no dashboard ${error.dashboardId}`);
    case 'UserNotFound':
      return new CliError('NOT_FOUND', `no user with the email ${error.email}`);
    case 'InvalidEmail':
      return new CliError('USAGE', `--email ${error.email} is not an email address`);
    case 'PasswordRejected':
      return new CliError('REFUSED', `ORDERS_PASSWORD ${error.reason}`);
    case 'MemberNotFound':
      return new CliError('NOT_FOUND', `${error.member} is not a member of dashboard ${error.dashboardId}`);
    case 'LastOwner':
      return new CliError(
        'REFUSED',
        `the last owner of dashboard ${error.dashboardId} cannot be removed: make another owner first (invitations create --role owner)`,
      );
    case 'InvitationNotFound':
      return new CliError('NOT_FOUND', `no pending invitation ${error.invitationId}`);
    default:
      return new CliError('REFUSED', error._tag);
  }
};

const print = (io: CliIo, value: unknown): number => {
  io.out(JSON.stringify(value, null, 2));
  return 0;
};

const onStore = async (
  config: Config,
  given: Storage | undefined,
  work: (useCases: UseCases, store: Storage) => Promise<number>,
): Promise<number> => {
  const logger = new PinoLogger(
    'silent',
    sinkDestination(() => undefined),
  );
  const store = given ?? (await openStorage(config, logger));
  try {
    if (!store.persistent) {
      throw new CliError(
        'REFUSED',
        'the in-memory store (STORE=memory) keeps nothing after this command exits; unset STORE to use the SQLite file',
      );
    }
    const { useCases } = compose({ ...configuredWiring(config), storage: store });
    return await work(useCases, store);
  } finally {
    if (given === undefined) await store.health.close();
  }
};

const backup = async (config: Config, to: string) => {
  if (config.store !== 'sqlite') {
    throw new CliError(
      'REFUSED',
      `backup copies the SQLite file; this configuration uses the ${config.store} store (for MongoDB, use mongodump)`,
    );
  }
  const made = await backupSqliteFile(config.sqlitePath, to);
  return { from: config.sqlitePath, file: made.file, bytes: made.bytes };
};

/** `--scopes orders:write,reports:read`: known scopes, each once. */
const scopesOption = (value: string): Scope[] => {
  const parts = value.split(',').map((part) => part.trim());
  const unknown = parts.filter((part) => !isScope(part));
  if (unknown.length > 0) throw new CliError('USAGE', `--scopes: unknown scope ${unknown.join(', ')}; the scopes are ${SCOPES.join(', ')}`);
  if (new Set(parts).size !== parts.length) throw new CliError('USAGE', '--scopes names a scope twice');
  return parts as Scope[];
};

/** `--tax-rate 7.25`: decimal text, read as the API reads the JSON number (never `0x10` nor `1e1`). */
const taxRateOption = (value: string): number => {
  const rate = /^\d{1,3}(?:\.\d{1,2})?$/.test(value) ? Number(value) : undefined;
  if (rate === undefined || !isTaxRate(rate))
    throw new CliError('USAGE', `--tax-rate ${value} must be a number from 0 to ${MAX_TAX_RATE} with at most 2 decimals, such as 7.25`);
  return rate;
};

/** `--expires-at 2027-01-01T00:00:00Z`: an instant with its offset, in the future, read as the API reads it. */
const expiryOption = (value: string): Date => {
  const at = parseIsoInstant(value);
  if (at === undefined) throw new CliError('USAGE', `--expires-at ${value} ${dateTimeProblem(value)}`);
  if (at.getTime() <= Date.now()) throw new CliError('USAGE', `--expires-at ${value} is not in the future`);
  return at;
};

const OPTIONS = {
  name: { type: 'string' },
  scopes: { type: 'string' },
  'expires-at': { type: 'string' },
  timezone: { type: 'string' },
  'tax-rate': { type: 'string' },
  platform: { type: 'string' },
  file: { type: 'string' },
  dashboard: { type: 'string' },
  email: { type: 'string' },
  role: { type: 'string' },
  to: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const readArgs = (argv: readonly string[]) => {
  try {
    return parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    throw new CliError('USAGE', err instanceof Error ? err.message : String(err));
  }
};

const parse = (argv: readonly string[]): Command => {
  const parsed = readArgs(argv);
  const { values, positionals } = parsed;
  if (values.help === true || positionals[0] === 'help') return { kind: 'help' };
  const [group, action, ...rest] = positionals;
  const command = group === 'backup' ? 'backup' : `${group ?? ''} ${action ?? ''}`;
  const required = (value: string | undefined, flag: string): string => {
    if (value === undefined || value.trim() === '') throw new CliError('USAGE', `${command} needs ${flag}`);
    return value;
  };
  const noExtra = (extra: readonly string[] = rest): void => {
    if (extra.length > 0) throw new CliError('USAGE', `unexpected argument ${extra[0]}`);
  };
  switch (command) {
    case 'dashboards create':
      noExtra();
      return { kind: command, name: required(values.name, '--name NAME'), ...zoneOf(values.timezone) };
    case 'dashboards update':
      if (rest.length !== 1) throw new CliError('USAGE', 'dashboards update needs exactly one DASHBOARD_ID');
      if (values.name === undefined && values.timezone === undefined && values['tax-rate'] === undefined)
        throw new CliError('USAGE', 'dashboards update needs --name, --timezone or --tax-rate');
      return {
        kind: command,
        dashboardId: rest[0],
        ...(values.name === undefined ? {} : { name: required(values.name, '--name NAME') }),
        ...zoneOf(values.timezone),
        ...(values['tax-rate'] === undefined ? {} : { taxRate: taxRateOption(values['tax-rate']) }),
      };
    case 'spend import':
    case 'costs import':
      noExtra();
      return { kind: command, dashboardId: required(values.dashboard, '--dashboard ID'), file: required(values.file, '--file FILE') };
    case 'reports rebuild':
      noExtra();
      return { kind: command };
    case 'dashboards list':
      noExtra();
      return { kind: command };
    case 'tokens create':
      noExtra();
      return {
        kind: command,
        dashboardId: required(values.dashboard, '--dashboard ID'),
        name: values.name,
        ...(values.scopes === undefined ? {} : { scopes: scopesOption(values.scopes) }),
        ...(values['expires-at'] === undefined ? {} : { expiresAt: expiryOption(values['expires-at']) }),
      };
    case 'tokens list':
      noExtra();
      return { kind: command, dashboardId: required(values.dashboard, '--dashboard ID') };
    case 'orders import':
      noExtra();
      return { kind: command, dashboardId: required(values.dashboard, '--dashboard ID'), file: required(values.file, '--file FILE') };
    case 'users create-owner':
      noExtra();
      return { kind: command, email: required(values.email, '--email EMAIL'), dashboardId: required(values.dashboard, '--dashboard ID') };
    case 'users reset-password':
      noExtra();
      return { kind: command, email: required(values.email, '--email EMAIL') };
    case 'users list':
      noExtra();
      return { kind: command };
    case 'users remove-member':
      noExtra();
      return { kind: command, email: required(values.email, '--email EMAIL'), dashboardId: required(values.dashboard, '--dashboard ID') };
    case 'invitations create': {
      noExtra();
      const role = required(values.role, '--role owner|analyst');
      if (!(ROLES as readonly string[]).includes(role)) throw new CliError('USAGE', `--role ${role} is not one of ${ROLES.join(', ')}`);
      return {
        kind: command,
        dashboardId: required(values.dashboard, '--dashboard ID'),
        email: required(values.email, '--email EMAIL'),
        role: role as Role,
      };
    }
    case 'invitations list':
      noExtra();
      return { kind: command, dashboardId: required(values.dashboard, '--dashboard ID') };
    case 'invitations revoke':
      if (rest.length !== 1) throw new CliError('USAGE', 'invitations revoke needs exactly one INVITATION_ID');
      return { kind: command, invitationId: rest[0] };
    case 'tokens revoke':
      if (rest.length !== 1) throw new CliError('USAGE', 'tokens revoke needs exactly one TOKEN_ID');
      return { kind: command, tokenId: rest[0] };
    case 'sources create': {
      noExtra();
      const platform = required(values.platform, '--platform PLATFORM');
      if (!(SOURCE_PLATFORMS as readonly string[]).includes(platform))
        throw new CliError('USAGE', `--platform ${platform} is not one of ${SOURCE_PLATFORMS.join(', ')}`);
      const name = required(values.name, '--name NAME').trim();
      if (name.length > MAX_SOURCE_NAME_LENGTH) throw new CliError('USAGE', `--name is longer than ${MAX_SOURCE_NAME_LENGTH} characters`);
      return { kind: command, dashboardId: required(values.dashboard, '--dashboard ID'), platform: platform as SourcePlatformName, name };
    }
    case 'sources list':
      noExtra();
      return { kind: command, dashboardId: required(values.dashboard, '--dashboard ID') };
    case 'sources delete':
      if (rest.length !== 1) throw new CliError('USAGE', 'sources delete needs exactly one SOURCE_ID');
      return { kind: command, dashboardId: required(values.dashboard, '--dashboard ID'), sourceId: rest[0] };
    case 'backup':
      noExtra(positionals.slice(1));
      return { kind: command, to: required(values.to, '--to FILE') };
    default:
      throw new CliError('USAGE', command.trim() === '' ? 'a command is needed' : `unknown command "${command.trim()}"`);
  }
};

const zoneOf = (timezone: string | undefined): { timezone?: string } => {
  if (timezone === undefined) return {};
  if (!isTimeZone(timezone)) throw new CliError('USAGE', `--timezone ${timezone} is not an IANA time zone, such as America/Sao_Paulo`);
  return { timezone };
};

/** Refuses a dashboard id that names none, before a command says less precisely that nothing is there. */
const knownDashboard = async (dashboardId: string, useCases: UseCases): Promise<void> => {
  if (E.isLeft(await useCases.getDashboard.execute(dashboardId))) throw new CliError('NOT_FOUND', `no dashboard ${dashboardId}`);
};

/** A file the command was given, as bytes; one that cannot be read, or is larger than `maxBytes`, is refused, naming it. */
const readInput = async (file: string, maxBytes = Infinity): Promise<Uint8Array> => {
  try {
    if ((await stat(file)).size > maxBytes) throw new CliError('REFUSED', `${file} is larger than ${maxBytes} bytes: split it`);
    return await readFile(file);
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError('REFUSED', `cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'unknown'})`);
  }
};

/**
 * The entries of a CSV for a known dashboard, every line checked first; undefined, with every
 * problem on stderr, when one is wrong (nothing is then imported).
 */
const readCsvFile = async <A>(
  command: { dashboardId: string; file: string },
  parse: (bytes: Uint8Array) => Promise<E.Either<CsvRefusal, CsvRead<A>>>,
  maxBytes: number,
  useCases: UseCases,
  io: CliIo,
): Promise<CsvRead<A> | undefined> => {
  await knownDashboard(command.dashboardId, useCases);
  const read = await parse(await readInput(command.file, maxBytes));
  if (E.isRight(read)) return read.right;
  if (read.left._tag === 'CsvTooLarge') throw new CliError('REFUSED', `${command.file} is larger than ${read.left.limitBytes} bytes`);
  const { problems, stoppedEarly } = read.left;
  const lines = linesOf(problems);
  const counted = stoppedEarly ? `the reading stopped at ${lines} lines that` : `${lines} ${lines === 1 ? 'line' : 'lines'}`;
  io.err(
    JSON.stringify({
      error: { code: 'INVALID_CSV', message: `${counted} cannot be imported; nothing was imported`, lines: problems },
    }),
  );
  return undefined;
};

/**
 * Stores a file's entries with `importRows` (in slices, as the console's upload does) and prints
 * `{ [what]: { file, lines, upserted, ignoredColumns } }`. A store that fails part way stops with how
 * many lines it stored: running the same import again completes it.
 */
const importRead = async <A>(
  what: 'spend' | 'costs',
  command: { dashboardId: string; file: string },
  read: CsvRead<A>,
  importRows: (dashboardId: string, rows: Rows<A>) => Promise<number>,
  io: CliIo,
): Promise<number> => {
  let upserted: number;
  try {
    upserted = await importRows(command.dashboardId, read.entries);
  } catch (err) {
    if (!(err instanceof UploadInterrupted)) throw err;
    const why = err.cause instanceof Error ? err.cause.message : String(err.cause);
    throw new CliError(
      'FAILED',
      `the store failed after the first ${err.storedRows} of ${err.rows} lines were stored (${why}); run the same import again to store the rest`,
    );
  }
  return print(io, { [what]: { file: command.file, lines: read.entries.length, upserted, ignoredColumns: read.ignoredColumns } });
};

/** Imports a spend CSV after every line was checked, in slices (ImportSpend). */
const importSpend = async (command: { dashboardId: string; file: string }, useCases: UseCases, io: CliIo): Promise<number> => {
  const read = await readCsvFile(command, parseSpendCsv, SPEND_CSV_MAX_BYTES, useCases, io);
  return read === undefined ? 1 : importRead('spend', command, read, (id, rows) => useCases.importSpend.execute(id, rows), io);
};

/** Imports a product costs CSV after every line was checked, in slices (ImportProductCosts); a key on two lines takes the later one. */
const importCosts = async (command: { dashboardId: string; file: string }, useCases: UseCases, io: CliIo): Promise<number> => {
  const read = await readCsvFile(command, parseCostsCsv, CSV_MAX_BYTES, useCases, io);
  return read === undefined ? 1 : importRead('costs', command, read, (id, rows) => useCases.importProductCosts.execute(id, rows), io);
};

/** At most this many invalid lines are listed in the summary; `invalid` counts them all. */
const MAX_LISTED_INVALID = 100;

/**
 * Orders from a JSON Lines file (decision 0019), 500 at a time as the batch route creates them: each
 * line checked as POST /api/v1/orders checks it, valid ones created side by side (SQLite commits them
 * in groups), duplicates counted, invalid lines named. Exit 1 when a line was invalid.
 */
const importOrders = async (command: { dashboardId: string; file: string }, useCases: UseCases, io: CliIo): Promise<number> => {
  if (E.isLeft(await useCases.getDashboard.execute(command.dashboardId)))
    throw new CliError('NOT_FOUND', `no dashboard ${command.dashboardId}`);
  const lines = [...utf8Lines(await readInput(command.file))];
  const invalid: { line: number; problems: string[] }[] = [];
  let [created, duplicates, invalidCount, read] = [0, 0, 0, 0];
  const seen = new Set<string>();
  for (let start = 0; start < lines.length; start += MAX_BATCH_ORDERS) {
    const chunk = lines.slice(start, start + MAX_BATCH_ORDERS);
    await Promise.all(
      chunk.map(async (text, i) => {
        const line = start + i + 1;
        if (text?.trim() === '') return;
        read++;
        if (text === undefined) {
          invalidCount++;
          if (invalid.length < MAX_LISTED_INVALID) invalid.push({ line, problems: ['(line) is not valid UTF-8'] });
          return;
        }
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          invalidCount++;
          if (invalid.length < MAX_LISTED_INVALID) invalid.push({ line, problems: ['(line) is not JSON'] });
          return;
        }
        const decoded = CreateOrderBody.decode(parsed);
        if (E.isLeft(decoded)) {
          invalidCount++;
          if (invalid.length < MAX_LISTED_INVALID)
            invalid.push({ line, problems: describeErrors(decoded.left).map((d) => `${d.path}: ${d.message}`) });
          return;
        }
        if (seen.has(decoded.right.externalId)) {
          duplicates++;
          return;
        }
        seen.add(decoded.right.externalId);
        const made = await useCases.createOrder.execute(command.dashboardId, decoded.right);
        if (E.isRight(made)) created++;
        else duplicates++;
      }),
    );
    io.err(
      `imported ${Math.min(start + MAX_BATCH_ORDERS, lines.length)} of ${lines.length} lines: ${created} created, ${duplicates} duplicates, ${invalidCount} invalid`,
    );
  }
  invalid.sort((a, b) => a.line - b.line);
  print(io, { import: { file: command.file, orders: read, created, duplicates, invalid: invalidCount, invalidLines: invalid } });
  return invalidCount > 0 ? 1 : 0;
};

const run = async (
  command: Exclude<Command, { kind: 'help' | 'backup' | 'reports rebuild' | 'sources create' | 'sources list' | 'sources delete' }>,
  useCases: UseCases,
  io: CliIo,
  publicBaseUrl: string | undefined,
): Promise<number> => {
  switch (command.kind) {
    case 'dashboards create':
      return print(io, { dashboard: dashboardView(await useCases.createDashboard.execute(command.name, command.timezone)) });
    case 'dashboards update': {
      const { dashboardId, ...changes } = command;
      const updated = await useCases.updateDashboard.execute(dashboardId, changes);
      if (E.isLeft(updated)) throw new CliError('NOT_FOUND', `no dashboard ${dashboardId}`);
      return print(io, { dashboard: dashboardView(updated.right) });
    }
    case 'spend import':
      return importSpend(command, useCases, io);
    case 'costs import':
      return importCosts(command, useCases, io);
    case 'orders import':
      return importOrders(command, useCases, io);
    case 'users create-owner': {
      const password = command.password ?? generatedPassword();
      const made = await useCases.createOwner.execute(command.dashboardId, command.email, password);
      if (E.isLeft(made) && made.left._tag === 'EmailTaken')
        throw new CliError(
          'REFUSED',
          `${made.left.email} already has an account, which joins a dashboard only by accepting an invitation: ` +
            `run invitations create --dashboard ${command.dashboardId} --email ${made.left.email} --role owner, and send the link ` +
            'to that person, who opens it signed in as that account or gives its password',
        );
      if (E.isLeft(made)) throw accountFailure(made.left);
      return print(io, {
        user: userView(made.right.user),
        role: 'owner',
        dashboardId: command.dashboardId,
        ...(command.password === undefined ? { password } : {}),
      });
    }
    case 'users reset-password': {
      const password = command.password ?? generatedPassword();
      const reset = await useCases.resetPassword.execute(command.email, password);
      if (E.isLeft(reset)) throw accountFailure(reset.left);
      return print(io, {
        email: command.email.trim().toLowerCase(),
        sessionsEnded: reset.right.sessionsEnded,
        ...(command.password === undefined ? { password } : {}),
      });
    }
    case 'users list':
      return print(io, {
        users: (await useCases.listUsers.execute()).map(({ user, memberships }) => ({
          ...userView(user),
          memberships: memberships.map((m) => ({ dashboardId: m.dashboardId, role: m.role })),
        })),
      });
    case 'users remove-member': {
      await knownDashboard(command.dashboardId, useCases);
      const removed = await useCases.removeMember.execute('operator', command.dashboardId, { email: command.email });
      if (E.isLeft(removed)) throw accountFailure(removed.left);
      return print(io, { removed: { user: userView(removed.right.user), dashboardId: command.dashboardId } });
    }
    case 'invitations create': {
      await knownDashboard(command.dashboardId, useCases);
      const invited = await useCases.inviteMember.execute('operator', command.dashboardId, command.email, command.role);
      if (E.isLeft(invited)) throw accountFailure(invited.left);
      return print(io, { invitation: invitationView(invited.right.invitation), ...invitationLink(invited.right.token, publicBaseUrl) });
    }
    case 'invitations list': {
      await knownDashboard(command.dashboardId, useCases);
      const invitations = await useCases.listInvitations.execute('operator', command.dashboardId);
      if (E.isLeft(invitations)) throw accountFailure(invitations.left);
      return print(io, { invitations: invitations.right.map(invitationView) });
    }
    case 'invitations revoke': {
      const revoked = await useCases.revokeInvitation.execute('operator', command.invitationId);
      if (E.isLeft(revoked)) throw accountFailure(revoked.left);
      return print(io, { revoked: invitationView(revoked.right) });
    }
    case 'dashboards list':
      return print(io, { dashboards: (await useCases.listDashboards.execute()).map(dashboardView) });
    case 'tokens create': {
      const issued = await useCases.createToken.execute(command.dashboardId, command.name, {
        ...(command.scopes === undefined ? {} : { scopes: command.scopes }),
        ...(command.expiresAt === undefined ? {} : { expiresAt: command.expiresAt }),
      });
      if (E.isLeft(issued)) throw new CliError('NOT_FOUND', `no dashboard ${command.dashboardId}`);
      return print(io, { token: issuedTokenView(issued.right.token, issued.right.plain) });
    }
    case 'tokens list': {
      const tokens = await useCases.listTokens.execute(command.dashboardId);
      if (E.isLeft(tokens)) throw new CliError('NOT_FOUND', `no dashboard ${command.dashboardId}`);
      return print(io, { tokens: tokens.right.map(tokenView) });
    }
    case 'tokens revoke': {
      const revoked = await useCases.revokeToken.execute(command.tokenId);
      if (E.isLeft(revoked)) throw new CliError('NOT_FOUND', `no token ${command.tokenId}`);
      return print(io, { token: revokedTokenView(revoked.right) });
    }
  }
};

/** The platform's secret, from SOURCE_SECRET only: an argument would show in every user's `ps`. */
const sourceSecretOf = (env: Env): string => {
  const secret = env['SOURCE_SECRET'];
  if (secret === undefined || secret === '')
    throw new CliError('USAGE', "sources create takes the platform's secret from SOURCE_SECRET, which is not set");
  if (!isSourceSecret(secret))
    throw new CliError(
      'REFUSED',
      `SOURCE_SECRET must be 1 to ${MAX_SOURCE_SECRET_LENGTH} printable ASCII characters, not only spaces (the platform's own secret, as it shows it)`,
    );
  return secret;
};

/** An invitation's link as the console shows it: whole when PUBLIC_BASE_URL says where the console is, else its path. */
const invitationLink = (token: string, publicBaseUrl: string | undefined) =>
  publicBaseUrl === undefined ? { path: `/console/invitations/${token}` } : { link: `${publicBaseUrl}/console/invitations/${token}` };

/** A source as the CLI prints it: the URL to paste when PUBLIC_BASE_URL says where the service is, else its path. */
const sourceLine = (source: Source, publicBaseUrl: string | undefined) => ({
  id: source.id,
  platform: source.platform,
  name: source.name,
  ...(publicBaseUrl === undefined ? { path: sourceUrl('', source) } : { url: sourceUrl(publicBaseUrl, source) }),
  createdAt: source.createdAt.toISOString(),
});

const runSources = async (
  command: Extract<Command, { kind: 'sources create' | 'sources list' | 'sources delete' }>,
  useCases: UseCases,
  publicBaseUrl: string | undefined,
  io: CliIo,
): Promise<number> => {
  await knownDashboard(command.dashboardId, useCases);
  switch (command.kind) {
    case 'sources create': {
      const { dashboardId, platform, name, secret } = command;
      if (secret === undefined)
        throw new CliError('USAGE', "sources create takes the platform's secret from SOURCE_SECRET, which is not set");
      const made = await useCases.createSource.execute(dashboardId, { platform, name, secret });
      if (E.isLeft(made)) throw new CliError('REFUSED', `the dashboard has its ${made.left.limit} sources already: delete one first`);
      return print(io, { source: sourceLine(made.right, publicBaseUrl) });
    }
    case 'sources list':
      return print(io, { sources: (await useCases.listSources.execute(command.dashboardId)).map((s) => sourceLine(s, publicBaseUrl)) });
    case 'sources delete': {
      const deleted = await useCases.deleteSource.execute(command.dashboardId, command.sourceId);
      if (E.isLeft(deleted)) throw new CliError('NOT_FOUND', `no source ${command.sourceId} in dashboard ${command.dashboardId}`);
      return print(io, { deleted: { id: command.sourceId, dashboardId: command.dashboardId } });
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
      process.stderr.write(`${JSON.stringify({ error: { code: 'FAILED', message: err instanceof Error ? err.message : String(err) } })}\n`);
      process.exit(1);
    },
  );
}
