import {
  ACCOUNT_ID_RULES,
  AD_PLATFORM_LABELS,
  AD_PLATFORMS,
  DEFAULT_UTM_SOURCE,
  MAX_AD_ACCOUNT_NAME_LENGTH,
  MAX_CREDENTIAL_LENGTH,
  type AdAccount,
  type AdPlatformName,
} from '../../../domain/ad-account';
import type { ConversionDelivery } from '../../../domain/conversion';
import { problemSummary, select, textField, type FormProblem } from '../kit/fields';
import type { FormFields } from '../kit/forms';
import { asSentence, dateTime } from '../kit/format';
import { html, type Fragment, type Html } from '../kit/html';
import { table } from '../kit/table';
import { csrfField, notice, page, postButton, type Viewer } from '../kit/layout';
import { CONVERSION_FIELD_LABELS, conversionFields, conversionValuesOf, typedConversionValues } from './conversion-fields';
import { conversionLog, conversionState } from './conversion-log';

const NOTICES: Readonly<Record<string, string>> = {
  connected: 'The account was connected; its first sync is under way. Reload the page in a moment to see how it went.',
  syncing: 'A sync was asked for; it runs in the background. Reload the page in a moment to see how it went.',
  changed: 'The account was changed.',
  credentials: 'The credentials were replaced; the account is being synced again with them.',
  deleted: 'The account was disconnected and its credentials deleted. The spend it read stays in the reports.',
  sending: 'Saved: each order that becomes paid from now on is sent to the platform.',
  stopped:
    'Saved: paid orders are no longer sent. Those still waiting are marked Not sent at their next attempt, unless the sending is on again by then.',
  unsent: 'Saved: paid orders are not sent.',
};

/** Which of the pages' forms was refused, with what it held (never a credential) and why. */
export interface RefusedForm {
  readonly form: 'connect' | 'edit' | 'credentials' | 'conversions';
  readonly values: FormFields;
  readonly problems: readonly FormProblem[];
}

const LEADS: Readonly<Record<RefusedForm['form'], string>> = {
  connect: 'The account was not connected:',
  edit: 'The account was not changed:',
  credentials: 'The credentials were not replaced:',
  conversions: 'The purchases sent back were not changed:',
};

/** What a page shows over its forms: a form's result, or the refused form's problems. */
export interface PageState {
  readonly notice?: string;
  readonly refused?: RefusedForm;
}

const top = (state: PageState): Fragment =>
  html`${notice(NOTICES[state.notice ?? ''])}
  ${state.refused === undefined ? '' : problemSummary(LEADS[state.refused.form], state.refused.problems)}`;

/** The problems of `form` when it is the one refused. */
const problemsOf = (state: PageState, form: RefusedForm['form']): readonly FormProblem[] =>
  state.refused?.form === form ? state.refused.problems : [];

/** What `form` held when it was refused, else `fallback`. */
const typedIn = (state: PageState, form: RefusedForm['form'], name: string, fallback: string): string =>
  state.refused?.form === form ? (state.refused.values.get(name) ?? '').trim() : fallback;

const STATUS_WORDS: Readonly<Record<AdAccount['sync']['status'], string>> = {
  ok: 'OK',
  syncing: 'Syncing',
  needsAttention: 'Needs attention',
};

/**
 * Where the account stands, in words: its sync, with the platform's message when it failed, and the
 * platform's refusal of the last conversion sent, each with since when.
 */
const stateOf = (account: AdAccount, zone: string): Fragment => {
  const { sync } = account;
  const refused = account.conversions?.enabled === true ? account.conversionProblem : undefined;
  const status = refused === undefined ? sync.status : 'needsAttention';
  return html`<span class="state-${status}">${STATUS_WORDS[status]}</span>${
      sync.message === undefined
        ? ''
        : html`<br /><span class="muted"
              >${sync.message}${sync.failingSince === undefined ? '' : ` (failing since ${dateTime(sync.failingSince, zone)})`}</span
            >`
    }${
      refused === undefined
        ? ''
        : html`<br /><span class="muted">Purchases sent back refused: ${refused.message} (since ${dateTime(refused.since, zone)})</span>`
    }`;
};

const lastSync = (account: AdAccount, zone: string): string =>
  account.sync.lastSyncedAt === undefined ? 'Never' : dateTime(account.sync.lastSyncedAt, zone);

/** Says when the account's days are not the dashboard's: its spend is by its own days. */
const zoneNote = (account: AdAccount, zone: string): Fragment =>
  account.sync.timeZone === undefined || account.sync.timeZone === zone
    ? ''
    : html`<span class="zone-note">Days of ${account.sync.timeZone}, not the dashboard’s ${zone}</span>`;

const syncButton = (viewer: Viewer, account: AdAccount): Html =>
  postButton(viewer, `/console/ad-accounts/${account.id}/sync`, 'Sync now', 'secondary', `Sync now: ${account.name}`);

/** The labels of the pages' fields, by the API's names of the fields, which their inputs carry too. */
export const FIELD_LABELS: Readonly<Record<string, string>> = {
  name: 'Name',
  accountId: 'Account id',
  utmSource: 'utm_source',
  accessToken: 'Access token',
  developerToken: 'Developer token',
  clientId: 'OAuth client id',
  clientSecret: 'OAuth client secret',
  refreshToken: 'Refresh token',
  loginCustomerId: 'Manager account id',
  ...CONVERSION_FIELD_LABELS,
};

/** The platform's credentials, in password fields that never hold a value. */
const credentialFields = (platform: AdPlatformName, problems: readonly FormProblem[]): Html => {
  const secret = (name: string, help?: string) =>
    textField(name, FIELD_LABELS[name], '', {
      type: 'password',
      maxlength: MAX_CREDENTIAL_LENGTH,
      problems,
      ...(help === undefined ? {} : { help: html`<p>${help}</p>` }),
    });
  const fields =
    platform === 'google'
      ? html`${secret('developerToken')} ${secret('clientId')} ${secret('clientSecret')}
        ${secret('refreshToken', 'Granted for the https://www.googleapis.com/auth/adwords scope.')}
        ${textField('loginCustomerId', `${FIELD_LABELS.loginCustomerId} (optional)`, '', {
          maxlength: 12,
          problems,
          help: html`<p>When the access goes through a manager account: its id (123-456-7890).</p>`,
        })}`
      : secret(
          'accessToken',
          platform === 'meta' ? 'A system user’s token with ads_read on the account.' : 'The advertiser’s access token.',
        );
  return html`<fieldset class="fields">
    <legend>${AD_PLATFORM_LABELS[platform]} credentials</legend>
    ${fields}
    <p class="help">Encrypted before they are stored and never shown again.</p>
  </fieldset>`;
};

const campaignKeyField = (chosen: string): Html =>
  select('campaignKey', 'The links name campaigns and ads by', ['name', 'id'], chosen, undefined, {
    name: 'their names ({{campaign.name}}, __CAMPAIGN_NAME__)',
    id: 'their ids ({campaignid}, {{campaign.id}})',
  });

/** The platform to connect an account of: its form shows that platform's fields only. */
const platformChooser = (): Html =>
  html`<form class="filters" method="get" action="/console/ad-accounts">
    ${select('platform', 'Platform', AD_PLATFORMS, '', undefined, AD_PLATFORM_LABELS)}
    <div><button type="submit" class="secondary">Continue</button></div>
  </form>`;

/** The form that connects an account of `platform`: what a refused one held is kept, except its credentials. */
const connectForm = (viewer: Viewer, platform: AdPlatformName, state: PageState): Html => {
  const problems = problemsOf(state, 'connect');
  const typed = (name: string, fallback = '') => typedIn(state, 'connect', name, fallback);
  const conversions =
    state.refused?.form === 'connect' ? typedConversionValues(platform, state.refused.values) : conversionValuesOf(undefined);
  return html`<p>${AD_PLATFORM_LABELS[platform]} account · <a href="/console/ad-accounts">another platform</a></p>
    <form class="stack" method="post" action="/console/ad-accounts">
      ${csrfField(viewer)}<input type="hidden" name="platform" value="${platform}" />
      ${textField('name', FIELD_LABELS.name, typed('name'), { maxlength: MAX_AD_ACCOUNT_NAME_LENGTH, required: true, problems })}
      ${textField('accountId', FIELD_LABELS.accountId, typed('accountId'), {
        maxlength: 64,
        required: true,
        problems,
        help: html`<p>${asSentence(ACCOUNT_ID_RULES[platform])}</p>`,
      })}
      ${campaignKeyField(typed('campaignKey', 'name'))}
      ${textField('utmSource', `${FIELD_LABELS.utmSource} of the links (optional)`, typed('utmSource'), {
        maxlength: 255,
        problems,
        help: html`<p>Empty: ${DEFAULT_UTM_SOURCE[platform]}.</p>`,
      })}
      ${credentialFields(platform, problems)} ${conversionFields(platform, conversions, problems)}
      <div><button type="submit">Connect the account</button></div>
    </form>`;
};

/**
 * The dashboard's ad accounts, each with its state and last sync, and the form that connects one of
 * the `platform` chosen (the platforms to choose from until one is).
 */
export const adAccountsListView = (
  viewer: Viewer,
  accounts: readonly AdAccount[],
  canConnect: boolean,
  platform: AdPlatformName | undefined,
  state: PageState,
): Html => {
  const zone = viewer.dashboard.timezone;
  return page(
    viewer,
    '/console/ad-accounts',
    'Ad accounts',
    html`${top(state)}
      <p>
        A connected account’s daily spend per campaign and ad is read every hour (and when you press Sync now), for its last 28 days, so
        that the reports show it without an upload. Its campaigns and ads are named as its links name them. It can also be sent each order
        that becomes paid.
      </p>
      <h2>Accounts</h2>
      ${table({
        label: 'Ad accounts',
        rows: accounts,
        empty: html`<p>No ad accounts yet.</p>`,
        rowData: (a) => ({ 'data-ad-account': a.id }),
        columns: [
          { header: 'Name', cell: (a) => html`<a href="/console/ad-accounts/${a.id}">${a.name}</a>` },
          { header: 'Platform', cell: (a) => `${AD_PLATFORM_LABELS[a.platform]} ${a.accountId}` },
          { header: 'State', cell: (a) => stateOf(a, zone) },
          { header: 'Last sync', cell: (a) => lastSync(a, zone) },
          { header: 'Days', cell: (a) => html`${a.sync.timeZone ?? '—'} ${zoneNote(a, zone)}` },
          { header: 'Sync', cell: (a) => syncButton(viewer, a) },
        ],
      })}
      <h2>Connect an account</h2>
      ${
        canConnect
          ? platform === undefined
            ? platformChooser()
            : connectForm(viewer, platform, state)
          : html`<p class="error" role="alert">
              Accounts cannot be connected: the service runs without <code>CREDENTIALS_KEY</code>, the key their credentials are encrypted
              with. The operator sets it (32 random bytes, <code>openssl rand -base64 32</code>) and restarts the service.
            </p>`
      }`,
  );
};

/** One account: where its sync stands, the purchases sent back to it, and the forms that sync, change, re-key and disconnect it. */
export const adAccountView = (viewer: Viewer, account: AdAccount, conversions: readonly ConversionDelivery[], state: PageState): Html => {
  const zone = viewer.dashboard.timezone;
  const action = (to: string) => `/console/ad-accounts/${account.id}/${to}`;
  const edited = (name: string, fallback: string) => typedIn(state, 'edit', name, fallback);
  const sending =
    state.refused?.form === 'conversions'
      ? typedConversionValues(account.platform, state.refused.values)
      : conversionValuesOf(account.conversions);
  return page(
    viewer,
    '/console/ad-accounts',
    `Ad account “${account.name}”`,
    html`${top(state)}
      <dl class="facts">
        <dt>Platform</dt>
        <dd>${AD_PLATFORM_LABELS[account.platform]} ${account.accountId}</dd>
        <dt>State</dt>
        <dd id="ad-account-state">${stateOf(account, zone)}</dd>
        <dt>Last sync</dt>
        <dd id="ad-account-last-sync">${lastSync(account, zone)}</dd>
        <dt>Next sync</dt>
        <dd>${dateTime(account.sync.nextSyncAt, zone)}</dd>
        <dt>Currency and days</dt>
        <dd>${account.sync.currency ?? '—'} · ${account.sync.timeZone ?? '—'} ${zoneNote(account, zone)}</dd>
        <dt>Spend written as</dt>
        <dd>utm_source <code>${account.utmSource}</code>, campaigns and ads by ${account.campaignKey === 'name' ? 'name' : 'id'}</dd>
      </dl>
      ${syncButton(viewer, account)}
      <h2>Purchases sent back</h2>
      ${conversionState(account, zone)}
      <form class="stack" method="post" action="${action('conversions')}">
        ${csrfField(viewer)} ${conversionFields(account.platform, sending, problemsOf(state, 'conversions'))}
        <div><button type="submit" class="secondary">Save the purchases sent back</button></div>
      </form>
      <h3>Last conversions</h3>
      ${conversionLog(conversions, zone)}
      <h2>Change</h2>
      <form class="stack" method="post" action="${action('edit')}">
        ${csrfField(viewer)}
        ${textField('name', FIELD_LABELS.name, edited('name', account.name), {
          maxlength: MAX_AD_ACCOUNT_NAME_LENGTH,
          required: true,
          problems: problemsOf(state, 'edit'),
        })}
        ${select(
          'campaignKey',
          'The links name campaigns and ads by',
          ['name', 'id'],
          edited('campaignKey', account.campaignKey),
          undefined,
          {
            name: 'their names',
            id: 'their ids',
          },
        )}
        ${textField('utmSource', `${FIELD_LABELS.utmSource} of the links`, edited('utmSource', account.utmSource), {
          maxlength: 255,
          required: true,
          problems: problemsOf(state, 'edit'),
        })}
        <div><button type="submit" class="secondary">Save</button></div>
      </form>
      <h2>Replace the credentials</h2>
      <p>After a token expired or was revoked: the account is synced again with the new ones at once.</p>
      <form class="stack" method="post" action="${action('credentials')}">
        ${csrfField(viewer)} ${credentialFields(account.platform, problemsOf(state, 'credentials'))}
        <div><button type="submit">Replace the credentials</button></div>
      </form>
      <h2>Disconnect</h2>
      <p>The credentials are deleted; the spend the account read stays in the reports.</p>
      ${postButton(viewer, action('delete'), 'Disconnect the account', 'danger')}
      <p><a href="/console/ad-accounts">All ad accounts</a></p>`,
  );
};
