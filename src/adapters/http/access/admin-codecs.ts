import * as t from 'io-ts';
import { TOKEN_SHAPE } from '../../system/sha256-token-secrets';
import { MAX_NAME_LENGTH } from '../../../domain/dashboard';
import { SCOPES } from '../../../domain/scope';
import { isTaxRate, MAX_TAX_RATE } from '../../../domain/tax-rate';
import { arrayOf, check, nullable, oneOf, str, strictObject } from '../kit/codec-kit';
import { isoInstant, utcDateTime } from '../kit/dates';
import { component, described } from '../kit/json-schema';
import { timeZone } from '../reports/report-codecs';

/** Dashboards and tokens of the admin API (decision 0008): what is sent and what is answered. */

const name = str(1, MAX_NAME_LENGTH);
const serviceId = described(t.string, 'Made by the service; opaque.');

const timezone = described(timeZone, "IANA name: the calendar of its reports and of its spend's dates (decision 0016); `UTC` by default.");

export const taxRate = described(
  check('TaxRate', isTaxRate, `must be a number from 0 to ${MAX_TAX_RATE} with at most 2 decimals, such as 7.25`, {
    type: 'number',
    minimum: 0,
    maximum: MAX_TAX_RATE,
    examples: [7.25],
  }),
  `Percent of paid revenue the reports count as tax (decision 0020): 0 to ${MAX_TAX_RATE}, at most 2 decimals; 0 by default.`,
);

export const CreateDashboardBody = strictObject('CreateDashboardRequest', { name }, { timezone });

export const UpdateDashboardBody = strictObject(
  'UpdateDashboardRequest',
  {},
  { name, timezone, taxRate },
  {
    description: 'Any of `name`, `timezone` and `taxRate`, at least one.',
    atLeastOne: 'must change at least one of name, timezone, taxRate',
  },
);

export const scope = component(
  'Scope',
  oneOf(SCOPES),
  'What a token may do (decision 0017): `:write` includes `:read`, except `orders:write`.',
);
const scopes = described(arrayOf(scope, 1, SCOPES.length, { distinct: true }), 'Each at most once.');

export const CreateTokenBody = strictObject(
  'CreateTokenRequest',
  {},
  {
    name,
    scopes: described(scopes, 'What the token may do, each scope at most once; every scope when omitted.'),
    expiresAt: described(
      isoInstant,
      'From this instant on the token is refused (401 TOKEN_EXPIRED); it must be in the future. Never, when omitted.',
    ),
  },
  { description: 'Every field is optional: an empty object issues an unnamed token with every scope that never expires.' },
);

/** Ids of dashboards and tokens as they arrive in a path; anything else cannot name one. */
export const IdParam = str(1, 64);
export const DashboardPath = strictObject('DashboardPath', { dashboardId: described(IdParam, 'The id of the dashboard.') });
export const TokenPath = strictObject('TokenPath', { tokenId: described(IdParam, 'The id of the token.') });

const Dashboard = strictObject('Dashboard', { id: serviceId, name, timezone: t.string, taxRate: t.number, createdAt: utcDateTime });
export const DashboardResponse = strictObject('DashboardResponse', { dashboard: Dashboard });

const IssuedToken = strictObject('IssuedToken', {
  id: serviceId,
  dashboardId: t.string,
  name: nullable(name),
  scopes,
  expiresAt: nullable(utcDateTime),
  token: described(
    check('TokenValue', (u): u is string => typeof u === 'string' && TOKEN_SHAPE.test(u), 'must be a token', {
      type: 'string',
      pattern: TOKEN_SHAPE.source,
    }),
    'The bearer token for /api/v1. Shown only in this response; only its SHA-256 hash is stored.',
  ),
  createdAt: utcDateTime,
});
export const IssuedTokenResponse = strictObject('IssuedTokenResponse', { token: IssuedToken });

const TokenSummary = strictObject('TokenSummary', {
  id: serviceId,
  name: nullable(name),
  scopes,
  createdAt: utcDateTime,
  expiresAt: nullable(utcDateTime),
  lastUsedAt: described(nullable(utcDateTime), 'The start of the last minute the token was used in; `null` if never.'),
  revokedAt: nullable(utcDateTime),
});
export const TokenList = strictObject('TokenList', { tokens: t.array(TokenSummary) });

const RevokedToken = strictObject('RevokedToken', {
  id: serviceId,
  revokedAt: described(utcDateTime, 'The first revocation time; revoking again keeps it.'),
});
export const RevokedTokenResponse = strictObject('RevokedTokenResponse', { token: RevokedToken });
