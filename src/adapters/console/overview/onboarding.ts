import { html, type Html } from '../kit/html';

/**
 * What an empty dashboard's Overview shows instead of figures (decision 0022): the three ways orders
 * arrive, each with a copyable example. `base` is where this service answers (PUBLIC_BASE_URL).
 */
export const onboarding = (base: string, owner: boolean): Html => {
  const orderExample = `curl -X POST ${base}/api/v1/orders \\
  -H "Authorization: Bearer YOUR_TOKEN" \\
  -H "Content-Type: application/json" \\
  -d '{"externalId":"order-1001","platform":"other","paymentMethod":"pix",
       "status":"paid","isTest":false,"createdAt":"2026-11-20T14:03:00Z","paidAt":"2026-11-20T14:05:00Z",
       "amounts":{"currency":"BRL","grossCents":15990,"netToSellerCents":14000},
       "products":[{"externalId":"tee","name":"T-shirt","quantity":1,"unitPriceCents":15990}],
       "tracking":{"utmSource":"google","utmMedium":"cpc","utmCampaign":"black-friday"}}'`;
  const trackerExample = `<script src="${base}/tracker.js" data-checkout-hosts="pay.example.com" async></script>`;
  const ownersOnly = owner ? '' : html`<p class="muted">An owner of the dashboard makes sources and tokens.</p>`;
  return html`<section aria-labelledby="start">
    <h2 id="start">How orders arrive</h2>
    <p>This dashboard has no orders yet. Orders come in one of three ways; once the first arrives, this page shows its figures.</p>
    ${ownersOnly}
    <div class="ways">
      <section>
        <h3>1. From your checkout platform</h3>
        <p>
          Shopify, Stripe, WooCommerce and Hotmart send each order as it changes. Make a <a href="/console/sources">source</a>, then paste
          its URL into the platform's webhook settings; the page says where.
        </p>
      </section>
      <section>
        <h3>2. From your own system, with the API</h3>
        <p>Make a <a href="/console/tokens">token</a> that may send orders, then send each order as it changes:</p>
        <pre><code>${orderExample}</code></pre>
        <p>Many at once, up to 500 in a request: <code>POST ${base}/api/v1/orders/batch</code>.</p>
      </section>
      <section>
        <h3>3. Know which ad brought each order</h3>
        <p>Put the tracker on your site's pages; it carries the ad's UTM parameters to the checkout:</p>
        <pre><code>${trackerExample}</code></pre>
        <p>Make links with UTM parameters on the <a href="/console/links">Links</a> page.</p>
      </section>
    </div>
  </section>`;
};
