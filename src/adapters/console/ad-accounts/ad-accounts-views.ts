import {
  AD_PLATFORM_LABELS,
  AD_PLATFORMS,
  DEFAULT_UTM_SOURCE,
  MAX_AD_ACCOUNT_NAME_LENGTH,
  MAX_AD_ACCOUNTS_PER_DASHBOARD,
  MAX_CREDENTIAL_LENGTH,
  type AdAccount,
  type AdPlatformName,
} from '../../../domain/ad-account';
import type { ConversionDelivery } from '../../../domain/conversion';
import { input, select } from '../kit/fields';
import { conversionLog, conversionState } from './conversion-log';
import { dateTime } from '../kit/format';
import { html, type Fragment, type Html } from '../kit/html';
import { table } from '../kit/table';
import { csrfField, notice, page, postButton, problem, type Viewer } from '../kit/layout';

const NOTICES: Readonly<Record<string, string>> = {
  connected: 'The account was connected; its first sync is under way. Reload the page in a moment to see how it went.',
  syncing: 'A sync was asked for; it runs in the background. Reload the page in a moment to see how it went.',
  changed: 'The account was changed.',
  credentials: 'The credentials were replaced; the account is being synced again with them.',
  deleted: 'The account was disconnected and its credentials deleted. The spend it read stays in the reports.',
};

const PROBLEMS: Readonly<Record<string, string>> = {
  platform: 'Choose the platform of the account.',
  name: `An account needs a name of 1 to ${MAX_AD_ACCOUNT_NAME_LENGTH} characters.`,
  utmSource: 'The utm_source is 1 to 255 characters.',
  accountId: 'That is not an account id of this platform: Meta’s act_1234567890, Google’s 123-456-7890, TikTok’s advertiser id.',
  credentials: `The platform’s credentials are needed, each 1 to ${MAX_CREDENTIAL_LENGTH} characters without spaces: Meta and TikTok an access token; Google a developer token, a client id and secret and a refresh token (a manager account id is optional). Fill only the platform’s fields.`,
  limit: `This dashboard has its ${MAX_AD_ACCOUNTS_PER_DASHBOARD} ad accounts already: disconnect one first.`,
  duplicate: 'This dashboard already has that account: change the one there is instead.',
  key: 'Accounts cannot be connected: the service runs without CREDENTIALS_KEY.',
};

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

const credentialFields = (platform: AdPlatformName | 'any'): Html => {
  const credential = (name: string, label: string) =>
    input(name, label, { type: 'password', autocomplete: 'off', maxlength: MAX_CREDENTIAL_LENGTH });
  const token = html`<fieldset>
    <legend>Meta or TikTok</legend>
    ${credential('accessToken', 'Access token (Meta: a system user’s token with ads_read; TikTok: the advertiser’s token)')}
  </fieldset>`;
  const google = html`<fieldset>
    <legend>Google Ads</legend>
    ${credential('developerToken', 'Developer token')} ${credential('clientId', 'OAuth client id')}
    ${credential('clientSecret', 'OAuth client secret')} ${credential('refreshToken', 'Refresh token')}
    ${input('loginCustomerId', 'Manager account id (optional, 123-456-7890)', { autocomplete: 'off', maxlength: 12 })}
  </fieldset>`;
  return platform === 'google' ? google : platform === 'any' ? html`${token} ${google}` : token;
};

/** The dashboard's ad accounts, each with its state and last sync, and the form that connects one. */
export const adAccountsListView = (viewer: Viewer, accounts: readonly AdAccount[], canConnect: boolean, query: URLSearchParams): Html => {
  const zone = viewer.dashboard.timezone;
  const chosen = query.get('platform') ?? '';
  return page(
    viewer,
    '/console/ad-accounts',
    'Ad accounts',
    html`${notice(NOTICES[query.get('notice') ?? ''])} ${problem(PROBLEMS[query.get('problem') ?? ''])}
      <p>
        A connected account’s daily spend per campaign and ad is read every hour (and when you press Sync now), for its last 28 days, so
        that the reports show it without an upload. Its campaigns and ads are named as its links name them.
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
          ? html`<form class="stack" method="post" action="/console/ad-accounts">
              ${csrfField(viewer)} ${select('platform', 'Platform', AD_PLATFORMS, chosen, undefined, AD_PLATFORM_LABELS)}
              ${input('name', 'Name', { required: true, maxlength: MAX_AD_ACCOUNT_NAME_LENGTH, value: query.get('name') ?? '' })}
              ${input('accountId', 'Account id (Meta act_…, Google 123-456-7890, TikTok advertiser id)', {
                required: true,
                maxlength: 64,
                value: query.get('accountId') ?? '',
              })}
              ${select(
                'campaignKey',
                'The links name campaigns and ads by',
                ['name', 'id'],
                query.get('campaignKey') ?? 'name',
                undefined,
                {
                  name: 'their names ({{campaign.name}}, __CAMPAIGN_NAME__)',
                  id: 'their ids ({campaignid}, {{campaign.id}})',
                },
              )}
              ${input('utmSource', `utm_source of the links (empty: ${Object.values(DEFAULT_UTM_SOURCE).join(', ')})`, {
                maxlength: 255,
                value: query.get('utmSource') ?? '',
              })}
              ${credentialFields('any')}
              <p class="muted">The credentials are encrypted before they are stored and never shown again.</p>
              <div><button type="submit">Connect the account</button></div>
            </form>`
          : html`<p class="error" role="alert">
              Accounts cannot be connected: the service runs without <code>CREDENTIALS_KEY</code>, the key their credentials are encrypted
              with. The operator sets it (32 random bytes, <code>openssl rand -base64 32</code>) and restarts the service.
            </p>`
      }`,
  );
};

/** One account: where its sync stands, the purchases sent back to it, and the forms that sync, change, re-key and disconnect it. */
export const adAccountView = (
  viewer: Viewer,
  account: AdAccount,
  query: URLSearchParams,
  conversions: readonly ConversionDelivery[],
): Html => {
  const zone = viewer.dashboard.timezone;
  const action = (to: string) => `/console/ad-accounts/${account.id}/${to}`;
  return page(
    viewer,
    '/console/ad-accounts',
    `Ad account “${account.name}”`,
    html`${notice(NOTICES[query.get('notice') ?? ''])} ${problem(PROBLEMS[query.get('problem') ?? ''])}
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
      ${conversionState(account, zone)} ${conversionLog(conversions, zone)}
      <h2>Change</h2>
      <form class="stack" method="post" action="${action('edit')}">
        ${csrfField(viewer)} ${input('name', 'Name', { required: true, maxlength: MAX_AD_ACCOUNT_NAME_LENGTH, value: account.name })}
        ${select('campaignKey', 'The links name campaigns and ads by', ['name', 'id'], account.campaignKey, undefined, { name: 'their names', id: 'their ids' })}
        ${input('utmSource', 'utm_source of the links', { required: true, maxlength: 255, value: account.utmSource })}
        <div><button type="submit" class="secondary">Save</button></div>
      </form>
      <h2>Replace the credentials</h2>
      <p>After a token expired or was revoked: the account is synced again with the new ones at once.</p>
      <form class="stack" method="post" action="${action('credentials')}">
        ${csrfField(viewer)} ${credentialFields(account.platform)}
        <div><button type="submit">Replace the credentials</button></div>
      </form>
      <h2>Disconnect</h2>
      <p>The credentials are deleted; the spend the account read stays in the reports.</p>
      ${postButton(viewer, action('delete'), 'Disconnect the account', 'danger')}
      <p><a href="/console/ad-accounts">All ad accounts</a></p>`,
  );
};
