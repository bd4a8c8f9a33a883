import type { SourcePlatformName } from '../../../domain/source';
import { html, type Html } from '../kit/html';

/** What the Sources page says of one platform: its name, what its secret is called, and how to connect it. */
export interface PlatformGuide {
  readonly label: string;
  /** The platform's name for the secret the source keeps. */
  readonly secret: string;
  /** The steps in the platform's admin, given the URL to paste there. */
  readonly steps: (url: Html) => Html;
}

/**
 * The set-up of each platform (docs/incoming/r27-sources.md has the pages they follow). A record over
 * the platforms' names: a new platform does not compile without its steps.
 */
export const PLATFORM_GUIDES: Readonly<Record<SourcePlatformName, PlatformGuide>> = {
  shopify: {
    label: 'Shopify',
    secret: 'Webhook signing secret',
    steps: (url) =>
      html`<ol>
        <li>In Shopify admin, open <strong>Settings → Notifications → Webhooks</strong>.</li>
        <li>
          Select <strong>Create webhook</strong> once for each event: <em>Order creation</em>, <em>Order payment</em>,
          <em>Order update</em>, <em>Order cancellation</em> and <em>Refund create</em>; format <em>JSON</em>, URL ${url}.
        </li>
        <li>The same page says “Your webhooks will be signed with …”: that signing secret is this source’s secret.</li>
      </ol>`,
  },
  woocommerce: {
    label: 'WooCommerce',
    secret: 'Webhook secret',
    steps: (url) =>
      html`<ol>
        <li>
          In WordPress admin, open <strong>WooCommerce → Settings → Advanced → Webhooks</strong> and select <strong>Add webhook</strong>.
        </li>
        <li>
          Status <em>Active</em>, topic <em>Order created</em>, delivery URL ${url}, API version <em>WP REST API Integration v3</em>, and
          the same secret as this source’s (WooCommerce makes one up when the field is left empty: copy it here).
        </li>
        <li>Save: WooCommerce sends a ping, which the log below shows as ignored.</li>
        <li>
          Add a second webhook with the topic <em>Order updated</em> (and a third with <em>Order restored</em>, if orders come back from the
          trash).
        </li>
        <li>
          For campaigns, turn on <strong>Order Attribution</strong> (WooCommerce → Settings → Advanced → Features): its
          <code>utm_*</code> become each order’s.
        </li>
      </ol>`,
  },
  stripe: {
    label: 'Stripe',
    secret: 'Signing secret (whsec_…)',
    steps: (url) =>
      html`<ol>
        <li>In the Stripe Dashboard, open <strong>Developers → Webhooks</strong> and select <strong>Add endpoint</strong>.</li>
        <li>Endpoint URL ${url}.</li>
        <li>
          Events: <code>checkout.session.completed</code>, <code>checkout.session.async_payment_succeeded</code>,
          <code>checkout.session.async_payment_failed</code>, <code>charge.refunded</code> and <code>charge.dispute.created</code>; add
          <code>payment_intent.succeeded</code> and <code>payment_intent.payment_failed</code> only for payments made without Checkout.
        </li>
        <li>Reveal the endpoint’s <strong>Signing secret</strong> (<code>whsec_…</code>) and paste it below under “Replace the secret”.</li>
        <li>
          With the tracking script on the shop’s pages, Payment Links (<code>buy.stripe.com</code>) carry the campaign in
          <code>client_reference_id</code>.
        </li>
      </ol>`,
  },
  hotmart: {
    label: 'Hotmart',
    secret: 'Hottok',
    steps: (url) =>
      html`<ol>
        <li>In Hotmart, open <strong>Tools → Webhook (API and notifications)</strong> and select <strong>Register webhook</strong>.</li>
        <li>Version <em>2.0.0</em>, the product (or all of them), URL ${url}.</li>
        <li>
          Events: purchase approved, complete, canceled, refunded, chargeback, protest (refund request), expired, delayed and billet
          printed.
        </li>
        <li>
          The <strong>Hottok</strong> shown there (Authentication tab) is this source’s secret. Hotmart’s test events appear below as
          ignored.
        </li>
        <li>
          With the tracking script on the shop’s pages, checkout links (<code>pay.hotmart.com</code>) carry the campaign in
          <code>sck</code>.
        </li>
      </ol>`,
  },
};
