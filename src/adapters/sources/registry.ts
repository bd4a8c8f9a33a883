import type { SourcePlatforms } from '../../application/ports/source-platform';
import { readHotmart } from './hotmart/hotmart-reading';
import { verifyHotmart } from './hotmart/hotmart-signature';
import { readShopify } from './shopify/shopify-reading';
import { verifyShopify } from './shopify/shopify-signature';
import { readStripe } from './stripe/stripe-reading';
import { verifyStripe } from './stripe/stripe-signature';
import { readWooCommerce } from './woocommerce/woocommerce-reading';
import { verifyWooCommerce } from './woocommerce/woocommerce-signature';

/**
 * Every platform a source can be made for: how it signs, and how its deliveries read. A platform is a
 * folder with its signature check and its reading, and one line here (its name in the domain's
 * SOURCE_PLATFORMS: this record does not compile while one is missing).
 */
export const SOURCE_PLATFORM_ADAPTERS: SourcePlatforms = {
  shopify: { verify: verifyShopify, read: readShopify },
  woocommerce: { verify: verifyWooCommerce, read: readWooCommerce },
  stripe: { verify: verifyStripe, read: readStripe },
  hotmart: { verify: verifyHotmart, read: readHotmart },
};
