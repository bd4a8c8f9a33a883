import * as t from 'io-ts';
import { MAX_PRODUCT_COST_ENTRIES, PRODUCT_MAX_LENGTH } from '../../../domain/product-cost';
import { arrayOf, int, nullable, str, strictObject } from '../kit/codec-kit';
import { entriesPut } from '../kit/entries-put';
import { described } from '../kit/json-schema';
import { MAX_PAGE_SIZE, pagingParams, single } from '../kit/list-query';
import { cents, currency } from '../orders/order-codecs';
import { calendarDate } from '../spend/spend-codecs';

/** Product costs of decision 0020. */

const product = described(
  str(1, PRODUCT_MAX_LENGTH),
  "An order line's `externalId`, else its `sku`: a line with both is its externalId; a line with neither is `(not set)`.",
);

const ProductCostEntry = strictObject('ProductCostEntry', {
  product,
  currency,
  unitCostCents: described(cents, 'What one unit costs, in cents: it replaces what was stored for this product, currency and day.'),
  from: described(
    calendarDate,
    "A day of the dashboard's time zone: the cost holds from its start until the next entry of the same product and currency.",
  ),
});

export const PutProductCosts = entriesPut('PutProductCosts', ProductCostEntry, MAX_PRODUCT_COST_ENTRIES);

/** A cursor holds a product of up to 255 characters of 4 UTF-8 bytes, escaped, in base64url. */
const CURSOR_MAX = 4_096;

export const ListProductCostsQuery = strictObject(
  'ListProductCostsQuery',
  {},
  {
    product: described(single(product), 'Only the entries of this product.'),
    currency: described(single(currency), 'Only the entries in this currency.'),
    after: described(
      single(str(1, CURSOR_MAX)),
      'The `nextCursor` of the previous answer: the page that follows it, under the same filters, at the cost of the first page whatever its depth.',
    ),
    pageSize: pagingParams('Entries').pageSize,
  },
);

export const ProductCostList = strictObject('ProductCostList', {
  entries: described(
    arrayOf(ProductCostEntry, 0, MAX_PAGE_SIZE),
    'By product, then currency, then `from`, each ascending by Unicode code point.',
  ),
  pageSize: int(1, MAX_PAGE_SIZE),
  nextCursor: described(nullable(t.string), 'The cursor of the next page (`after`); null after the last one.'),
});
