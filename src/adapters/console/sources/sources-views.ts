import type { SourceDeliveryPage } from '../../../application/ports/source-delivery-log';
import {
  MAX_SOURCE_NAME_LENGTH,
  MAX_SOURCE_SECRET_LENGTH,
  MAX_SOURCES_PER_DASHBOARD,
  SOURCE_PLATFORMS,
  type Source,
} from '../../../domain/source';
import { input, select } from '../kit/fields';
import { dateTime } from '../kit/format';
import { html, type Fragment, type Html } from '../kit/html';
import { csrfField, notice, page, postButton, problem, type Viewer } from '../kit/layout';
import { table } from '../kit/table';
import { deliveryLog } from './delivery-log';
import { PLATFORM_GUIDES } from './platform-steps';

const PLATFORM_LABELS = Object.fromEntries(SOURCE_PLATFORMS.map((p) => [p, PLATFORM_GUIDES[p].label]));

/** What the Sources pages say: a notice after a change, a problem with a form, both named in the redirect's query. */
const NOTICES: Readonly<Record<string, string>> = {
  created: 'The source was created. Paste its URL into the platform as the steps below say.',
  'created-without-secret':
    'The source was created without the platform’s secret: every delivery is refused (401, shown in the log) until you paste it under “Replace the secret”.',
  renamed: 'The source was renamed.',
  secret: 'The secret was replaced: from now on only deliveries signed with the new one pass.',
  deleted: 'The source was deleted with its delivery log; its URL answers 404 from now on. The orders it made stay.',
};

const PROBLEMS: Readonly<Record<string, string>> = {
  platform: 'Choose the platform of the source.',
  name: `A source needs a name of 1 to ${MAX_SOURCE_NAME_LENGTH} characters.`,
  secret: `A secret is 1 to ${MAX_SOURCE_SECRET_LENGTH} printable ASCII characters (letters, digits, punctuation, spaces), not only spaces.`,
  limit: `This dashboard has its ${MAX_SOURCES_PER_DASHBOARD} sources already: delete one first.`,
};

/** Said beside the URLs to paste when no platform can post to them (reachability.ts says why), with the setting that fixes it. */
const unreachableWarning = (why: string | undefined, headline: string, platform: string): Fragment =>
  why === undefined
    ? ''
    : html`<div class="error" id="unreachable-url">
        <p><strong>${headline}</strong> ${why}</p>
        <p>
          Set <code>PUBLIC_BASE_URL</code> to the https address at which the internet reaches this service (for example
          <code>https://orders.example.com</code>), restart the service, and paste the URL it then shows into ${platform}.
        </p>
      </div>`;

const copyable = (id: string, url: string): Fragment =>
  html`<p><code id="${id}">${url}</code></p>
    <p><button type="button" class="secondary" data-copy="${url}">Copy the URL</button></p>`;

/** The list of the dashboard's sources, and the form to add one (platform and name kept after a problem). */
export const sourcesListView = (
  viewer: Viewer,
  sources: readonly Source[],
  urlOf: (source: Source) => string,
  query: URLSearchParams,
  unreachable?: string,
): Html => {
  const zone = viewer.dashboard.timezone;
  const chosen = query.get('platform') ?? '';
  return page(
    viewer,
    '/console/sources',
    'Sources',
    html`${notice(NOTICES[query.get('notice') ?? ''])} ${problem(PROBLEMS[query.get('problem') ?? ''])}
      <p>
        A source turns the webhooks of the checkout a shop already uses (Shopify, WooCommerce, Stripe, Hotmart) into this dashboard’s
        orders: each platform posts to the source’s own URL, signed with the platform’s secret.
      </p>
      ${unreachableWarning(unreachable, 'The platforms cannot reach the URLs this page gives.', 'each platform')}
      <h2>Sources</h2>
      ${table({
        label: 'Sources',
        rows: sources,
        empty: html`<p>No sources yet.</p>`,
        rowData: (s) => ({ 'data-source': s.id }),
        columns: [
          { header: 'Name', cell: (s) => html`<a href="/console/sources/${s.id}">${s.name}</a>` },
          { header: 'Platform', cell: (s) => PLATFORM_GUIDES[s.platform].label },
          { header: 'URL to paste', cell: (s) => html`<code>${urlOf(s)}</code>` },
          { header: 'Created', cell: (s) => dateTime(s.createdAt, zone) },
        ],
      })}
      <h2>Add a source</h2>
      <form class="stack" method="post" action="/console/sources">
        ${csrfField(viewer)} ${select('platform', 'Platform', SOURCE_PLATFORMS, chosen, undefined, PLATFORM_LABELS)}
        ${input('name', 'Name', { required: true, maxlength: MAX_SOURCE_NAME_LENGTH, value: query.get('name') ?? '' })}
        ${input('secret', 'The platform’s secret (optional now: Stripe shows it only once the endpoint exists)', {
          type: 'password',
          autocomplete: 'off',
          maxlength: MAX_SOURCE_SECRET_LENGTH,
        })}
        <p class="muted">
          Shopify’s webhook signing secret, WooCommerce’s webhook secret, Stripe’s endpoint signing secret (<code>whsec_…</code>) or
          Hotmart’s hottok. It is kept to check each delivery and never shown again.
        </p>
        <div><button type="submit">Add the source</button></div>
      </form>`,
  );
};

/** One source: its URL with the platform's steps, the forms that change it, and its delivery log. */
export const sourceView = (
  viewer: Viewer,
  source: Source,
  url: string,
  log: { readonly page: SourceDeliveryPage; readonly number: number },
  query: URLSearchParams,
  unreachable?: string,
): Html => {
  const guide = PLATFORM_GUIDES[source.platform];
  const zone = viewer.dashboard.timezone;
  const path = `/console/sources/${source.id}`;
  const action = (to: string) => `${path}/${to}`;
  return page(
    viewer,
    '/console/sources',
    `Source “${source.name}”`,
    html`${notice(NOTICES[query.get('notice') ?? ''])} ${problem(PROBLEMS[query.get('problem') ?? ''])}
      <p>${guide.label} · created ${dateTime(source.createdAt, zone)} (${zone})</p>
      <h2>URL to paste into ${guide.label}</h2>
      ${copyable('source-url', url)} ${unreachableWarning(unreachable, `${guide.label} cannot reach this URL.`, guide.label)}
      <h2>Connect ${guide.label}</h2>
      ${guide.steps(html`<code>${url}</code>`)}
      <h2>Replace the secret</h2>
      <form class="stack" method="post" action="${action('secret')}">
        ${csrfField(viewer)}
        ${input('secret', guide.secret, { type: 'password', autocomplete: 'off', required: true, maxlength: MAX_SOURCE_SECRET_LENGTH })}
        <div><button type="submit">Replace the secret</button></div>
      </form>
      <h2>Rename</h2>
      <form class="stack" method="post" action="${action('rename')}">
        ${csrfField(viewer)} ${input('name', 'Name', { required: true, maxlength: MAX_SOURCE_NAME_LENGTH, value: source.name })}
        <div><button type="submit" class="secondary">Rename</button></div>
      </form>
      <h2>Delivery log</h2>
      ${deliveryLog(path, log.page, log.number, zone)}
      <h2>Delete</h2>
      <p>The source’s URL answers 404 from then on and its log goes with it; the orders it made stay.</p>
      ${postButton(viewer, action('delete'), 'Delete the source', 'danger')}
      <p><a href="/console/sources">All sources</a></p>`,
  );
};
