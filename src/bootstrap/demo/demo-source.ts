import { createHmac, randomBytes } from 'node:crypto';
import * as E from 'fp-ts/Either';
import type { UseCases } from '../../application/use-cases';
import type { Source } from '../../domain/source';
import { startOfDate } from '../../domain/time-zone';
import { seeded } from './demo-plan';
import { DEMO_CAMPAIGNS, DEMO_PRODUCTS } from './demo-shop';

/** How many of the past days the demo's Shopify store sold on, one order a day. */
export const DEMO_SOURCE_DAYS = 12;

export interface DemoSourceOptions {
  readonly dashboardId: string;
  /** The last day of the demo's past, in its zone (the deliveries fall on the days before it, included). */
  readonly lastDay: string;
  readonly zone: string;
  readonly seed: number;
}

const cents = (value: number): string => (value / 100).toFixed(2);

/**
 * The demo's Shopify store (decisions 0021, 0024): a source made through its use case, as the console
 * and the API make one, and one signed `orders/create` a day on its last days, received through the
 * use case `POST /in/v1/{sourceId}` calls, so that its page shows the URL to paste, the platform's
 * steps and a log of deliveries. Its secret is random and never shown: nobody needs to sign for it.
 */
export const seedDemoSource = async (useCases: UseCases, options: DemoSourceOptions): Promise<Source> => {
  const secret = randomBytes(24).toString('base64url');
  const made = await useCases.createSource.execute(options.dashboardId, { platform: 'shopify', name: 'Loja Shopify', secret });
  if (E.isLeft(made)) throw new Error(`the demo's source was refused: ${made.left._tag}`);
  const random = seeded(options.seed);
  const lastDayStart = startOfDate(options.lastDay, options.zone);
  for (let day = DEMO_SOURCE_DAYS - 1; day >= 0; day -= 1) {
    const at = new Date(lastDayStart - day * 86_400_000 + Math.floor(random() * 86_400_000)).toISOString();
    const campaign = DEMO_CAMPAIGNS[Math.floor(random() * DEMO_CAMPAIGNS.length)];
    const product = DEMO_PRODUCTS[Math.floor(random() * DEMO_PRODUCTS.length)];
    if (campaign === undefined || product === undefined) throw new Error('the demo has no campaign or product');
    const quantity = 1 + Math.floor(random() * 2);
    const id = 6_100_000_000 + day;
    const body = Buffer.from(
      JSON.stringify({
        id,
        name: `#${1000 + DEMO_SOURCE_DAYS - day}`,
        created_at: at,
        updated_at: at,
        processed_at: at,
        currency: 'BRL',
        financial_status: 'paid',
        gateway: 'shopify_payments',
        total_price: cents(product.priceCents.BRL * quantity),
        landing_site: `/products/${product.sku.toLowerCase()}?utm_source=${campaign.utmSource}&utm_medium=${campaign.utmMedium}&utm_campaign=${campaign.utmCampaign}`,
        customer: { email: `shopify-${day}@demo.example`, first_name: 'Cliente', last_name: `Shopify ${day}` },
        line_items: [
          {
            product_id: 7_000 + DEMO_PRODUCTS.indexOf(product),
            sku: product.sku,
            title: product.name,
            quantity,
            price: cents(product.priceCents.BRL),
          },
        ],
      }),
    );
    const received = await useCases.receiveSourceDelivery.execute(made.right.id, {
      body,
      headers: {
        'x-shopify-topic': 'orders/create',
        'x-shopify-shop-domain': 'loja-demo.myshopify.com',
        'x-shopify-event-id': `demo-${id}`,
        'x-shopify-hmac-sha256': createHmac('sha256', secret).update(body).digest('base64'),
      },
    });
    if (E.isLeft(received)) throw new Error(`the demo's Shopify delivery was refused: ${received.left._tag}`);
  }
  return made.right;
};
